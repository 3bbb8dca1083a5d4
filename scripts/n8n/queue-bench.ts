/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only benchmark driver: reads argv, /proc and files, talks to local n8n and sandbox, writes BENCHMARKS.md */
// The queue-mode benchmark of scripts/n8n/leg-queue.sh, on a running n8n main + workers and the
// sandbox: many executions on one key's rate budget, and our nodes side by side with what users
// build instead (n8n's HTTP Request node with its pagination, an HTTP Request + Wait + IF loop).
// Every case runs on the sandbox's second user with a fresh key, so each starts with an unspent
// per-minute window and its requests are its own. Prints PASS/FAIL lines for the correctness checks
// (no failed execution of ours, every record returned, every article finished) and a markdown table
// of figures; figures are never judged.
//
//   tsx scripts/n8n/queue-bench.ts --url <n8n> --jar <cookie file> --n8n-dir <n8n install>
//       --control-url <sandbox control> --user <sandbox user id> --project <its project id>
//       --workers 1:<pid>:<log>,2:<pid>:<log> [--write BENCHMARKS.md]
import { readFileSync, writeFileSync } from 'fs';

import { N8nRest, outputJson, type Execution } from './rest-client';
import { NODES, PATHS, POLL_SECONDS, workflowId, type WorkflowKey } from './queue-workflows';

const MINUTE_MS = 60_000;
const PLAN_PER_MINUTE = { Free: 100, Business: 1000 } as const;
type Plan = keyof typeof PLAN_PER_MINUTE;
const SEED = { returnAllSmall: 2_000, returnAllLarge: 10_000 };

function flag(name: string): string {
	const index = process.argv.indexOf(`--${name}`);
	const value = index >= 0 ? process.argv[index + 1] : undefined;
	if (value === undefined) throw new Error(`missing --${name}`);
	return value;
}
const optional = (name: string) => (process.argv.includes(`--${name}`) ? flag(name) : undefined);

const control = flag('control-url');
const user = flag('user');
const project = flag('project');
const n8nDir = flag('n8n-dir');
const rest = new N8nRest(flag('url'), readFileSync(flag('jar'), 'utf8').trim());
const workers = flag('workers')
	.split(',')
	.map((spec) => {
		const [name, pid, log] = spec.split(':');
		return { name, pid: Number(pid), log };
	});

async function sandbox<T>(method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${control}${path}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok)
		throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
	return (await response.json()) as T;
}

interface SandboxRequest {
	method: string;
	path: string;
	status: number;
	at: string;
}

/** Puts a fresh key of the benchmark user into both benchmark credentials. */
async function freshKey(plan: Plan): Promise<void> {
	await sandbox('POST', '/plan-limits', { userId: user, plan });
	const { apiKey } = await sandbox<{ apiKey: string }>('POST', '/keys', {
		userId: user,
		name: `benchmark ${new Date().toISOString()}`,
	});
	await rest.updateCredential('contentgen-bench', { apiKey });
	await rest.updateCredential('contentgen-bench-bearer', { token: apiKey });
}

/** Peak resident memory of each worker above its level at the start, sampled every 50 ms. */
function sampleMemory(): () => Map<string, number> {
	const rss = (pid: number) => {
		try {
			const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
			return match ? Number(match[1]) * 1024 : 0;
		} catch {
			return 0;
		}
	};
	const start = new Map(workers.map((w) => [w.name, rss(w.pid)]));
	const peak = new Map(start);
	const timer = setInterval(() => {
		for (const w of workers) peak.set(w.name, Math.max(peak.get(w.name) ?? 0, rss(w.pid)));
	}, 50);
	return () => {
		clearInterval(timer);
		return new Map(
			workers.map((w) => [w.name, (peak.get(w.name) ?? 0) - (start.get(w.name) ?? 0)]),
		);
	};
}

function workerOf(executionId: string): string | undefined {
	return workers.find((w) =>
		readFileSync(w.log, 'utf8').includes(`Worker started execution ${executionId} (job`),
	)?.name;
}

interface Run {
	wallMs: number;
	requests: SandboxRequest[];
	/** articles charged to the benchmark user during the run */
	charged: number;
	executions: Execution[];
	/** per execution: peak memory growth of the worker that ran it */
	memory: number[];
}

