/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads the source tree from disk */
/**
 * The import graph of nodes/ and credentials/, read with a small parser of relative imports and
 * re-exports (`import ... from './x'`, `export ... from './x'`, type-only ones included): no
 * circle anywhere, and the shared layers import downwards only. The same parser over all of the
 * repository's own TypeScript (sandbox, harness, tests, benchmarks, scripts): no circle there either.
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, relative } from 'path';

import { packageSources, ROOT } from '../helpers/sources';

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*['"](\.{1,2}\/[^'"]*)['"]/g;

/** The repository-relative files a source imports from, resolved the way TypeScript does. */
function importsOf(file: string, text: string): string[] {
	const out: string[] = [];
	for (const match of text.matchAll(SPECIFIER)) {
		const target = join(dirname(file), match[1]);
		const candidates = [`${target}.ts`, join(target, 'index.ts'), target];
		const found = candidates.find((candidate) => existsSync(join(ROOT, candidate)));
		if (found && found.endsWith('.ts')) out.push(found);
	}
	return out;
}

/** A circle through each strongly connected knot of the graph, as the files around it. */
function circles(graph: Map<string, string[]>): string[][] {
	const found = new Map<string, string[]>();
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const visit = (node: string) => {
		state.set(node, 'open');
		stack.push(node);
		for (const next of graph.get(node) ?? []) {
			if (state.get(next) === 'open') {
				const loop = stack.slice(stack.indexOf(next));
				const start = loop.indexOf([...loop].sort()[0]);
				const canonical = [...loop.slice(start), ...loop.slice(0, start)];
				found.set(canonical.join(' -> '), canonical);
			} else if (!state.has(next)) visit(next);
		}
		stack.pop();
		state.set(node, 'done');
	};
	for (const node of graph.keys()) if (!state.has(node)) visit(node);
	return [...found.values()];
}

/** The trigger's change tracking: pure, it reads only through the reader it is given. */
const TRACKER = /^nodes\/ContentGenTrigger\/tracker\//;
const TRACKER_MAY_NOT_IMPORT =
	/^nodes\/(?!ContentGenTrigger\/(tracker\/|events\.ts$)|shared\/(constants\.ts$|domain\/))/;

const PACKAGE = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'".][^'"]*)['"]/g;

/** The packages a source imports (anything not relative). */
function packagesOf(text: string): string[] {
	return [...text.matchAll(PACKAGE)].map((match) => match[1]);
}

const graph = new Map<string, string[]>();
const packages = new Map<string, string[]>();
for (const file of packageSources()) {
	const name = relative(ROOT, file);
	const text = readFileSync(file, 'utf8');
	graph.set(name, importsOf(name, text));
	packages.set(name, packagesOf(text));
}

describe('imports in nodes/ and credentials/', () => {
	it('are read (the parser sees the one transport)', () => {
		expect(graph.get('nodes/shared/transport/pages.ts')).toContain(
			'nodes/shared/transport/request.ts',
		);
	});

	it('form no circle', () => {
		expect(circles(graph).map((loop) => [...loop, loop[0]].join(' -> '))).toEqual([]);
	});

	const layers: Array<[string, RegExp, RegExp]> = [
		['shared code imports no node', /^nodes\/shared\//, /^nodes\/ContentGen(Trigger)?\//],
		[
			'validation imports only constants and itself',
			/^nodes\/shared\/validation\//,
			/^nodes\/(?!shared\/(constants\.ts|validation\/))/,
		],
		[
			'transport imports no domain, validation or node code',
			/^nodes\/shared\/transport\//,
			/^nodes\/(ContentGen|shared\/(domain|validation))/,
		],
		[
			"the trigger's tracker imports only itself, the events and shared constants and domain",
			TRACKER,
			TRACKER_MAY_NOT_IMPORT,
		],
		[
			"the trigger's state imports nothing but itself: it is the memory as it is",
			/^nodes\/ContentGenTrigger\/tracker\/state\//,
			/^nodes\/(?!ContentGenTrigger\/tracker\/state\/)/,
		],
	];
	it("the trigger's tracker imports no package, n8n-workflow included", () => {
		const tracker = [...packages].filter(([file]) => TRACKER.test(file));
		expect(tracker.length).toBeGreaterThan(10);
		expect(tracker.flatMap(([file, used]) => used.map((p) => `${file} -> ${p}`))).toEqual([]);
	});

	it.each(layers)('%s', (_rule, from, forbidden) => {
		const broken = [...graph]
			.filter(([file]) => from.test(file))
			.flatMap(([file, targets]) =>
				targets.filter((t) => forbidden.test(t)).map((t) => `${file} -> ${t}`),
			);
		expect(broken).toEqual([]);
	});
});

/** The repository's own TypeScript: everything but installed packages, build output and git's store. */
function ownSources(dir = ROOT): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		if (['node_modules', 'dist', '.git'].includes(entry.name)) return [];
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return ownSources(path);
		return entry.name.endsWith('.ts') ? [relative(ROOT, path)] : [];
	});
}

