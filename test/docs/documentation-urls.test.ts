/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test: reads the README and the codex files */
/**
 * The documentation links n8n shows for the nodes and the credential lead to the package's npm
 * page (its README), to a section the README has: they resolve once the package is published,
 * and never to a repository that does not exist.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { ContentGenApi } from '../../credentials/ContentGenApi.credentials';
import { ContentGen } from '../../nodes/ContentGen/ContentGen.node';
import { ContentGenTrigger } from '../../nodes/ContentGenTrigger/ContentGenTrigger.node';

const ROOT = join(__dirname, '..', '..');
const PACKAGE = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string })
	.name;
const PAGE = `https://www.npmjs.com/package/${PACKAGE}`;

/** Anchors of the README's headings, as npm (like GitHub) makes them. */
function anchors(markdown: string): string[] {
	return [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
		m[1]
			.trim()
			.toLowerCase()
			.replace(/[^\w\- ]/g, '')
			.replace(/ /g, '-'),
	);
}

function codexLinks(file: string): string[] {
	const codex = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as {
		resources: Record<string, Array<{ url: string }>>;
	};
	return Object.values(codex.resources).flatMap((list) => list.map((entry) => entry.url));
}

const links: Array<[string, string]> = [
	['credential', new ContentGenApi().documentationUrl],
	['ContentGen node', new ContentGen().description.documentationUrl ?? ''],
	['ContentGen Trigger node', new ContentGenTrigger().description.documentationUrl ?? ''],
	...codexLinks('nodes/ContentGen/ContentGen.node.json').map((url): [string, string] => [
		'ContentGen codex',
		url,
	]),
	...codexLinks('nodes/ContentGenTrigger/ContentGenTrigger.node.json').map(
		(url): [string, string] => ['ContentGen Trigger codex', url],
	),
];

describe('documentation links', () => {
	const readme = anchors(readFileSync(join(ROOT, 'README.md'), 'utf8'));

	it('the README headings give the anchors', () => {
		expect(readme).toEqual(expect.arrayContaining(['credentials', 'operations', 'trigger']));
	});

	it.each(links)("%s: %s is a section of the package's npm page", (_what, url) => {
		const [page, anchor] = url.split('#');
		expect(page).toBe(PAGE);
		expect(readme).toContain(anchor);
	});
});
