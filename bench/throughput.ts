/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only benchmark: times with process.hrtime, writes a CPU profile */
/**
 * Rows of `npm run bench` about throughput and per-item overhead: the node run through n8n's
 * engine against the minimal node (./minimal: the same requests through
 * `httpRequestWithAuthentication` in the same engine, the floor of any verified node) and a raw
 * axios loop, warmed up and interleaved run by run. `npx tsx bench/throughput.ts` prints them
 * alone; `--only=get|all` runs one workload, `--path=node|minimal|raw|before` one path, and
 * `--profile=<file>` writes the V8 CPU profile of the timed runs (what `node --cpu-prof` writes,
 * without the loading and seeding around them), which `npx tsx bench/profile.ts <file>` reads.
 */
import './resolve';
import './env';

import { writeFileSync } from 'fs';
import { Session } from 'inspector';
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow } from '../harness/engine';
import type { Sandbox } from '../sandbox';
import {
	articlesUpTo,
	credentials,
	fmt,
	median,
	ms,
	printAlone,
	raw,
	sandbox,
	type AddRow,
} from './kit';
import { BEFORE_DIR, BEFORE_TYPE, benchNodeTypes, MINIMAL_TYPE } from './minimal';

const types = benchNodeTypes();

/** Items of one run of the node of `type` (this build's ContentGen when undefined). */
async function runAs(
	sb: Sandbox,
	type: string | undefined,
	parameters: IDataObject,
	input?: IDataObject[],
) {
	const result = await runWorkflow(singleNodeWorkflow(parameters, type ? { type } : {}), {
		credentials: credentials(sb),
		input,
		nodeTypes: types,
	});
	if (result.error) throw new Error(`workflow failed: ${result.error.message}`);
	return result.output('ContentGen');
}

async function rawAll(sb: Sandbox): Promise<number> {
	const client = raw(sb);
	let records = 0;
	for (let page = 1; ; page++) {
		const r = await client.get('/articles', { params: { page, limit: 100 } });
		records += r.data.data.length;
		if (!r.data.pagination.has_more) return records;
	}
}

interface Path {
	label: string;
	/** Runs the workload once; returns how many items or records it gave. */
	once: () => Promise<number>;
}

/**
 * Medians of `runs` interleaved timed runs of each path, after `warm` untimed ones: wall time, and
 * the process's CPU time (`<label> cpu`), which the other work on a shared machine disturbs less.
 */
async function timed(paths: Path[], expected: number, runs: number, warm: number) {
	const times = new Map<string, number[]>();
	const add = (label: string, value: number) =>
		times.set(label, [...(times.get(label) ?? []), value]);
	for (let i = 0; i < warm + runs; i++) {
		if (i === warm) await profiler?.start();
		for (const path of paths) {
			const [t, cpu] = [process.hrtime.bigint(), process.cpuUsage()];
			const got = await path.once();
			const spent = process.cpuUsage(cpu);
			if (i >= warm) add(path.label, ms(t));
			if (i >= warm) add(`${path.label} cpu`, (spent.user + spent.system) / 1000);
			if (got !== expected) throw new Error(`${path.label} gave ${got} of ${expected}`);
		}
	}
	await profiler?.stop();
	return new Map([...times].map(([label, list]) => [label, median(list)]));
}

/** The paths of a workload: this build, the minimal node, the other build if named, a raw loop. */
function paths(
	sb: Sandbox,
	parameters: IDataObject,
	minimal: IDataObject,
	input: IDataObject[] | undefined,
	rawLoop: () => Promise<number>,
): Path[] {
	const list: Path[] = [
		{ label: 'node', once: async () => (await runAs(sb, undefined, parameters, input)).length },
		{ label: 'minimal', once: async () => (await runAs(sb, MINIMAL_TYPE, minimal, input)).length },
		{ label: 'raw', once: rawLoop },
	];
	if (BEFORE_DIR)
		list.push({
			label: 'before',
			once: async () => (await runAs(sb, BEFORE_TYPE, parameters, input)).length,
		});
	return list.filter((p) => !ONLY_PATH || p.label === ONLY_PATH);
}

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
/** One workload alone (`--only=get|all`), one path alone (`--path=node|minimal|raw|before`). */
const ONLY = flag('only');
const ONLY_PATH = flag('path');
/** `--profile=<file>`: V8's CPU profile (as `node --cpu-prof` writes) of the timed runs alone. */
const PROFILE = flag('profile');

