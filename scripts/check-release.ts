/* eslint-disable no-console, @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- a release check that runs in Node: reads the repository and asks git for its files and origin, requires the node files by full name, sets the exit code */
/**
 * Runs before `n8n-node release` and `n8n-node prerelease` (package.json's `release` and
 * `prepublishOnly`): refuses while npm's page would lack the repository, the issue tracker or a
 * real author, or would show a README link or picture that leads nowhere, or while n8n's
 * documentation links would (harness/release.ts says what is checked).
 */
import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { join, resolve } from 'path';

import { ContentGenApi } from '../credentials/ContentGenApi.credentials';
import { releaseProblems, type ReleaseInput } from '../harness/release';
import type { ContentGen as ContentGenClass } from '../nodes/ContentGen/ContentGen.node';
import type { ContentGenTrigger as ContentGenTriggerClass } from '../nodes/ContentGenTrigger/ContentGenTrigger.node';

// Beside each node file is its codex file (.node.json), which Node's resolution would pick first.
const { ContentGen } = require('../nodes/ContentGen/ContentGen.node.ts') as {
	ContentGen: typeof ContentGenClass;
};
const { ContentGenTrigger } = require('../nodes/ContentGenTrigger/ContentGenTrigger.node.ts') as {
	ContentGenTrigger: typeof ContentGenTriggerClass;
};

const root = resolve(__dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const git = (...args: string[]) =>
	execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

function origin(): string | undefined {
	try {
		return git('remote', 'get-url', 'origin').trim();
	} catch {
		const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository } = process.env;
		return server && repository ? `${server}/${repository}` : undefined;
	}
}

const codex = (file: string) =>
	Object.values(
		(JSON.parse(read(file)) as { resources: Record<string, Array<{ url: string }>> }).resources,
	).flatMap((list) => list.map((entry): [string, string] => [file, entry.url]));

/** What the check reads of this repository, with `origin` as the address it is published from. */
export const releaseInput = (origin: string | undefined): ReleaseInput => ({
	pkg: JSON.parse(read('package.json')) as Record<string, unknown>,
	readme: read('README.md'),
	files: git('ls-files').split('\n').filter(Boolean),
	markdown: read,
	documentationLinks: [
		['the credential', new ContentGenApi().documentationUrl],
		['ContentGen', new ContentGen().description.documentationUrl ?? ''],
		['ContentGen Trigger', new ContentGenTrigger().description.documentationUrl ?? ''],
		...codex('nodes/ContentGen/ContentGen.node.json'),
		...codex('nodes/ContentGenTrigger/ContentGenTrigger.node.json'),
	],
	origin,
});

if (require.main === module) {
	const problems = releaseProblems(releaseInput(origin()));
	if (problems.length > 0) {
		console.error(
			`Not released: ${problems.length} thing(s) to fix first\n- ${problems.join('\n- ')}`,
		);
		process.exit(1);
	}
	console.log('release check passed: package.json, README links and images, documentation links');
}
