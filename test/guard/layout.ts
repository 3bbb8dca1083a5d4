/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the source tree from disk */
/**
 * Where code may reach: tests never import scripts/ (scripts are commands a person runs), the
 * benchmarks take shared fixtures from harness/ rather than test internals, and no code file
 * outside nodes/ grows past 400 lines.
 */
import { readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize } from 'path';

const ROOT = join(__dirname, '..', '..');
const MAX_LINES = 400;

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

	it('no code file outside nodes/ has more than 400 lines', () => {
		const long = tracked
			.filter((file) => !file.startsWith('nodes/'))
			.map((file) => [file, readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1] as const)
			.filter(([, lines]) => lines > MAX_LINES);
		expect(long.map(([file, lines]) => `${file}: ${lines} lines`)).toEqual([]);
	});
});