/** Fires `bodies.length` webhook calls at once and waits for all of them (the webhooks answer when the workflow ends). */
async function run(key: WorkflowKey, bodies: unknown[]): Promise<Run> {
	const before = new Set((await rest.executions(workflowId(key))).map((e) => e.id));
	const since = new Date().toISOString();
	const memory = sampleMemory();
	const started = performance.now();
	await Promise.all(
		bodies.map(async (body) => {
			const response = await fetch(`${rest.url}/webhook/${PATHS[key]}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
			await response.text();
		}),
	);
	const wallMs = performance.now() - started;
	const growth = memory();
	const fresh = (await rest.executions(workflowId(key))).filter((e) => !before.has(e.id));
	const executions = await Promise.all(fresh.map(async (e) => await rest.execution(e.id, n8nDir)));
	const requests = (
		await sandbox<SandboxRequest[]>(
			'GET',
			`/requests?userId=${user}&since=${encodeURIComponent(since)}`,
		)
	).sort((a, b) => a.at.localeCompare(b.at));
	const charged = (await sandbox<Array<{ at: string }>>('GET', `/ledger?userId=${user}`)).filter(
		(e) => e.at >= since,
	).length;
	return {
		wallMs,
		requests,
		charged,
		executions,
		memory: executions.map((e) => growth.get(workerOf(e.id) ?? '') ?? 0),
	};
}

/**
 * The least time `ideal` requests can take on a per-minute budget, starting when the first request
 * of the run was sent: windows are fixed per key, so every further window opens on the minute.
 */
function rateFloorMs(requests: SandboxRequest[], ideal: number, plan: Plan): number {
	if (requests.length === 0) return 0;
	const first = Date.parse(requests[0].at);
	const windows = Math.ceil(ideal / PLAN_PER_MINUTE[plan]);
	if (windows <= 1) return 0;
	return Math.floor(first / MINUTE_MS) * MINUTE_MS + (windows - 1) * MINUTE_MS - first;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const count = (n: number) => n.toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '-');

interface Row {
	/** where the row goes in the table: rows are printed by section, then in the order measured */
	section?: number;
	benchmark: string;
	variant: string;
	requests: string;
	limited: string;
	time: string;
	minimum: string;
	ratio: string;
	failed: string;
	result: string;
}
const rows: Row[] = [];
function check(ok: boolean, text: string): void {
	console.log(`${ok ? 'PASS' : 'FAIL'} ${text}`);
}

function row(
	section: number,
	benchmark: string,
	variant: string,
	r: Run,
	minimum: { ms: number; what: string; applies: boolean },
	result: string,
): Row {
	const limited = r.requests.filter((q) => q.status === 429).length;
	const failed = r.executions.filter((e) => e.status !== 'success').length;
	const entry: Row = {
		section,
		benchmark,
		variant,
		requests: count(r.requests.length),
		limited: count(limited),
		time: seconds(r.wallMs),
		minimum: minimum.ms > 0 ? `${seconds(minimum.ms)} (${minimum.what})` : '-',
		// A run that did not do the whole job has no meaningful time ratio.
		ratio: minimum.ms > 0 && minimum.applies ? ratio(r.wallMs, minimum.ms) : '-',
		failed: `${failed} of ${r.executions.length}`,
		result,
	};
	rows.push(entry);
	console.log(`  ${benchmark} | ${variant}: ${Object.values(entry).slice(3).join(' | ')}`);
	return entry;
}

// ---- what the executions returned ------------------------------------------------------------

const oursOutput = (e: Execution) => outputJson(e.resultData.runData[NODES.ours]);

/** Records each Return All returned (as items), distinct within its execution; error bodies taken for pages. */
function records(executions: Execution[]): { total: number; distinct: number[]; partial: number } {
	let total = 0;
	let partial = 0;
	const distinct: number[] = [];
	for (const e of executions) {
		const ours = e.resultData.runData[NODES.ours] !== undefined;
		const items = outputJson(e.resultData.runData[ours ? NODES.ours : NODES.httpRecords]);
		total += items.length;
		distinct.push(new Set(items.map((r) => r.id)).size);
		// HTTP Request with pagination: one item per page body; a body without data is no page.
		if (!ours) {
			partial += outputJson(e.resultData.runData[NODES.http]).filter(
				(page) => !Array.isArray(page.data),
			).length;
		}
	}
	return { total, distinct, partial };
}

/** Finished articles of a generation run, and the slowest one's generation time on the sandbox clock. */
function articles(executions: Execution[]): { finished: number; slowestMs: number } {
	const out = executions.flatMap((e) =>
		e.resultData.runData[NODES.ours]
			? oursOutput(e)
			: outputJson(e.resultData.runData[NODES.loopFetch]).map(
					(r) => r.data as Record<string, unknown>,
				),
	);
	const done = out.filter((a) => a && ['cms', 'needs_editing'].includes(String(a.status)));
	const slowestMs = Math.max(
		0,
		...done.map((a) => Date.parse(String(a.updated_at)) - Date.parse(String(a.created_at))),
	);
	return { finished: done.length, slowestMs };
}

const topics = (n: number, label: string) =>
	Array.from({ length: n }, (_, i) => ({ topic: `${label} ${i + 1}`, project_id: project }));

// ---- the cases -----------------------------------------------------------------------------------

const SECTION = { budget: 1, returnAll: 2, generations: 3 };

async function generateAndWait(plan: Plan): Promise<void> {
	await freshKey(plan);
	const r = await run(
		'benchGenerateWait',
		topics(10, 'Shared budget, article').map(({ topic }) => ({ topic, projectId: project })),
	);
	const { finished, slowestMs } = articles(r.executions);
	row(
		SECTION.budget,
		`10 executions × generate + wait (${POLL_SECONDS} s polls), ${plan} plan`,
		'ContentGen',
		r,
		{ ms: slowestMs, what: 'slowest article', applies: finished === 10 },
		`${finished} of 10 articles returned, ${r.charged} charged`,
	);
	check(
		finished === 10 && r.charged === 10 && r.executions.every((e) => e.status === 'success'),
		`10 concurrent generate + wait on one ${plan} budget: ${finished} of 10 finished, ${r.charged} charged, ${r.executions.filter((e) => e.status !== 'success').length} failed executions`,
	);
}

async function returnAllMany(
	plan: Plan,
	key: 'benchReturnAll' | 'benchHttpPaginate',
): Promise<void> {
	await freshKey(plan);
	const r = await run(
		key,
		Array.from({ length: 10 }, () => ({ status: 'archived' })),
	);
	const got = records(r.executions);
	const expected = 10 * SEED.returnAllSmall;
	const ours = key === 'benchReturnAll';
	const ideal = expected / 100;
	row(
		SECTION.budget,
		`10 executions × Return All of ${count(SEED.returnAllSmall)}, ${plan} plan`,
		ours ? 'ContentGen' : 'HTTP Request, its pagination',
		r,
		{
			ms: rateFloorMs(r.requests, ideal, plan),
			what: `${ideal} requests at ${PLAN_PER_MINUTE[plan]}/min`,
			applies: got.total === expected,
		},
		`${count(got.total)} of ${count(expected)} records${got.partial ? `, ${got.partial} error bodies taken for pages` : ''}`,
	);
	if (ours) {
		const complete = got.distinct.filter((n) => n === SEED.returnAllSmall).length;
		check(
			got.total === expected &&
				complete === 10 &&
				r.executions.every((e) => e.status === 'success'),
			`10 concurrent Return All on one ${plan} budget: ${complete} of 10 executions returned all ${count(SEED.returnAllSmall)} distinct records, ${r.executions.filter((e) => e.status !== 'success').length} failed`,
		);
	}
}

async function returnAllLarge(): Promise<void> {
	await freshKey('Business');
	const measured: Record<string, Run[]> = { benchReturnAll: [], benchHttpPaginate: [] };
	// Interleaved, twice each: the workers' memory and the machine's load drift over time.
	for (const key of [
		'benchReturnAll',
		'benchHttpPaginate',
		'benchReturnAll',
		'benchHttpPaginate',
	] as const) {
		measured[key].push(await run(key, [{ status: 'draft' }]));
	}
	const mean = (runs: Run[], pick: (r: Run) => number) =>
		runs.reduce((s, r) => s + pick(r), 0) / runs.length;
	const summary = (key: keyof typeof measured) => {
		const runs = measured[key];
		const merged: Run = {
			wallMs: mean(runs, (r) => r.wallMs),
			requests: runs[0].requests,
			charged: 0,
			executions: runs.flatMap((r) => r.executions),
			memory: runs.flatMap((r) => r.memory),
		};
		const got = records(runs[0].executions);
		const memory = mean(runs, (r) => r.memory[0] ?? 0);
		return { merged, got, memory };
	};
	const ours = summary('benchReturnAll');
	const http = summary('benchHttpPaginate');
	for (const [variant, s] of [
		['ContentGen', ours],
		['HTTP Request, its pagination', http],
	] as const) {
		row(
			SECTION.returnAll,
			`Return All of ${count(SEED.returnAllLarge)}, Business plan (mean of 2)`,
			variant,
			s.merged,
			{ ms: 0, what: '', applies: false },
			`${count(s.got.total)} records; worker memory +${mb(s.memory)}`,
		);
	}
	rows.push({
		section: SECTION.returnAll,
		benchmark: `Return All of ${count(SEED.returnAllLarge)}: ContentGen ÷ HTTP Request`,
		variant: 'ratio',
		requests: ratio(ours.merged.requests.length, http.merged.requests.length),
		limited: '-',
		time: ratio(ours.merged.wallMs, http.merged.wallMs),
		minimum: '-',
		ratio: '-',
		failed: '-',
		result: `memory ${ratio(ours.memory, http.memory)}`,
	});
	check(
		ours.got.total === SEED.returnAllLarge && ours.got.distinct[0] === SEED.returnAllLarge,
		`Return All of ${count(SEED.returnAllLarge)} in queue mode returned every record once (${count(ours.got.distinct[0])} distinct)`,
	);
}

async function generateMany(plan: Plan): Promise<void> {
	for (const key of ['benchGenerateMany', 'benchHttpLoop'] as const) {
		await freshKey(plan);
		const ours = key === 'benchGenerateMany';
		const r = await run(key, [
			{ items: topics(20, `${plan} plan, ${ours ? 'node' : 'loop'} article`) },
		]);
		const { finished, slowestMs } = articles(r.executions);
		const error = r.executions[0]?.resultData.error?.message;
		row(
			SECTION.generations,
			`20 generations waited for (${POLL_SECONDS} s polls), ${plan} plan`,
			ours ? 'ContentGen, one node' : 'HTTP Request + Wait + IF loop',
			r,
			{ ms: slowestMs, what: 'slowest article', applies: finished === 20 },
			`${finished} of 20 articles returned, ${r.charged} charged${error ? `; "${error}"` : ''}`,
		);
		if (ours) {
			check(
				finished === 20 && r.charged === 20 && r.executions.every((e) => e.status === 'success'),
				`20 generations waited for in one node on the ${plan} plan: ${finished} of 20 finished, ${r.charged} charged`,
			);
		}
	}
}

/** Sleeps until just after the next minute boundary, when every key's per-minute window opens. */
async function nextWindow(): Promise<void> {
	const ms = MINUTE_MS - (Date.now() % MINUTE_MS) + 500;
	await new Promise((resolve) => setTimeout(resolve, ms));
}

function table(): string {
	const header: Row = {
		benchmark: 'benchmark',
		variant: 'variant',
		requests: 'requests',
		limited: '429s',
		time: 'time',
		minimum: 'minimum',
		ratio: 'time / min',
		failed: 'failed executions',
		result: 'result',
	};
	const keys = (Object.keys(header) as Array<keyof Row>).filter((k) => k !== 'section');
	rows.sort((a, b) => (a.section ?? 0) - (b.section ?? 0));
	const widths = keys.map((k) => Math.max(...[header, ...rows].map((r) => String(r[k]).length)));
	const line = (r: Row) => `| ${keys.map((k, i) => String(r[k]).padEnd(widths[i])).join(' | ')} |`;
	return [
		line(header),
		`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
		...rows.map(line),
	].join('\n');
}

function write(file: string, text: string): void {
	const start = '<!-- bench:n8n:start -->';
	const end = '<!-- bench:n8n:end -->';
	const current = readFileSync(file, 'utf8');
	const from = current.indexOf(start);
	const to = current.indexOf(end);
	if (from < 0 || to < from) throw new Error(`${file} has no ${start} ... ${end} block`);
	writeFileSync(file, `${current.slice(0, from + start.length)}\n${text}\n${current.slice(to)}`);
}

async function main(): Promise<void> {
	const started = Date.now();
	await sandbox('POST', '/seed-articles', {
		userId: user,
		count: SEED.returnAllLarge,
		status: 'draft',
	});
	await sandbox('POST', '/seed-articles', {
		userId: user,
		count: SEED.returnAllSmall,
		status: 'archived',
	});
	await sandbox('POST', '/credits', { userId: user, subscription: 10_000, purchased: 0 });

	await returnAllLarge();
	await generateMany('Business');
	// The Free cases start as a minute's window opens, so their minimum is the budget's, not an
	// accident of where in the minute they began. Each one that runs out of budget ends just after
	// the next window opens, which aligns the case after it.
	await nextWindow();
	await returnAllMany('Free', 'benchReturnAll');
	await generateAndWait('Free');
	await returnAllMany('Free', 'benchHttpPaginate');
	await generateMany('Free');

	const cpu =
		readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
	const cores = readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? 0;
	const text = [
		`Machine: ${cores} cores (${cpu}), Node ${process.version}, n8n main + 2 workers (concurrency 5) on`,
		`one SQLite database and Redis, sandbox speed ${process.env.CONTENTGEN_N8N_QUEUE_SPEED ?? 10}. Command:`,
		`\`npm run test:n8n\` (queue leg), ${seconds(Date.now() - started)} for the benchmark.`,
		'',
		'```',
		table(),
		'```',
	].join('\n');
	console.log(`\n${text}\n`);
	const target = optional('write');
	if (target) {
		write(target, text);
		console.log(`(wrote the table into ${target})`);
	}
}

main().catch((error: unknown) => {
	console.log(`FAIL benchmark: ${(error as Error).stack ?? String(error)}`);
	process.exit(1);
});
