/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- reads the test tree and the jest configurations from disk */
/**
 * The test tree is what test/README.md says: every test file (what a jest project of the
 * repository matches) fits a row of its table, folder and suffix; every file that declares tests
 * is a test file or imported by one (a guard file that guard.test.ts forgets would never run); and
 * a module another test folder imports is a shared helper in test/helpers/ (or one of the tables
 * the README names).
 */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize } from 'path';

import { ROOT } from '../helpers/sources';
import { tablesOf } from '../helpers/tables';
import { plain } from './repo';

/** The jest configurations: the default one (behaviour and repository) and two of their own. */
const PROJECTS = ['jest.config.js', 'test/n8n/jest.config.js', 'test/editor/jest.config.js'];

/** Modules other test folders may import besides test/helpers/ (see test/README.md). */
const SHARED = [
	'test/helpers/',
	'test/suites/cases/',
	'test/trigger/model.ts',
	'test/compat/cases.ts',
	'test/n8n/harness/',
];

export interface Tree {
	/** Repository-relative .ts files under test/. */
	files: string[];
	read(file: string): string;
	/** What each jest project runs: its roots and the suffix of its testMatch. */
	projects: Array<{ roots: string[]; suffix: string }>;
	/** test/README.md's rows. */
	rows: Array<{ folder: string; suffix: string }>;
}

function tsFiles(dir: string, prefix: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const name = `${prefix}${entry.name}`;
		if (entry.isDirectory()) return tsFiles(join(dir, entry.name), `${name}/`);
		return entry.name.endsWith('.ts') ? [name] : [];
	});
}

interface ProjectConfig {
	roots?: string[];
	testMatch?: string[];
	projects?: ProjectConfig[];
}

/** What each project of a configuration runs (the default configuration has two). */
function projectsOf(config: string) {
	const loaded = require(join(ROOT, config)) as ProjectConfig;
	return (loaded.projects ?? [loaded]).map(({ roots = ['<rootDir>'], testMatch = [] }) => {
		const [glob, ...more] = testMatch;
		if (!glob?.startsWith('**/*') || more.length > 0)
			throw new Error(`${config}: a testMatch of one "**/*<suffix>" is what this guard reads`);
		return {
			roots: roots.map((root) => `${root.replace('<rootDir>/', '').replace(/\/$/, '')}/`),
			suffix: glob.slice(4),
		};
	});
}

export function currentTree(): Tree {
	const [table] = tablesOf('test/README.md', readFileSync(join(ROOT, 'test/README.md'), 'utf8'));
	const column = (name: string) => table.header.indexOf(name);
	return {
		files: tsFiles(join(ROOT, 'test'), 'test/'),
		read: (file) => readFileSync(join(ROOT, file), 'utf8'),
		projects: PROJECTS.flatMap(projectsOf),
		rows: table.rows.map((row) => ({
			folder: plain(row[column('folder')]),
			suffix: plain(row[column('suffix')]),
		})),
	};
}

const isTestFile = (tree: Tree, file: string) =>
	tree.projects.some((p) => p.roots.some((r) => file.startsWith(r)) && file.endsWith(p.suffix));

