/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- dev-only benchmark: prints to the terminal, times with process.hrtime, spawns node and npm */
/**
 * `npm run bench`: request economy, throughput and size of the nodes, measured against the
 * in-process sandbox and n8n's own engine. Prints a table to stdout.
 * Flags: --runs=N (median over N timed runs, default 5), --no-build (measure dist as it is),
 * --write (also save the run to bench/last-run.json and rewrite every figure the docs quote from
 * it: see bench/figures.ts).
 */
import './resolve';
import './env';

import axios from 'axios';
import { execFileSync, spawnSync } from 'child_process';
import { cpus, loadavg, platform } from 'os';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SocialListOrder } from '../sandbox';
import { table, writeRun, type BenchRow } from './figures';
import { EVENT_NAMES } from '../nodes/ContentGenTrigger/events';
import { pollSteps, type TrackerConfig } from '../nodes/ContentGenTrigger/tracker';
import { runWorkflow, singleNodeWorkflow } from '../test/helpers/engine';
import { runPollSync } from '../test/trigger/drive';
import { pollHarness, type PollHarness } from '../test/trigger/poll';
import { prng, World } from '../test/trigger/world';
import { triggerSocialRows as triggerSocialScaleRows } from './trigger-social';
import { triggerTimeRows } from './trigger-time';
import { waitRows } from './waits';

const ROOT = join(__dirname, '..');
const args = process.argv.slice(2);
const RUNS = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 5);
const BUILD = !args.includes('--no-build');
const WRITE = args.includes('--write');
/** The machine is often shared: its load when the run started says how far to trust timings. */
const LOAD_AT_START = loadavg()[0];
const LOAD_RUNS = 7;

const rows: BenchRow[] = [];
const notes: string[] = [];

