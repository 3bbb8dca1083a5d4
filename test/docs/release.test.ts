/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test: reads package.json */
/**
 * The release check (harness/release.ts, run by `npm run release` and `prepublishOnly`): what it
 * refuses on made-up packages, README links and pictures resolved as npm's page resolves them
 * (against `repository`, not the tarball), and that the repository's own package.json, README and
 * documentation links leave only the maintainers' facts to it: the repository's address (the
 * clone's origin) and the author's email; with both set, it passes.
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
	files: ['dist'],
};
const GOOD_README = [
	'# X',
	'## Usage',
	"In n8n's Community Nodes, install `n8n-nodes-x`.",
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
				},
			),
		);
		expect(problems).toEqual([
			"package.json has no 'repository': npm shows no source link and the README's relative links and images do not resolve",
			"package.json has no 'bugs' address",
			"package.json's 'homepage' is https://www.npmjs.com/package/n8n-nodes-x, the npm page itself: point it at the repository's README",
			'package.json\'s \'author\' is a placeholder: {"name":"x maintainers","email":"maintainers@users.noreply.github.com"}',
			"README link docs/operations.md#fields: npm's page resolves a relative link only against 'repository'",
			"README image docs/images/panel.png: npm's page resolves a relative picture only against 'repository'",
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
			"In n8n's Community Nodes, install `n8n-nodes-x`.",
		].join('\n');
		expect(
			releaseProblems(
				input(
					{
						readme,
						files: ['docs/operations.md'],
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
			`README link docs/gone.md: docs/gone.md is not in the repository, so npm's page links nowhere (${REPO}/blob/HEAD/docs/gone.md)`,
			`README link docs/operations.md#nope: docs/operations.md has no section #nope, so npm's page links nowhere (${REPO}/blob/HEAD/docs/operations.md)`,
			'README link #nowhere: README has no such section',
			`README link ${REPO}/blob/main/docs/missing.md: docs/missing.md is not in the repository`,
			"README image docs/images/other.png: docs/images/other.png is not in the repository, so npm's page shows no picture (https://raw.githubusercontent.com/acme/n8n-nodes-x/HEAD/docs/images/other.png)",
			'node: https://www.npmjs.com/package/n8n-nodes-x#usage is an anchor of the npm page, not documentation',
			'credential: docs/operations.md has no section #credentials',
			`codex: https://elsewhere.example/docs is not a page of ${REPO}`,
		]);
	});

	it('refuses a README that says the package is unpublished, or gives no install by name', () => {
		const readme = `${GOOD_README}\nThe package is not on the npm registry yet. Build the tarball from a clone.`;
		expect(releaseProblems(input({ readme }))).toEqual([
			'README says the package is unpublished ("The package is not on the npm registry yet"), but npm\'s page shows it only once it is published',
		]);
		expect(releaseProblems(input({ readme: readme.replace(/.*Community Nodes.*\n/, '') }))).toEqual(
			[
				'README says the package is unpublished ("The package is not on the npm registry yet"), but npm\'s page shows it only once it is published',
				"README does not say how to install `n8n-nodes-x` by name from n8n's Community Nodes",
			],
		);
	});

	it('takes pictures from the repository (npm never reads them from the tarball) and checks absolute ones into it', () => {
		const readme = [
			GOOD_README,
			'![kept](./docs/images/panel.png)',
			`![raw](https://raw.githubusercontent.com/acme/n8n-nodes-x/HEAD/docs/images/gone.png)`,
		].join('\n');
		expect(releaseProblems(input({ readme }, { files: ['dist'] }))).toEqual([
			'README image https://raw.githubusercontent.com/acme/n8n-nodes-x/HEAD/docs/images/gone.png: docs/images/gone.png is not in the repository',
		]);
	});
});

describe("this package's release check", () => {
	const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
		repository?: { url?: string };
		author?: Record<string, string>;
	};
	const published = releaseInput(pkg.repository?.url);

	it("once the clone's origin is package.json's repository, only the author's email is left to a maintainer", () => {
		expect(releaseProblems(published)).toEqual([
			`package.json's 'author' is a placeholder: ${JSON.stringify(pkg.author)}`,
		]);
	});

	it("passes once the maintainers' two facts are set: the origin and a real author email", () => {
		const author = { ...pkg.author, email: 'maintainers@contentgen-nodes.dev' };
		expect(releaseProblems({ ...published, pkg: { ...published.pkg, author } })).toEqual([]);
	});

	it('refuses this README with the old sentence back, or with a picture the repository lacks', () => {
		const author = { ...pkg.author, email: 'maintainers@contentgen-nodes.dev' };
		const base = { ...published, pkg: { ...published.pkg, author } };
		expect(
			releaseProblems({
				...base,
				readme: `${published.readme}\nThe package is not on the npm registry yet.\n`,
			}),
		).toEqual([
			'README says the package is unpublished ("The package is not on the npm registry yet"), but npm\'s page shows it only once it is published',
		]);
		expect(
			releaseProblems({
				...base,
				files: published.files.filter((file) => file !== 'docs/images/picker-actions.png'),
			}),
		).toEqual([
			"README image docs/images/picker-actions.png: docs/images/picker-actions.png is not in the repository, so npm's page shows no picture (https://raw.githubusercontent.com/n8n-nodes-contentgen/n8n-nodes-contentgen/HEAD/docs/images/picker-actions.png)",
		]);
	});
});
