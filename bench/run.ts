/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- dev-only benchmark: prints to the terminal, times with process.hrtime, spawns node and npm */
/**
 * `npm run bench`: request economy, throughput and size of the nodes, measured against the
 * in-process sandbox and n8n's own engine. Prints a table to stdout.
 * Flags: --runs=N (median over N timed runs, default 5), --no-build (measure dist as it is),
 * --write (also put the table, with the machine it ran on, into BENCHMARKS.md between
 * <!-- bench:unit:start --> and <!-- bench:unit:end -->, and the README's summary of it between
 * <!-- bench:summary:start --> and <!-- bench:summary:end -->).
 */
import './resolve';
import './env';

import axios from 'axios';
import { execFileSync, spawnSync } from 'child_process';
import { readFileSync, writeFileSync } from 'fs';
import { cpus, loadavg, platform } from 'os';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type RequestLogEntry, type Sandbox, type SocialListOrder } from '../sandbox';
import { EVENT_NAMES } from '../nodes/ContentGenTrigger/events';
import { pollSteps, type TrackerConfig } from '../nodes/ContentGenTrigger/tracker';
import { runWorkflow, singleNodeWorkflow } from '../test/helpers/engine';
import { runPollSync } from '../test/trigger/drive';
import { pollHarness, type PollHarness } from '../test/trigger/poll';
import { prng, World } from '../test/trigger/world';
import { triggerSocialRows as triggerSocialScaleRows } from './trigger-social';

const ROOT = join(__dirname, '..');
const args = process.argv.slice(2);
const RUNS = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 5);
const BUILD = !args.includes('--no-build');
const WRITE = args.includes('--write');
/** The machine is often shared: its load when the run started says how far to trust timings. */
const LOAD_AT_START = loadavg()[0];
const LOAD_RUNS = 7;

interface Row {
	section: string;
	name: string;
	measured: string;
	reference: string;
	ratio: string;
	target: string;
}

const rows: Row[] = [];
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

function count(log: RequestLogEntry[], method: string, pathPattern: RegExp): number {
	return log.filter((e) => e.method === method && pathPattern.test(e.path)).length;
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
): Promise<{ requests: number; polls: number; items: IDataObject[] }> {
	const items: IDataObject[] = [];
	sb.control.resetRequests();
	for (let polls = 1; polls <= 20; polls++) {
		const output = await trigger.poll();
		items.push(...(output?.[0] ?? []).map((item) => item.json));
		if (done(items)) return { requests: sb.control.requests().length, polls, items };
		sb.control.advance(60_000);
	}
	throw new Error(`not done after 20 polls: ${items.length} items`);
}