function row(
	section: string,
	name: string,
	measured: string,
	reference: string,
	ratio: string,
	target: string,
) {
	rows.push({ section, name, measured, reference, ratio, target });
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function ms(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** A fresh sandbox without request or credit limits getting in the way of measuring. */
async function sandbox(
	speed: number,
	seed: number,
	socialListOrder?: SocialListOrder,
): Promise<Sandbox> {
	const sb = await startSandbox({ speed, seed, quiet: true, socialListOrder });
	sb.control.setRateLimit({ perMinute: 1_000_000_000, perDay: -1 });
	sb.control.setCredits({ subscription: 100_000, purchased: 0 });
	return sb;
}

function raw(sb: Sandbox) {
	return axios.create({
		baseURL: `${sb.url}/api/v1`,
		headers: { Authorization: `Bearer ${sb.apiKey}` },
	});
}

function credentials(sb: Sandbox) {
	return { apiKey: sb.apiKey, baseUrl: sb.url };
}

/** The count a list reports (the sandbox's own records included). */
async function listTotal(sb: Sandbox, path = '/articles'): Promise<number> {
	const r = await raw(sb).get(path, { params: { limit: 1 } });
	return r.data.pagination.total as number;
}

/** Requests to read the whole social list once, at its current size. */
const wholeSocialList = async (sb: Sandbox) =>
	Math.ceil((await listTotal(sb, '/social/content')) / 100);

/** Seeds the default user's articles up to exactly `n`. */
async function articlesUpTo(sb: Sandbox, n: number): Promise<void> {
	const have = await listTotal(sb);
	if (have < n) sb.control.seedArticles(n - have);
	const now = await listTotal(sb);
	if (now !== n) throw new Error(`expected ${n} articles, the sandbox has ${now}`);
}

async function runNode(sb: Sandbox, parameters: IDataObject, input?: IDataObject[]) {
	const result = await runWorkflow(singleNodeWorkflow(parameters), {
		credentials: credentials(sb),
		input,
	});
	if (result.error)
		throw new Error(`workflow failed: ${result.error.message} (${result.error.description ?? ''})`);
	return result.output('ContentGen');
}

function requestRow(name: string, used: number, min: number, minLabel = String(min)) {
	row('requests', name, String(used), minLabel, fmt(used / min), '1.00');
}

// ------------------------------------------------------------------------------------------
// 1. requests used vs the minimum

async function requestCounts(): Promise<void> {
	const sb = await sandbox(1000, 101);
	try {
		sb.control.advance(86_400_000); // let the seeded generations settle
		await articlesUpTo(sb, 10_000);

		sb.control.resetRequests();
		const all = await runNode(sb, { resource: 'article', operation: 'getMany', returnAll: true });
		if (all.length !== 10_000) throw new Error(`return-all gave ${all.length} items`);
		requestRow('article getMany, return all of 10,000', sb.control.requests().length, 100);

		sb.control.resetRequests();
		const some = await runNode(sb, {
			resource: 'article',
			operation: 'getMany',
			returnAll: false,
			limit: 250,
		});
		if (some.length !== 250) throw new Error(`limit 250 gave ${some.length} items`);
		requestRow('article getMany, limit 250', sb.control.requests().length, 3);
	} finally {
		await sb.close();
	}
}

// ------------------------------------------------------------------------------------------
// trigger: requests per poll on accounts of 10,000 records

/** Polls until `done` says so (at most 20 polls a minute apart); requests and polls it took. */
async function pollsUntil(
	sb: Sandbox,
	trigger: PollHarness,
	done: (items: IDataObject[]) => boolean,
): Promise<{ requests: number; polls: number; behind: number; items: IDataObject[] }> {
	const items: IDataObject[] = [];
	sb.control.resetRequests();
	// Polls that logged "ContentGen Trigger is behind": summed up in the row, not printed per poll.
	let behind = 0;
	for (let polls = 1; polls <= 20; polls++) {
		const output = await trigger.poll();
		items.push(...(output?.[0] ?? []).map((item) => item.json));
		if (trigger.warnings().some((w) => w.startsWith('ContentGen Trigger is behind'))) behind++;
		if (done(items)) return { requests: sb.control.requests().length, polls, behind, items };
		sb.control.advance(60_000);
	}
	throw new Error(`not done after 20 polls: ${items.length} items`);
}

function pollRow(
	name: string,
	took: { requests: number; polls: number; behind: number },
	min: number,
	minLabel: string,
) {
	const polls = took.polls === 1 ? '1 poll' : `${took.polls} polls`;
	const behind = took.behind ? `, ${took.behind} logged "behind"` : '';
	row(
		'trigger',
		name,
		`${took.requests} in ${polls}${behind}`,
		minLabel,
		fmt(took.requests / min),
		'-',
	);
}

const reported = (items: IDataObject[], event: string) =>
	new Set(items.filter((i) => (i.events as string[]).includes(event)).map((i) => i.id)).size;

async function triggerArticleRows(): Promise<void> {
	const sb = await sandbox(1000, 103);
	try {
		sb.control.advance(86_400_000); // let the seeded generations settle
		// A week of history, one article a minute: the look-back holds a few of them.
		sb.control.seedArticles(10_000 - (await listTotal(sb)), {
			status: 'cms',
			spacingMs: 60_000,
		});
		const trigger = pollHarness(
			{ events: ['articleCompleted', 'articleFailed', 'articleCreated'] },
			credentials(sb),
		);
		await trigger.poll(); // activation
		sb.control.advance(60_000);
		const idle = await pollsUntil(sb, trigger, () => true);
		if (idle.items.length > 0) throw new Error('an idle poll emitted events');
		requestRow('article trigger, idle poll (10,000 records)', idle.requests, 1);

		const queued = sb.control.seedArticles(10, { status: 'queued' });
		await trigger.poll(); // sees the ten arrive (articleCreated)
		sb.control.advance(60_000);
		for (const id of queued) sb.control.setArticleStatus(id, 'cms');
		sb.control.advance(60_000);
		const ten = await pollsUntil(
			sb,
			trigger,
			(items) => reported(items, 'articleCompleted') === 10,
		);
		requestRow('article trigger, poll with 10 changes among 10,010', ten.requests, 1);

		const burst = sb.control.seedArticles(2500, { status: 'queued', spacingMs: 100 });
		await trigger.poll(); // sees them arrive
		sb.control.advance(60_000);
		for (const id of burst) sb.control.setArticleStatus(id, 'cms');
		const all = await pollsUntil(
			sb,
			trigger,
			(items) => reported(items, 'articleCompleted') === 2500,
		);
		pollRow('article trigger, 2,500 in flight finish', all, 25, '25 (2,500 / 100)');
	} finally {
		await sb.close();
	}
}

/** `finished` social records and `inFlight` generating, listed in `order`, the trigger active. */
async function socialAccount(order: SocialListOrder, finished: number, inFlight: number) {
	const sb = await sandbox(1000, 104, order);
	sb.control.advance(86_400_000);
	sb.control.seedSocial(finished, { status: 'completed', spacingMs: 60_000 });
	const generating = sb.control.seedSocial(inFlight, { status: 'generating' });
	const trigger = pollHarness({ events: ['socialFinished', 'socialFailed'] }, credentials(sb));
	// Activation reads the whole list once (the request budget spreads it over a few polls).
	const learnt = await pollsUntil(sb, trigger, () => !trigger.behind());
	return { sb, trigger, generating, learnt };
}

async function triggerSocialRows(): Promise<void> {
	const a = await socialAccount('id', 10_000, 100);
	try {
		const read = await wholeSocialList(a.sb);
		pollRow(
			'social trigger, activation, 10,100 records listed by id',
			a.learnt,
			4 + read,
			`${4 + read} (4 + whole list)`,
		);
		a.sb.control.advance(60_000);
		const idle = await pollsUntil(a.sb, a.trigger, () => true);
		requestRow('social trigger, idle poll, 100 in flight', idle.requests, 4);
		for (const id of a.generating.slice(0, 10)) a.sb.control.setSocialStatus(id, 'completed');
		a.sb.control.advance(60_000);
		const ten = await pollsUntil(
			a.sb,
			a.trigger,
			(items) => reported(items, 'socialFinished') === 10,
		);
		requestRow(
			'social trigger, 10 of 100 in flight finish',
			ten.requests,
			14,
			'14 (4 + 10 records)',
		);
	} finally {
		await a.sb.close();
	}
	for (const order of ['created_desc', 'id'] as const) {
		const b = await socialAccount(order, 6000, 0);
		try {
			b.sb.control.advance(60_000);
			b.sb.control.seedSocial(5, { status: 'completed' }); // born and finished between two polls
			const found = await pollsUntil(
				b.sb,
				b.trigger,
				(items) => reported(items, 'socialFinished') === 5,
			);
			// Listed by id, finding them can take a whole read of the list; newest first, page 1.
			const read = await wholeSocialList(b.sb);
			if (order === 'id') {
				pollRow(
					'social trigger, 5 births among 6,000 finished, listed by id',
					found,
					4 + read,
					`${4 + read} (4 + whole list)`,
				);
			} else {
				pollRow(
					'social trigger, 5 births among 6,000 finished, newest first',
					found,
					4,
					'4 (idle)',
				);
			}
		} finally {
			await b.sb.close();
		}
	}
	const c = await socialAccount('id', 10_000, 2500);
	try {
		c.sb.control.advance(60_000);
		for (const id of c.generating) c.sb.control.setSocialStatus(id, 'completed');
		const all = await pollsUntil(
			c.sb,
			c.trigger,
			(items) => reported(items, 'socialFinished') === 2500,
		);
		const read = await wholeSocialList(c.sb);
		pollRow(
			'social trigger, 2,500 in flight finish, listed by id',
			all,
			4 + read,
			`${4 + read} (4 + whole list)`,
		);
	} finally {
		await c.sb.close();
	}
}

// ------------------------------------------------------------------------------------------
// 2-3. throughput and per-item overhead through the engine vs a raw axios loop

async function rawAll(sb: Sandbox): Promise<number> {
	const client = raw(sb);
	let records = 0;
	for (let page = 1; ; page++) {
		const r = await client.get('/articles', { params: { page, limit: 100 } });
		records += r.data.data.length;
		if (!r.data.pagination.has_more) return records;
	}
}

async function throughputRows(): Promise<void> {
	const sb = await sandbox(1000, 301);
	try {
		sb.control.advance(86_400_000);
		await articlesUpTo(sb, 10_000);
		// warm both paths (module loading, JIT) before timing
		for (let i = 0; i < 3; i++) {
			await runNode(sb, { resource: 'article', operation: 'getMany', returnAll: true });
			await rawAll(sb);
		}

		const nodeTimes: number[] = [];
		const rawTimes: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			let t = process.hrtime.bigint();
			const items = await runNode(sb, {
				resource: 'article',
				operation: 'getMany',
				returnAll: true,
			});
			nodeTimes.push(ms(t));
			if (items.length !== 10_000) throw new Error('return-all lost records');
			t = process.hrtime.bigint();
			if ((await rawAll(sb)) !== 10_000) throw new Error('raw loop lost records');
			rawTimes.push(ms(t));
		}
		const nodeMs = median(nodeTimes);
		const rawMs = median(rawTimes);
		row(
			'throughput',
			'return all 10,000 articles: node in engine vs raw axios',
			`${Math.round(10_000 / (nodeMs / 1000))} rec/s (${Math.round(nodeMs)} ms)`,
			`${Math.round(10_000 / (rawMs / 1000))} rec/s (${Math.round(rawMs)} ms)`,
			fmt(rawMs / nodeMs),
			'>= 0.90',
		);

		const ids = (await raw(sb).get('/articles', { params: { limit: 100 } })).data.data.map(
			(a: { id: string }) => a.id,
		) as string[];
		const input = Array.from({ length: 1000 }, (_, i) => ({ id: ids[i % ids.length] }));
		const getParams = { resource: 'article', operation: 'get', articleId: '={{ $json.id }}' };
		const client = raw(sb);
		for (let i = 0; i < 2; i++) {
			await runNode(sb, getParams, input.slice(0, 200));
			for (const { id } of input.slice(0, 200)) await client.get(`/articles/${id}`);
		}
		const perNode: number[] = [];
		const perRaw: number[] = [];
		for (let i = 0; i < RUNS; i++) {
			let t = process.hrtime.bigint();
			const out = await runNode(sb, getParams, input);
			perNode.push(ms(t));
			if (out.length !== 1000) throw new Error('per-item run lost items');
			t = process.hrtime.bigint();
			for (const { id } of input) await client.get(`/articles/${id}`);
			perRaw.push(ms(t));
		}
		const n = median(perNode);
		const r = median(perRaw);
		row(
			'overhead',
			'1,000 items x article get: node in engine vs raw axios',
			`${fmt(n / 1000, 3)} ms/item (${Math.round(n)} ms)`,
			`${fmt(r / 1000, 3)} ms/item (${Math.round(r)} ms)`,
			fmt(n / r),
			'(time ratio; lower is better)',
		);
		notes.push(
			`per-item overhead of the node over a raw request: ${fmt((n - r) / 1000, 3)} ms per item.`,
		);
	} finally {
		await sb.close();
	}
}

// ------------------------------------------------------------------------------------------
// 4. trigger static data

/** 100,000 records a minute apart (listed by id), then `inFlight` more in flight, half each kind. */
function staticDataRow(inFlight: number): void {
	const world = new World(prng(11), { socialOrder: 'id' });
	const start = world.now - 100_000 * 60_000;
	for (let i = 0; i < 50_000; i++)
		world.create('article', i % 3 ? 'cms' : 'archived', { created: start + i * 120_000 });
	for (let i = 0; i < 50_000; i++)
		world.create('social', i % 2 ? 'published' : 'completed', {
			created: start + i * 120_000 + 60_000,
		});
	world.tick(1);
	for (let i = 0; i < inFlight / 2; i++) world.create('article', 'queued');
	for (let i = 0; i < inFlight / 2; i++) world.create('social', i % 2 ? 'generating' : 'scheduled');
	const config: TrackerConfig = { events: EVENT_NAMES, scope: 'all', requestBudget: Infinity };
	let stored: unknown = {};
	for (let i = 0; i < 3; i++) {
		const outcome = runPollSync(pollSteps(stored, { ...config, now: world.now }), (request) =>
			world.answer(request),
		);
		stored = JSON.parse(JSON.stringify(outcome.state));
		world.tick(60_000);
	}
	const bytes = Buffer.byteLength(JSON.stringify(stored));
	row(
		'size',
		`trigger static data, 100,000 records, ${inFlight.toLocaleString('en-US')} in flight`,
		`${bytes} B (${fmt(bytes / 1024, 1)} KB)`,
		'64 KB cap',
		fmt(bytes / 65_536),
		'< 1.00',
	);
}

// ------------------------------------------------------------------------------------------
// 5. package size and cold load

function packageRows(): void {
	if (BUILD) {
		try {
			execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
		} catch (error) {
			const out = (error as { stdout?: Buffer; stderr?: Buffer }).stdout?.toString() ?? '';
			notes.push(
				`npm run build failed, measured the existing dist: ${out.split('\n').filter(Boolean).slice(-3).join(' | ')}`,
			);
		}
	}
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'ignore'],
		}).toString(),
	) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	const { size, unpackedSize, entryCount } = packed[0];
	row(
		'size',
		'published tarball (npm pack --dry-run)',
		`${fmt(size / 1024, 1)} KB packed`,
		`${fmt(unpackedSize / 1024, 1)} KB unpacked, ${entryCount} files`,
		'-',
		'-',
	);

	// One fresh process per sample: n8n-workflow first (n8n has it loaded anyway), then our modules.
	const ours = [
		'./dist/nodes/ContentGen/ContentGen.node.js',
		'./dist/nodes/ContentGenTrigger/ContentGenTrigger.node.js',
		'./dist/credentials/ContentGenApi.credentials.js',
	];
	const script = `const h=()=>process.hrtime.bigint();const a=h();require('n8n-workflow');const b=h();require(${JSON.stringify(ours[0])});const c=h();${ours
		.slice(1)
		.map((m) => `require(${JSON.stringify(m)});`)
		.join(
			'',
		)}const d=h();process.stdout.write(JSON.stringify([b-a,c-b,d-b].map((x)=>Number(x)/1e6)))`;
	const samples: number[][] = [];
	for (let i = 0; i < LOAD_RUNS; i++) {
		const child = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
		if (child.status !== 0) throw new Error(`cold load failed: ${child.stderr}`);
		samples.push(JSON.parse(child.stdout) as number[]);
	}
	const [workflowMs, actionMs, allMs] = [0, 1, 2].map((k) => median(samples.map((s) => s[k])));
	const totalSpawn = (() => {
		const times: number[] = [];
		for (let i = 0; i < LOAD_RUNS; i++) {
			const t = process.hrtime.bigint();
			const child = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(ours[0])})`], {
				cwd: ROOT,
			});
			if (child.status !== 0) throw new Error('cold load failed');
			times.push(ms(t));
		}
		const empty: number[] = [];
		for (let i = 0; i < LOAD_RUNS; i++) {
			const t = process.hrtime.bigint();
			spawnSync(process.execPath, ['-e', ''], { cwd: ROOT });
			empty.push(ms(t));
		}
		return { load: median(times), empty: median(empty) };
	})();
	row(
		'load',
		'cold: node -e "require(ContentGen.node.js)", whole process',
		`${fmt(totalSpawn.load, 0)} ms`,
		`${fmt(totalSpawn.empty, 0)} ms for node -e ""`,
		'-',
		'-',
	);
	row(
		'load',
		'cold require: ContentGen.node.js after n8n-workflow',
		`${fmt(actionMs, 1)} ms`,
		`${fmt(workflowMs, 1)} ms n8n-workflow itself`,
		'-',
		'-',
	);
	row(
		'load',
		'cold require: both nodes + credential after n8n-workflow',
		`${fmt(allMs, 1)} ms`,
		'-',
		'-',
		'-',
	);
}

// ------------------------------------------------------------------------------------------

function machine(): string {
	return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), ${platform()}, Node ${process.version}`;
}

