/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the source tree from disk */
/**
 * Where code may reach: tests never import scripts/ (scripts are commands a person runs), the
 * benchmarks take shared fixtures from harness/ rather than test internals, and files stay short:
 * 300 lines in nodes/, 400 elsewhere.
 */
import { readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize } from 'path';

const ROOT = join(__dirname, '..', '..');
/** Lines a file may have: nodes/ is read by people adding an operation, the rest by maintainers. */
const maxLines = (file: string) => (file.startsWith('nodes/') ? 300 : 400);

/** What is not the repository's own code: installed packages, build output, git's store. */
const SKIPPED = new Set(['node_modules', 'dist', '.git']);

function codeFiles(dir: string, prefix = ''): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		if (SKIPPED.has(entry.name)) return [];
		const name = `${prefix}${entry.name}`;
		if (entry.isDirectory()) return codeFiles(join(dir, entry.name), `${name}/`);
		return /\.(ts|js|mjs|sh)$/.test(entry.name) ? [name] : [];
	});
}

const tracked = codeFiles(ROOT);

/** Repository-relative targets of a file's relative imports and requires. */
function importsOf(file: string): string[] {
	const text = readFileSync(join(ROOT, file), 'utf8');
	const targets = [...text.matchAll(/(?:from|import\(|require\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)];
	return targets.map((m) => normalize(join(dirname(file), m[1])));
}

/** Files longer than their bound, as "file: N lines (at most M)". */
function tooLong(
	files: string[],
	read = (file: string) => readFileSync(join(ROOT, file), 'utf8'),
): string[] {
	return files
		.map((file) => [file, read(file).split('\n').length - 1] as const)
		.filter(([file, lines]) => lines > maxLines(file))
		.map(([file, lines]) => `${file}: ${lines} lines (at most ${maxLines(file)})`);
}

const under = (prefix: string) => tracked.filter((file) => file.startsWith(prefix));

describe('layout', () => {
	it('test/ never imports scripts/', () => {
		const found = under('test/').flatMap((file) =>
			importsOf(file)
				.filter((target) => target.startsWith('scripts/'))
				.map((target) => `${file} -> ${target}`),
		);
		expect(found).toEqual([]);
	});

	it('bench/ takes no test helper (the shared fixtures are in harness/)', () => {
		const found = under('bench/').flatMap((file) =>
			importsOf(file)
				.filter((t) => t.startsWith('test/'))
				.map((target) => `${file} -> ${target}`),
		);
		expect(found).toEqual([]);
	});

	it('no file in nodes/ has more than 300 lines, no other code file more than 400', () => {
		expect(tooLong(tracked)).toEqual([]);
	});
});

describe('the length check can fail', () => {
	it('counts lines, and holds nodes/ to its own bound', () => {
		const lines = (n: number) => 'x\n'.repeat(n);
		expect(
			tooLong(['nodes/a.ts', 'nodes/b.ts', 'test/c.ts', 'test/d.ts'], (file) =>
				lines(
					{ 'nodes/a.ts': 300, 'nodes/b.ts': 301, 'test/c.ts': 400, 'test/d.ts': 401 }[file] ?? 0,
				),
			),
		).toEqual(['nodes/b.ts: 301 lines (at most 300)', 'test/d.ts: 401 lines (at most 400)']);
	});
});
