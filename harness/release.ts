/* eslint-disable @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- reads the repository and asks git for its files and origin, requires the node files by full name */
/**
 * What a release must have before it is tagged or published, as a pure function of the package's
 * files: npm's page shows package.json's `repository`, `bugs`, `homepage` and `author`, and renders
 * the README as npm renders it: a relative link goes to the file's page in `repository` on GitHub
 * (`<repository>/blob/HEAD/<path>`) and a relative picture is loaded from it
 * (`raw.githubusercontent.com/<owner>/<name>/HEAD/<path>`), never from the tarball; so each must be
 * in the repository. The README is read once published: it says how to install the package by name
 * from n8n's Community Nodes and never that it is unpublished. n8n's reviewers open those first, and
 * n8n's editor links the nodes' documentation. scripts/check-release.ts runs it on this repository
 * (releaseInput, at the end, reads it) before `n8n-node release`/`prerelease`.
 */
import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { join, resolve } from 'path';

import { ContentGenApi } from '../credentials/ContentGenApi.credentials';
import type { ContentGen as ContentGenClass } from '../nodes/ContentGen/ContentGen.node';
import type { ContentGenTrigger as ContentGenTriggerClass } from '../nodes/ContentGenTrigger/ContentGenTrigger.node';

export interface ReleaseInput {
	/** package.json, parsed. */
	pkg: Record<string, unknown>;
	readme: string;
	/** Every file of the repository (relative paths), and the text of its Markdown files. */
	files: string[];
	markdown: (path: string) => string;
	/** Where n8n links the documentation: documentationUrl of the nodes and credential, codex links. */
	documentationLinks: Array<[where: string, url: string]>;
	/** The repository this clone pushes to (its `origin`, or GitHub Actions' repository), if any. */
	origin: string | undefined;
}

/** Words that mark a value nobody filled in. */
const PLACEHOLDER =
	/<[^>]*>|\bexample\.(com|org|net)\b|\bnoreply\b|\byour[-_ ]|\bTODO\b|\bOWNER\b/i;