const profiler = PROFILE
	? (() => {
			const session = new Session();
			session.connect();
			const post = async (method: string) =>
				await new Promise<unknown>((resolve, reject) =>
					session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
				);
			return {
				start: async () => {
					await post('Profiler.enable');
					await post('Profiler.start');
				},
				stop: async () => {
					const { profile } = (await post('Profiler.stop')) as { profile: unknown };
					writeFileSync(PROFILE, JSON.stringify(profile));
				},
			};
		})()
	: undefined;

/** `runs` timed runs of each path; their medians are compared. */
export async function throughputRows(row: AddRow, notes: string[], runs: number): Promise<void> {
	const sb = await sandbox(1000, 301);
	try {
		sb.control.advance(86_400_000);
		await articlesUpTo(sb, 10_000);

		const ratioRows = (
			section: string,
			name: string,
			medians: Map<string, number>,
			show: (msTotal: number) => string,
		) => {
			const node = medians.get('node') ?? NaN;
			const minimal = medians.get('minimal') ?? NaN;
			const before = medians.get('before');
			row(
				section,
				`${name}: node in engine vs minimal node`,
				show(node),
				show(minimal),
				fmt(node / minimal),
				'<= 1.25',
			);
			row(
				section,
				`${name}: node in engine vs raw axios`,
				show(node),
				show(medians.get('raw') ?? NaN),
				fmt(node / (medians.get('raw') ?? NaN)),
				'(time ratio; lower is better)',
			);
			const cpu = (label: string) => medians.get(`${label} cpu`) ?? NaN;
			notes.push(
				`${name}, CPU time: node ${Math.round(cpu('node'))} ms, minimal node ${Math.round(cpu('minimal'))} ms (${fmt(cpu('node') / cpu('minimal'))}), raw ${Math.round(cpu('raw'))} ms.`,
			);
			if (before !== undefined)
				notes.push(
					`${name}: the build in ${BEFORE_DIR}: ${show(before)}, ${fmt(before / minimal)} x the minimal node's time (this build ${fmt(node / minimal)}); CPU ${Math.round(cpu('before'))} ms, ${fmt(cpu('before') / cpu('minimal'))} x the minimal node's (this build ${fmt(cpu('node') / cpu('minimal'))}).`,
				);
		};

		if (ONLY !== 'get') {
			const all = await timed(
				paths(
					sb,
					{ resource: 'article', operation: 'getMany', returnAll: true },
					{ operation: 'getAll' },
					undefined,
					async () => await rawAll(sb),
				),
				10_000,
				runs,
				3,
			);
			ratioRows(
				'throughput',
				'return all 10,000 articles',
				all,
				(t) => `${Math.round(10_000 / (t / 1000))} rec/s (${Math.round(t)} ms)`,
			);
		}

		if (ONLY !== 'all') {
			const ids = (await raw(sb).get('/articles', { params: { limit: 100 } })).data.data.map(
				(a: { id: string }) => a.id,
			) as string[];
			const input = Array.from({ length: 1000 }, (_, i) => ({ id: ids[i % ids.length] }));
			const client = raw(sb);
			const gets = await timed(
				paths(
					sb,
					{ resource: 'article', operation: 'get', articleId: '={{ $json.id }}' },
					{ operation: 'get', articleId: '={{ $json.id }}' },
					input,
					async () => {
						for (const { id } of input) await client.get(`/articles/${id}`);
						return input.length;
					},
				),
				1000,
				runs,
				2,
			);
			ratioRows(
				'overhead',
				'1,000 items x article get',
				gets,
				(t) => `${fmt(t / 1000, 3)} ms/item (${Math.round(t)} ms)`,
			);
			notes.push(
				`per-item overhead of the node over the minimal node: ${fmt(((gets.get('node') ?? NaN) - (gets.get('minimal') ?? NaN)) / 1000, 3)} ms per item; of the minimal node over a raw request: ${fmt(((gets.get('minimal') ?? NaN) - (gets.get('raw') ?? NaN)) / 1000, 3)} ms.`,
			);
		}
	} finally {
		await sb.close();
	}
}

if (require.main === module) {
	const runs = Number(flag('runs') ?? 5);
	printAlone(async (row, notes) => await throughputRows(row, notes, runs));
}
