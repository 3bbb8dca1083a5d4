/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test: reads the documentation files */
// Every picture the documentation shows is in the repository: a page that names a missing image
// (a screenshot the editor suite has not taken, a renamed file) fails here, not on GitHub.
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, relative } from 'path';

const ROOT = join(__dirname, '..', '..');
const DOCS = join(ROOT, 'docs');

const pages = [
	join(ROOT, 'README.md'),
	...(existsSync(DOCS) ? readdirSync(DOCS) : [])
		.filter((name) => name.endsWith('.md'))
		.map((name) => join(DOCS, name)),
];

/** Local images a markdown page names: `![alt](path "title")` and `<img src="path">`. */
function imagesOf(markdown: string): string[] {
	const named = [
		...[...markdown.matchAll(/!\[[^\]]*\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)].map(
			(m) => m[1] ?? m[2],
		),
		...[...markdown.matchAll(/<img\b[^>]*\bsrc=["']([^"']+)["']/gi)].map((m) => m[1]),
	];
	return named
		.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
		.map((target) => decodeURIComponent(target.split('#')[0].split('?')[0]));
}

describe('images named in the documentation', () => {
	it('are found in markdown and html forms, remote ones left out', () => {
		expect(
			imagesOf(
				'![a](docs/images/a.png) ![b](<docs/images/b c.png> "B") <img src="images/c.png" width=400> ![d](https://x.test/d.png)',
			),
		).toEqual(['docs/images/a.png', 'docs/images/b c.png', 'images/c.png']);
	});

	it.each(pages.map((page) => [relative(ROOT, page), page]))(
		'%s: every image it names exists',
		(_, page) => {
			const missing = imagesOf(readFileSync(page, 'utf8')).filter(
				(image) => !existsSync(join(dirname(page), image)),
			);
			expect(missing).toEqual([]);
		},
	);
});