function pollRow(
	name: string,
	took: { requests: number; polls: number },
	min: number,
	minLabel: string,
) {
	const polls = took.polls === 1 ? '1 poll' : `${took.polls} polls`;
	row('trigger', name, `${took.requests} in ${polls}`, minLabel, fmt(took.requests / min), '-');
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
// generation: one item, then 50 items waited for together

interface GenerationMeasure {
	posts: number;
	lists: number;
	statusPolls: number;
	gets: number;
	total: number;
	rounds: number;
	wallMs: number;
	slowestMs: number;
}

async function generation(items: number, speed: number, seed: number): Promise<GenerationMeasure> {
	const sb = await sandbox(speed, seed);
	try {
		sb.control.advance(86_400_000); // the seeded in-flight article must not share the queued list
		const project = sb.control.projects()[0].id;
		sb.control.resetRequests();
		const started = sb.control.now().getTime();
		const output = await runNode(
			sb,
			{
				resource: 'article',
				operation: 'generate',
				topic: '={{ $json.topic }}',
				projectId: { __rl: true, mode: 'id', value: project },
				waitForCompletion: true,
				options: { pollInterval: 1, timeout: 600 },
			},
			Array.from({ length: items }, (_, i) => ({ topic: `Benchmark article number ${i + 1}` })),
		);
		const wallMs = sb.control.now().getTime() - started;
		const finished = output.filter((i) => ['cms', 'needs_editing'].includes(String(i.json.status)));
		if (finished.length !== items)
			throw new Error(`${finished.length} of ${items} articles finished`);

		const log = sb.control.requests();
		const posts = log.filter((e) => e.method === 'POST');
		const lastPost = Math.max(...posts.map((e) => Date.parse(e.at)));
		// generation time of each article on the sandbox clock: created_at to its final updated_at
		let slowestMs = 0;
		let lastEnd = 0;
		for (const item of finished) {
			const created = Date.parse(String(item.json.created_at));
			const ended = Date.parse(String(item.json.updated_at));
			slowestMs = Math.max(slowestMs, ended - created);
			lastEnd = Math.max(lastEnd, ended);
		}
		// polling at the 1 s cadence after the last submission, the last completion is seen at round:
		const rounds = Math.max(1, Math.ceil((lastEnd - lastPost) / 1000));
		return {
			posts: posts.length,
			lists: count(log, 'GET', /^\/api\/v1\/articles$/),
			statusPolls: count(log, 'GET', /\/status$/),
			gets: count(log, 'GET', /^\/api\/v1\/articles\/[0-9a-f-]{36}$/),
			total: log.length,
			rounds,
			wallMs,
			slowestMs,
		};
	} finally {
		await sb.close();
	}
}

async function generationRows(): Promise<void> {
	// speed 30: an article takes 2-4 s, polled every second
	const one = await generation(1, 30, 201);
	const oneMin = 1 + one.rounds + 1;
	requestRow(
		'article generate + wait, 1 item',
		one.total,
		oneMin,
		`${oneMin} (1 POST + ${one.rounds} status + 1 GET)`,
	);
	notes.push(
		`generate + wait, 1 item: ${one.posts} POST, ${one.statusPolls} status polls, ${one.gets} GET of the finished article.`,
	);

	// speed 6: articles take 10-20 s, so a 1 s poll cadence is fine-grained next to them
	const many = await generation(50, 6, 202);
	const manyMin = 50 + many.rounds + 50;
	requestRow(
		'article generate + wait, 50 items together',
		many.total,
		manyMin,
		`${manyMin} (50 POST + ${many.rounds} list + 50 GET)`,
	);
	notes.push(
		`generate + wait, 50 items: ${many.posts} POST, ${many.lists} list reads of the queued articles, ${many.statusPolls} status polls, ${many.gets} GET of finished articles.`,
	);
	row(
		'wall time',
		'50 articles generated + waited, one execution',
		`${fmt(many.wallMs / 1000, 1)} s`,
		`${fmt(many.slowestMs / 1000, 1)} s slowest`,
		fmt(many.wallMs / many.slowestMs),
		'<= 1.10',
	);
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

function table(): string[] {
	const header = ['section', 'benchmark', 'measured', 'minimum / reference', 'ratio', 'target'];
	const lines = rows.map((r) => [r.section, r.name, r.measured, r.reference, r.ratio, r.target]);
	const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
	return [line(header), line(widths.map((w) => '-'.repeat(w))), ...lines.map(line)];
}

function machine(): string {
	return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), ${platform()}, Node ${process.version}`;
}

function print(): void {
	for (const l of table()) console.log(l);
	console.log('');
	for (const note of notes) console.log(`- ${note}`);
	console.log(
		`- machine: ${machine()}; timed figures are medians of ${RUNS} runs (cold load: ${LOAD_RUNS}).`,
	);
}

function find(name: string): Row {
	const found = rows.find((r) => r.name === name);
	if (!found) throw new Error(`no benchmark row "${name}"`);
	return found;
}

/** Replaces what lies between <!-- <marker>:start --> and <!-- <marker>:end --> in a file. */
function writeBetween(file: string, marker: string, content: string): void {
	const path = join(ROOT, file);
	const text = readFileSync(path, 'utf8');
	const start = `<!-- ${marker}:start -->`;
	const end = `<!-- ${marker}:end -->`;
	const from = text.indexOf(start);
	const to = text.indexOf(end);
	if (from < 0 || to < from) throw new Error(`${file} lacks ${start} ... ${end}`);
	writeFileSync(path, `${text.slice(0, from + start.length)}\n\n${content}\n\n${text.slice(to)}`);
}

/** Joins the words into lines of at most `width` characters, as the Markdown files are wrapped. */
function wrap(text: string, width = 100): string {
	const lines: string[] = [];
	let current = '';
	// A word runs to the next space outside a code span, so code spans stay on one line.
	for (const word of text.match(/(?:`[^`]*`|[^\s`])+/g) ?? []) {
		if (current && current.length + 1 + word.length > width) {
			lines.push(current);
			current = word;
		} else current = current ? `${current} ${word}` : word;
	}
	return [...lines, current].join('\n');
}

function write(seconds: number): void {
	const date = new Date().toISOString().slice(0, 10);
	const command = ['npm run bench --', ...process.argv.slice(2)].join(' ');
	writeBetween(
		'BENCHMARKS.md',
		'bench:unit',
		[
			wrap(
				`Run of ${date}: \`${command}\`, ${fmt(seconds, 1)} s from start to table, on ${machine()} (load average ${fmt(LOAD_AT_START, 1)} when it started). Timed figures are medians of ${RUNS} runs (cold load: ${LOAD_RUNS} fresh processes).`,
			),
			'',
			...table(),
			'',
			...notes.map((note) => `- ${note}`),
		].join('\n'),
	);

	const requests = rows.filter((r) => r.section === 'requests');
	const atMinimum = requests.filter((r) => r.ratio === '1.00').length;
	const idle = find('article trigger, idle poll (10,000 records)');
	const batch = find('article generate + wait, 50 items together');
	const wall = find('50 articles generated + waited, one execution');
	const throughput = find('return all 10,000 articles: node in engine vs raw axios');
	writeBetween(
		'README.md',
		'bench:summary',
		wrap(
			`${atMinimum === requests.length ? 'Every' : `${atMinimum} of ${requests.length}`} request count is at its minimum (an idle article-trigger poll is ${idle.measured} request${idle.measured === '1' ? '' : 's'}; 50 articles generated and waited for together take ${batch.measured} requests ${batch.reference.replace(/^\d+ /, '')} and ${wall.ratio}x the slowest article's time). Return-all throughput is ${throughput.ratio}x a raw axios loop, the cost of n8n's request helper. (Figures of the run of ${date} in \`BENCHMARKS.md\`, written there by \`npm run bench -- --write\`.)`,
		),
	);
	console.log(`- wrote BENCHMARKS.md and the README's summary of it.`);
}

async function main(): Promise<void> {
	const started = process.hrtime.bigint();
	await requestCounts();
	await triggerArticleRows();
	await triggerSocialRows();
	await triggerSocialScaleRows({ sandbox, row, fmt, pollsUntil });
	await generationRows();
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