function print(): void {
	for (const l of table(rows)) console.log(l);
	console.log('');
	for (const note of notes) console.log(`- ${note}`);
	console.log(
		`- machine: ${machine()}; timed figures are medians of ${RUNS} runs (cold load: ${LOAD_RUNS}).`,
	);
}

function write(seconds: number): void {
	const changed = writeRun(ROOT, {
		date: new Date().toISOString().slice(0, 10),
		command: ['npm run bench --', ...process.argv.slice(2)].join(' '),
		seconds: Number(fmt(seconds, 1)),
		machine: machine(),
		loadAtStart: Number(fmt(LOAD_AT_START, 1)),
		runs: RUNS,
		loadRuns: LOAD_RUNS,
		rows,
		notes,
	});
	console.log(`- wrote bench/last-run.json and the figures of ${changed.join(', ') || 'no document'}.`);
}

async function main(): Promise<void> {
	const started = process.hrtime.bigint();
	await requestCounts();
	await triggerArticleRows();
	await triggerSocialRows();
	await triggerSocialScaleRows({ sandbox, row, fmt, pollsUntil });
	await triggerTimeRows(row);
	await waitRows(row, notes);
	await throughputRows();
	staticDataRow(1000);
	staticDataRow(5000);
	packageRows();
	print();
	const seconds = ms(started) / 1000;
	console.log(`- bench took ${fmt(seconds, 1)} s.`);
	if (WRITE) write(seconds);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
