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
import { readFileSync } from 'fs';

import { N8nRest } from './rest-client';
import { POLL_SECONDS } from './queue-workflows';
import {
	articles,
	measurer,
	MINUTE_MS,
	PLAN_PER_MINUTE,
	rateFloorMs,
	records,
	type Plan,
	type Run,
} from './queue-run';
import { check, count, mb, ratio, resultTable, seconds, write } from './queue-table';

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

const { sandbox, freshKey, run } = measurer({ rest, control, user, n8nDir, workers });
const { rows, row, render: table } = resultTable();

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
