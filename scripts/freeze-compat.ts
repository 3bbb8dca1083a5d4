/* eslint-disable no-console, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a command run by hand when a version is cut: reads and writes files, prints, sets the exit code */
/**
 * Adds the current build's workflows to the compatibility corpus (test/compat/corpus.ts): every
 * case of test/compat/cases.ts at every version the node offers, saved as n8n saves it, with what
 * the build read, sent and output. Files already there are never rewritten: run it when a version
 * is cut (and when a node gains a version), commit what it adds.
 *
 *   npx tsx scripts/freeze-compat.ts [--release <name>] [--build <dist folder>] [--out <folder>] [--at <instant>] [--replace]
 *
 * --release  the corpus folder (default: the version in package.json)
 * --build    freeze another build's compiled nodes (e.g. a worktree of an older commit's `dist`)
 *            instead of this checkout's sources
 * --out      the corpus root (default: test/compat/corpus)
 * --at       the instant the runs are made at, ISO 8601 (default: now); each workflow stores it,
 *            and the test replays it at that instant, so a frozen run means the same on any day
 * --replace  delete the release's folder first and freeze it anew: only for a release not yet
 *            published (no user can have saved its workflows), e.g. after more changes before it
 * First it lists every parameter an operation offers that no case sets away from its default, and
 * exits with 1 without freezing anything when there is one (--partial freezes anyway).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createRequire } from 'module';
import { tmpdir } from 'os';
import { join, resolve } from 'path';

import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import * as prettier from 'prettier';

const root = resolve(__dirname, '..');

function argument(name: string): string | undefined {
	const at = process.argv.indexOf(`--${name}`);
	return at === -1 ? undefined : process.argv[at + 1];
}

async function main(): Promise<number> {
	// n8n-core keeps an instance key under N8N_USER_FOLDER: a throwaway one, set before it loads
	const userFolder = mkdtempSync(join(tmpdir(), 'contentgen-freeze-'));
	process.env.N8N_USER_FOLDER = userFolder;
	process.env.N8N_LOG_LEVEL ??= 'silent';
	try {
		return await freeze();
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
}

async function freeze(): Promise<number> {
	const corpus = await import('../test/compat/corpus');
	const { CASES } = await import('../test/compat/cases');
	const release =
		argument('release') ??
		(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
	const out = resolve(argument('out') ?? corpus.CORPUS);
	const dist = argument('build');
	const build = dist ? distBuild(resolve(dist)) : corpus.sourceBuild();
	const folder = join(out, release);
	if (process.argv.includes('--replace')) rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	const frozenBy = `${release} (${build.label})`;
	const frozenAt = new Date(argument('at') ?? Date.now()).toISOString();
	console.log(`freezing the corpus of ${frozenBy} at ${frozenAt} into ${folder}`);

	// Cases first: a parameter no case sets is not frozen at all, rather than frozen without it.
	const uncovered = coverage(build, CASES, corpus);
	for (const line of uncovered) console.log(`  not set away from its default by any case: ${line}`);
	if (uncovered.length > 0 && !process.argv.includes('--partial')) {
		console.log('nothing frozen: add these to test/compat/cases.ts, or run with --partial');
		return 1;
	}

	const existing = new Set(corpus.loadCorpus(out).map((f) => `${f.release}/${f.name}`));
	let added = 0;
	for (const c of CASES) {
		const type = c.node === 'contentGen' ? build.action() : build.trigger();
		for (const typeVersion of corpus.versionsOf(corpus.served(type))) {
			const name = `${c.name}.v${typeVersion}`;
			if (existing.has(`${release}/${name}`)) continue;
			const workflow = corpus.saveCase(build, c, typeVersion);
			const node = corpus.ourNode(workflow);
			const observed = await corpus.observe(build, workflow, frozenAt);
			const expected = {
				frozenBy,
				frozenAt,
				node: node.type,
				typeVersion,
				read: corpus.parameters(type, node, 'read'),
				observed,
			};
			await write(join(folder, `${name}.json`), workflow);
			await write(join(folder, `${name}.expected.json`), expected);
			added += 1;
			const outcome = observed.error ? `error: ${observed.error}` : `${observed.items} item(s)`;
			console.log(`  added ${name}: ${outcome}`);
		}
	}
	console.log(`${added} workflow(s) added, ${existing.size} were frozen already`);

	return 0;
}

/** Another build's compiled nodes. */
function distBuild(dist: string): Build {
	const load = (file: string, name: string) => () => {
		const loaded = createRequire(__filename)(join(dist, file)) as Record<
			string,
			new () => INodeType
		>;
		return new loaded[name]();
	};
	return {
		label: dist,
		action: load('nodes/ContentGen/ContentGen.node.js', 'ContentGen'),
		trigger: load('nodes/ContentGenTrigger/ContentGenTrigger.node.js', 'ContentGenTrigger'),
	};
}

type Corpus = typeof import('../test/compat/corpus');
type Build = import('../test/compat/corpus').Build;
type Cases = (typeof import('../test/compat/cases'))['CASES'];

/**
 * Per operation (the trigger counts as one): the parameters it shows, and options of collections,
 * that no case of it saves. Event values of the trigger count one by one.
 */
function coverage(build: Build, cases: Cases, corpus: Corpus): string[] {
	const offered = new Map<string, Set<string>>();
	const set = new Map<string, Set<string>>();
	const add = (map: Map<string, Set<string>>, key: string, value: string) =>
		map.set(key, (map.get(key) ?? new Set()).add(value));
	for (const c of cases) {
		const type = c.node === 'contentGen' ? build.action() : build.trigger();
		const description = corpus.served(type);
		for (const typeVersion of corpus.versionsOf(description)) {
			const node = { typeVersion, parameters: c.parameters };
			const read = corpus.parameters(type, node, 'read');
			const saved = corpus.parameters(type, node, 'saved');
			const key =
				`${c.node}@${typeVersion} ${String(read.resource ?? '')} ${String(read.operation ?? '')}`.trim();
			for (const p of description.properties) {
				// A notice holds no value a workflow could save.
				if (p.type === 'notice') continue;
				if (!NodeHelpers.displayParameter(read, p, node, description)) continue;
				for (const path of offeredPaths(p)) add(offered, key, path);
			}
			for (const path of savedPaths(saved)) add(set, key, path);
		}
	}
	const missing: string[] = [];
	for (const [key, paths] of offered)
		for (const path of paths)
			if (!set.get(key)?.has(path) && !['resource', 'operation'].includes(path))
				missing.push(`${key}: ${path}`);
	return missing;
}

function offeredPaths(p: INodeProperties): string[] {
	if (p.type === 'collection' || p.type === 'fixedCollection')
		return (p.options ?? []).map((o) => `${p.name}.${o.name}`);
	if (p.type === 'multiOptions' && p.name === 'events')
		return (p.options ?? []).map((o) => `events=${String((o as { value: unknown }).value)}`);
	return [p.name];
}

function savedPaths(saved: INodeParameters): string[] {
	return Object.entries(saved).flatMap(([name, value]) => {
		if (name === 'events' && Array.isArray(value)) return value.map((v) => `events=${String(v)}`);
		if (typeof value === 'object' && value !== null && !Array.isArray(value) && !('__rl' in value))
			return Object.keys(value).map((k) => `${name}.${k}`);
		return [name];
	});
}

async function write(file: string, value: unknown): Promise<void> {
	const options = { ...(await prettier.resolveConfig(file)), filepath: file };
	writeFileSync(file, await prettier.format(JSON.stringify(value), options));
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