describe("imports across the repository's own code", () => {
	const all = new Map(
		ownSources().map((file) => [file, importsOf(file, readFileSync(join(ROOT, file), 'utf8'))]),
	);

	it('are read (the sandbox, the harness, the tests and the benchmarks are in the graph)', () => {
		expect(all.get('bench/figures.ts')).toContain('bench/cost-table.ts');
		expect(all.get('test/guard/cases.ts')).toContain('test/guard/repo.ts');
		expect(all.get('sandbox/store.ts')).toContain('sandbox/records.ts');
	});

	it('form no circle (type imports included): a type both sides need goes to a file of its own', () => {
		expect(circles(all).map((loop) => [...loop, loop[0]].join(' -> '))).toEqual([]);
	});
});

describe("the tracker's rules can fail", () => {
	it('name the n8n side, the transport and a package, not the events or shared domain', () => {
		const forbidden = [
			'nodes/ContentGenTrigger/service-reader.ts',
			'nodes/ContentGenTrigger/ContentGenTrigger.node.ts',
			'nodes/shared/transport/request.ts',
			'nodes/shared/validation/index.ts',
			'nodes/ContentGenTrigger/tracker/poll.ts',
			'nodes/ContentGenTrigger/events.ts',
			'nodes/shared/domain/statuses.ts',
			'nodes/shared/constants.ts',
		].filter((file) => TRACKER_MAY_NOT_IMPORT.test(file));
		expect(forbidden).toEqual([
			'nodes/ContentGenTrigger/service-reader.ts',
			'nodes/ContentGenTrigger/ContentGenTrigger.node.ts',
			'nodes/shared/transport/request.ts',
			'nodes/shared/validation/index.ts',
		]);
		const text = "import type { X } from 'n8n-workflow';\nimport { y } from '../reader';";
		expect(packagesOf(text)).toEqual(['n8n-workflow']);
	});
});

describe('the circle finder can fail', () => {
	it('finds a two-file circle and a longer one, each once', () => {
		const sample = new Map([
			['a', ['b']],
			['b', ['a', 'c']],
			['c', ['d']],
			['d', ['c', 'e']],
			['e', []],
		]);
		expect(circles(sample)).toEqual([
			['a', 'b'],
			['c', 'd'],
		]);
	});

	it('reads import, import type and export-from lines', () => {
		const text = [
			"import type { X } from './http';",
			"import {\n\ta,\n\tb,\n} from '../constants';",
			"export { y } from './retry';",
			"import { z } from 'n8n-workflow';",
		].join('\n');
		expect(importsOf('nodes/shared/transport/refusals.ts', text)).toEqual([
			'nodes/shared/transport/http.ts',
			'nodes/shared/constants.ts',
			'nodes/shared/transport/retry.ts',
		]);
	});
});