/** `https://github.com/owner/name` from any spelling npm accepts, or undefined. */
export function githubRepository(value: unknown): string | undefined {
	const raw =
		typeof value === 'object' && value !== null ? (value as { url?: unknown }).url : value;
	if (typeof raw !== 'string') return undefined;
	const match =
		/^(?:git\+)?(?:https?|git|ssh):\/\/(?:git@)?github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(
			raw,
		) ??
		/^git@github\.com:([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(raw) ??
		/^(?:github:)?([\w.-]+)\/([\w.-]+?)$/.exec(raw);
	return match ? `https://github.com/${match[1]}/${match[2]}` : undefined;
}

/** Heading anchors as GitHub and npm make them. */
export function anchorsOf(markdown: string): string[] {
	return [...withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
		m[1]
			.trim()
			.toLowerCase()
			.replace(/[^\w\- ]/g, '')
			.replace(/ /g, '-'),
	);
}

function withoutCode(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The README's links and images: `[text](target)`, `![alt](src)`, `<img src>`, `<a href>`. */
export function linksOf(markdown: string): Array<{ image: boolean; target: string }> {
	const text = withoutCode(markdown);
	const found = [...text.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
		(m) => ({ image: m[1] === '!', target: m[2] }),
	);
	for (const m of text.matchAll(/<(img|a)\s[^>]*?(src|href)="([^"]+)"/gi))
		found.push({ image: m[1].toLowerCase() === 'img', target: m[3] });
	return found;
}

/** A repository path with an optional anchor: a problem, or undefined when both exist. */
function missingTarget(
	input: ReleaseInput,
	path: string,
	anchor: string | undefined,
): string | undefined {
	const file = path.replace(/^\.\//, '').replace(/\/$/, '');
	const isFolder = input.files.some((f) => f.startsWith(`${file}/`));
	if (!input.files.includes(file) && !isFolder) return `${path} is not in the repository`;
	if (anchor && file.endsWith('.md') && !anchorsOf(input.markdown(file)).includes(anchor))
		return `${file} has no section #${anchor}`;
	return undefined;
}

function metadataProblems(pkg: Record<string, unknown>, origin: string | undefined): string[] {
	const problems: string[] = [];
	const repository = githubRepository(pkg.repository);
	if (pkg.repository === undefined)
		problems.push(
			"package.json has no 'repository': npm shows no source link and the README's relative links and images do not resolve",
		);
	else if (!repository || PLACEHOLDER.test(repository))
		problems.push(
			`package.json's 'repository' (${JSON.stringify(pkg.repository)}) is not a GitHub repository's address`,
		);
	else if (origin === undefined)
		problems.push(
			`package.json's 'repository' is ${repository}, but this clone has no 'origin' to compare it with: release from a clone of the public repository`,
		);
	else if (githubRepository(origin)?.toLowerCase() !== repository.toLowerCase())
		problems.push(
			`package.json's 'repository' is ${repository}, but this clone's 'origin' is ${origin}: set the public repository's address (docs/development.md, Releasing)`,
		);

	const bugs =
		typeof pkg.bugs === 'object' && pkg.bugs !== null
			? (pkg.bugs as { url?: unknown }).url
			: pkg.bugs;
	if (typeof bugs !== 'string') problems.push("package.json has no 'bugs' address");
	else if (repository && bugs !== `${repository}/issues`)
		problems.push(`package.json's 'bugs' is ${bugs}, not ${repository}/issues`);

	const homepage = pkg.homepage;
	if (typeof homepage !== 'string') problems.push("package.json has no 'homepage'");
	else if (/npmjs\.(com|org)/.test(homepage))
		problems.push(
			`package.json's 'homepage' is ${homepage}, the npm page itself: point it at the repository's README`,
		);
	else if (repository && !homepage.startsWith(repository))
		problems.push(`package.json's 'homepage' (${homepage}) is not in ${repository}`);

	const author = pkg.author as { name?: unknown; email?: unknown; url?: unknown } | undefined;
	const contact = [author?.email, author?.url].filter((v): v is string => typeof v === 'string');
	if (
		typeof author !== 'object' ||
		author === null ||
		typeof author.name !== 'string' ||
		!author.name.trim()
	)
		problems.push("package.json has no 'author' object with a name");
	else if (contact.length === 0)
		problems.push("package.json's 'author' has neither an email nor a url");
	else if ([author.name, ...contact].some((value) => PLACEHOLDER.test(value as string)))
		problems.push(`package.json's 'author' is a placeholder: ${JSON.stringify(author)}`);
	else if (
		repository &&
		typeof author.url === 'string' &&
		/github\.com/.test(author.url) &&
		!repository.toLowerCase().startsWith(author.url.replace(/\/$/, '').toLowerCase())
	)
		problems.push(`package.json's 'author' url ${author.url} is not the owner of ${repository}`);
	return problems;
}

/** Where npm's page sends a README link or loads a README picture from, as npm resolves it. */
export function npmResolves(repository: string, path: string, image: boolean): string {
	const clean = path.replace(/^(\.\/|\/)+/, '');
	return image
		? `${repository.replace('https://github.com/', 'https://raw.githubusercontent.com/')}/HEAD/${clean}`
		: `${repository}/blob/HEAD/${clean}`;
}

/** Words that say the package is not published: npm's page shows the README only once it is. */
const UNPUBLISHED =
	/[^.\n]*\b(?:not (?:yet )?(?:on|in) (?:the )?npm(?: registry)?|not (?:yet )?published|unpublished)\b[^.\n]*/i;

function readmeProblems(input: ReleaseInput, repository: string | undefined): string[] {
	const problems: string[] = [];
	const name = String(input.pkg.name);
	const unpublished = UNPUBLISHED.exec(input.readme);
	if (unpublished)
		problems.push(
			`README says the package is unpublished ("${unpublished[0].trim()}"), but npm's page shows it only once it is published`,
		);
	if (!/Community Nodes/.test(input.readme) || !input.readme.includes(`\`${name}\``))
		problems.push(
			`README does not say how to install \`${name}\` by name from n8n's Community Nodes`,
		);
	const ownRaw =
		repository && repository.replace('https://github.com/', 'https://raw.githubusercontent.com/');
	for (const { image, target } of linksOf(input.readme)) {
		const what = `README ${image ? 'image' : 'link'} ${target}`;
		if (/^(https?:|mailto:)/.test(target)) {
			const own =
				repository &&
				(new RegExp(`^${repository}/(?:blob|tree|raw)/(?:main|HEAD)/([^#?]+)(?:#(.+))?$`).exec(
					target,
				) ??
					new RegExp(`^${ownRaw}/(?:main|HEAD)/([^#?]+)$`).exec(target));
			if (/npmjs\.com\/package\/[^/]+#/.test(target))
				problems.push(`${what}: an anchor of the npm page`);
			else if (own) {
				const missing = missingTarget(input, own[1], own[2]);
				if (missing) problems.push(`${what}: ${missing}`);
			}
			continue;
		}
		const [path, anchor] = target.split('#');
		if (path === '') {
			if (!anchorsOf(input.readme).includes(anchor))
				problems.push(`${what}: README has no such section`);
			continue;
		}
		if (!repository) {
			problems.push(
				`${what}: npm's page resolves a relative ${image ? 'picture' : 'link'} only against 'repository'`,
			);
			continue;
		}
		const missing = missingTarget(input, path, anchor);
		const shown = npmResolves(repository, path, image);
		if (missing)
			problems.push(
				`${what}: ${missing}, so npm's page ${image ? 'shows no picture' : 'links nowhere'} (${shown})`,
			);
	}
	return problems;
}

function documentationProblems(input: ReleaseInput, repository: string | undefined): string[] {
	return input.documentationLinks.flatMap(([where, url]) => {
		const [page, anchor] = url.split('#');
		if (/npmjs\.(com|org)/.test(page))
			return [`${where}: ${url} is an anchor of the npm page, not documentation`];
		if (!repository) return [];
		if (page === repository)
			return anchor && !anchorsOf(input.readme).includes(anchor)
				? [`${where}: README has no section #${anchor}`]
				: [];
		const own = new RegExp(`^${repository}/blob/main/(.+)$`).exec(page);
		if (!own) return [`${where}: ${url} is not a page of ${repository}`];
		const missing = missingTarget(input, own[1], anchor);
		return missing ? [`${where}: ${missing}`] : [];
	});
}

/** Everything that keeps this package from being released, in words; empty when it may ship. */
export function releaseProblems(input: ReleaseInput): string[] {
	const repository = githubRepository(input.pkg.repository);
	const own = repository && !PLACEHOLDER.test(repository) ? repository : undefined;
	return [
		...metadataProblems(input.pkg, input.origin),
		...readmeProblems(input, own),
		...documentationProblems(input, own),
	];
}

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

/** The address this clone pushes to: its git `origin`, or GitHub Actions' repository. */
export function cloneOrigin(): string | undefined {
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