/** The repository-relative .ts files a file imports or requires by a relative path. */
function importsOf(tree: Tree, file: string): string[] {
	const text = tree.read(file);
	const found = [
		...text.matchAll(/(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g),
	];
	return found.flatMap((m) => {
		const target = normalize(join(dirname(file), m[1]));
		return [`${target}.ts`, `${target}/index.ts`, target].filter((t) => tree.files.includes(t));
	});
}

/** Test files that fit no row of the README: "file: why". */
export function misplaced(tree: Tree): string[] {
	const suffixes = [...new Set(tree.rows.map((r) => r.suffix))];
	return tree.files
		.filter((file) => isTestFile(tree, file))
		.filter((file) => {
			// The longest suffix the file ends with is its kind: x.property.test.ts is not a .test.ts.
			const suffix = suffixes
				.filter((s) => file.endsWith(s))
				.sort((a, b) => b.length - a.length)[0];
			return !tree.rows.some((r) => file.startsWith(r.folder) && r.suffix === suffix);
		})
		.map((file) => `${file}: no row of test/README.md has its folder and suffix`);
}

/** Files that declare tests (describe, it, test) but no test file runs or imports. */
export function unrun(tree: Tree): string[] {
	const reached = new Set(tree.files.filter((file) => isTestFile(tree, file)));
	const queue = [...reached];
	while (queue.length > 0)
		for (const target of importsOf(tree, queue.pop() as string))
			if (!reached.has(target)) {
				reached.add(target);
				queue.push(target);
			}
	const declares = /^\s*(describe|it|test)(\.\w+)*\s*\(/m;
	return tree.files
		.filter((file) => !reached.has(file) && declares.test(tree.read(file)))
		.map((file) => `${file}: declares tests that nothing runs`);
}

/** Imports across test folders that do not go to a shared helper. */
export function crossImports(tree: Tree): string[] {
	const folder = (file: string) => file.split('/').slice(0, 2).join('/');
	return tree.files.flatMap((file) =>
		importsOf(tree, file)
			.filter((target) => target.startsWith('test/') && folder(target) !== folder(file))
			.filter((target) => !SHARED.some((shared) => target.startsWith(shared)))
			.map(
				(target) => `${file} -> ${target}: a helper of another folder (move it to test/helpers/)`,
			),
	);
}

const tree = currentTree();

describe('the test tree', () => {
	it('reads the README table and the jest projects', () => {
		expect(tree.rows.length).toBeGreaterThan(10);
		expect(tree.projects.map((p) => p.suffix)).toEqual([
			'.test.ts',
			'.test.ts',
			'.leg.ts',
			'.spec.ts',
		]);
		expect(tree.rows.every((r) => r.folder.startsWith('test/') && r.folder.endsWith('/'))).toBe(
			true,
		);
	});

	it('every test file fits a row of test/README.md', () => {
		expect(misplaced(tree)).toEqual([]);
	});

	it('every file that declares tests is run (a guard file is imported by guard.test.ts)', () => {
		expect(unrun(tree)).toEqual([]);
	});

	it('a module another folder imports is in test/helpers/ (or a table the README names)', () => {
		expect(crossImports(tree)).toEqual([]);
	});

	it("every folder of the README's table exists, or is the compat corpus still to come", () => {
		const missing = tree.rows.filter((r) => !existsSync(join(ROOT, r.folder)));
		expect(missing.map((r) => r.folder).filter((f) => f !== 'test/compat/')).toEqual([]);
	});
});

describe('the tree check can fail', () => {
	// Written through a function, so that this file's own imports are not these.
	const importing = (path: string) => `import { x } from '${path}';`;
	const files: Record<string, string> = {
		'test/guard/guard.test.ts': importing('./cases'),
		'test/guard/cases.ts': "describe('x', () => {});",
		'test/guard/forgotten.ts': "it('y', () => {});",
		'test/root.test.ts': '',
		'test/node/a.property.test.ts': importing('../suites/helpers'),
		'test/node/b.test.ts': importing('../helpers/engine'),
		'test/suites/helpers.ts': '',
		'test/helpers/engine.ts': '',
	};
	const sample: Tree = {
		files: Object.keys(files),
		read: (file) => files[file],
		projects: [{ roots: ['test/'], suffix: '.test.ts' }],
		rows: [
			{ folder: 'test/node/', suffix: '.test.ts' },
			{ folder: 'test/trigger/', suffix: '.property.test.ts' },
			{ folder: 'test/guard/', suffix: 'guard.test.ts' },
		],
	};

	it('names a file at the root and a property test outside its folder', () => {
		expect(misplaced(sample)).toEqual([
			'test/root.test.ts: no row of test/README.md has its folder and suffix',
			'test/node/a.property.test.ts: no row of test/README.md has its folder and suffix',
		]);
	});

	it('names a guard file nothing imports', () => {
		expect(unrun(sample)).toEqual(['test/guard/forgotten.ts: declares tests that nothing runs']);
	});

	it("names an import of another folder's helper", () => {
		expect(crossImports(sample)).toEqual([
			'test/node/a.property.test.ts -> test/suites/helpers.ts: a helper of another folder (move it to test/helpers/)',
		]);
	});
});
