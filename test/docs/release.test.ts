/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test: reads package.json */
/**
 * The release check (harness/release.ts, run by `npm run release` and `prepublishOnly`): what it
 * refuses on made-up packages, and that the repository's own package.json, README and
 * documentation links leave only the maintainers' facts to it: the repository's address (the
 * clone's origin) and the author's email.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { type ReleaseInput, releaseInput, releaseProblems } from '../../harness/release';

const REPO = 'https://github.com/acme/n8n-nodes-x';
const GOOD_PKG = {
	name: 'n8n-nodes-x',
	repository: { type: 'git', url: `git+${REPO}.git` },
	bugs: { url: `${REPO}/issues` },
	homepage: `${REPO}#readme`,
	author: { name: 'Acme', url: 'https://github.com/acme' },
	files: ['dist', 'docs/images'],
};
const GOOD_README = [
	'# X',
	'## Usage',
	'See [operations](docs/operations.md#fields) and [usage](#usage).',
	'![panel](docs/images/panel.png)',
	'`[not a link](nowhere.md)`',
].join('\n');
const MARKDOWN: Record<string, string> = { 'docs/operations.md': '# Operations\n## Fields\n' };

const input = (
	change: Partial<ReleaseInput> = {},
	pkg: Record<string, unknown> = {},
): ReleaseInput => ({
	pkg: { ...GOOD_PKG, ...pkg },
	readme: GOOD_README,
	files: ['README.md', 'docs/operations.md', 'docs/images/panel.png'],
	markdown: (path) => MARKDOWN[path] ?? '',
	documentationLinks: [['node', `${REPO}/blob/main/docs/operations.md#fields`]],
	origin: 'git@github.com:acme/n8n-nodes-x.git',
	...change,
});

describe('the release check', () => {
	it('passes a complete package whose links all resolve', () => {
		expect(releaseProblems(input())).toEqual([]);
	});

	it("refuses today's kind of package.json: no repository, no bugs, npm's page as homepage, a placeholder author", () => {
		const problems = releaseProblems(
			input(
				{},
				{
					repository: undefined,
					bugs: undefined,
					homepage: 'https://www.npmjs.com/package/n8n-nodes-x',
					author: { name: 'x maintainers', email: 'maintainers@users.noreply.github.com' },
					files: ['dist'],
				},
			),
		);
		expect(problems).toEqual([
			"package.json has no 'repository': npm shows no source link and the README's relative links and images do not resolve",
			"package.json has no 'bugs' address",
			"package.json's 'homepage' is https://www.npmjs.com/package/n8n-nodes-x, the npm page itself: point it at the repository's README",
			'package.json\'s \'author\' is a placeholder: {"name":"x maintainers","email":"maintainers@users.noreply.github.com"}',
			"README link docs/operations.md#fields: a relative link resolves on npm's page only against 'repository'",
			"README image docs/images/panel.png: not in the tarball ('files' in package.json), so npm's page shows no picture",
		]);
	});

	it('refuses until the repository is the one this clone pushes to', () => {
		expect(releaseProblems(input({ origin: undefined }))).toEqual([
			`package.json's 'repository' is ${REPO}, but this clone has no 'origin' to compare it with: release from a clone of the public repository`,
		]);
		expect(releaseProblems(input({ origin: 'https://github.com/someone/fork.git' }))).toEqual([
			`package.json's 'repository' is ${REPO}, but this clone's 'origin' is https://github.com/someone/fork.git: set the public repository's address (docs/development.md, Releasing)`,
		]);
		expect(
			releaseProblems(input({}, { repository: 'https://github.com/<owner>/n8n-nodes-x' }))[0],
		).toBe(
			"package.json's 'repository' (\"https://github.com/<owner>/n8n-nodes-x\") is not a GitHub repository's address",
		);
	});

	it('refuses bugs elsewhere, an author without contact or of another owner', () => {
		expect(releaseProblems(input({}, { bugs: 'https://example.com/bugs' }))).toEqual([
			`package.json's 'bugs' is https://example.com/bugs, not ${REPO}/issues`,
		]);
		expect(releaseProblems(input({}, { author: { name: 'Acme' } }))).toEqual([
			"package.json's 'author' has neither an email nor a url",
		]);
		expect(releaseProblems(input({}, { author: 'Acme <acme@example.com>' }))).toEqual([
			"package.json has no 'author' object with a name",
		]);
		expect(
			releaseProblems(input({}, { author: { name: 'Acme', url: 'https://github.com/other' } })),
		).toEqual([`package.json's 'author' url https://github.com/other is not the owner of ${REPO}`]);
	});

	it('refuses README links and documentation links that lead nowhere', () => {
		const readme = [
			'# X',
			'[gone](docs/gone.md) [no section](docs/operations.md#nope) [here](#nowhere)',
			`[own page](${REPO}/blob/main/docs/missing.md) <img src="docs/images/other.png">`,
		].join('\n');
		expect(
			releaseProblems(
				input(
					{
						readme,
						files: ['docs/operations.md', 'docs/images/other.png'],
						documentationLinks: [
							['node', 'https://www.npmjs.com/package/n8n-nodes-x#usage'],
							['credential', `${REPO}/blob/main/docs/operations.md#credentials`],
							['codex', 'https://elsewhere.example/docs'],
						],
					},
					{ files: ['dist'] },
				),
			),
		).toEqual([
			'README link docs/gone.md: docs/gone.md is not in the repository',
			'README link docs/operations.md#nope: docs/operations.md has no section #nope',
			'README link #nowhere: README has no such section',
			`README link ${REPO}/blob/main/docs/missing.md: docs/missing.md is not in the repository`,
			"README image docs/images/other.png: not in the tarball ('files' in package.json), so npm's page shows no picture",
			'node: https://www.npmjs.com/package/n8n-nodes-x#usage is an anchor of the npm page, not documentation',
			'credential: docs/operations.md has no section #credentials',
			`codex: https://elsewhere.example/docs is not a page of ${REPO}`,
		]);
	});
});

describe("this package's release check", () => {
	it("once the clone's origin is package.json's repository, only the author's email is left to a maintainer", () => {
		const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
			repository?: { url?: string };
			author?: unknown;
		};
		expect(releaseProblems(releaseInput(pkg.repository?.url))).toEqual([
			`package.json's 'author' is a placeholder: ${JSON.stringify(pkg.author)}`,
		]);
	});
});
