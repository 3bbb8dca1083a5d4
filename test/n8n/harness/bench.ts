/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only benchmark: reads /proc, the environment, writes BENCHMARKS.md */
// The queue-mode benchmark (`npm run bench:n8n`, scripts/n8n/bench.ts), on the queue leg's
// deployment of n8n main + workers and the sandbox: many
// executions on one key's rate budget, and our nodes side by side with what users build instead
// (n8n's HTTP Request node with its pagination, an HTTP Request + Wait + IF loop). Every case runs
// on the sandbox's second user with a fresh key, so each starts with an unspent per-minute window
// and its requests are its own. Its correctness checks (no failed execution of ours, every record
// returned, every article finished) are returned for the command to judge; its figures are reported
// as a markdown table and never judged.
import { readFileSync } from 'fs';
import { join } from 'path';

import type { Deployment } from './deployment';
import { REPO } from './n8n';
import { report } from './report';
import { CREDENTIALS, POLL_SECONDS } from './queue-workflows';
import {
	articles,
	measurer,
	MINUTE_MS,
	PLAN_PER_MINUTE,
	rateFloorMs,
	records,
	type Plan,
	type Run,
} from './bench-run';
import { checker, count, mb, ratio, resultTable, seconds, write, type Check } from './bench-table';
import { latencyGets } from './bench-latency';

const SEED = { returnAllSmall: 2_000, returnAllLarge: 10_000 };

/** Runs every case; returns its correctness checks. */
export async function queueBenchmark(deployment: Deployment): Promise<Check[]> {
	const user = deployment.sandbox.control.otherUserId;
	const project = deployment.sandbox.control.projects(user)[0].id;
	const { freshKey: setKey, run } = measurer({
		api: deployment.api,
		sandbox: deployment.sandbox,
		user,
		workers: () => deployment.workers,
	});
	const freshKey = (plan: Plan) =>
		setKey(plan, { ours: CREDENTIALS.bench.id, bearer: CREDENTIALS.bearer.id });
	const { rows, row, render: table } = resultTable();
	const { checks, check } = checker();

	const topics = (n: number, label: string) =>
		Array.from({ length: n }, (_, i) => ({ topic: `${label} ${i + 1}`, project_id: project }));

	// ---- the cases -----------------------------------------------------------------------------------

	const SECTION = { budget: 1, returnAll: 2, generations: 3, latency: 4 };

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
			const error = r.executions[0]?.error;
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

	const started = Date.now();
	const { control } = deployment.sandbox;
	control.seedArticles(SEED.returnAllLarge, { userId: user, status: 'draft' });
	control.seedArticles(SEED.returnAllSmall, { userId: user, status: 'archived' });
	control.setCredits({ subscription: 10_000, purchased: 0 }, user);

	await latencyGets(
		deployment,
		{ freshKey: async () => await freshKey('Business'), run, row, check },
		SECTION.latency,
	);
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
	// The date and command first: test/docs/figures.test.ts lists the block by them.
	const text = [
		`Run of ${new Date().toISOString().slice(0, 10)}: \`npm run bench:n8n -- --write\`, ${seconds(Date.now() - started)} for the benchmark.`,
		`Machine: ${cores} cores (${cpu}), Node ${process.version}, n8n main + 2 workers (concurrency 5) on`,
		`Postgres and Redis, sandbox speed ${deployment.sandboxSpeed}.`,
		'',
		'```',
		table(),
		'```',
	].join('\n');
	for (const line of text.split('\n')) report(line);
	if (process.env.CONTENTGEN_BENCH_WRITE) {
		write(join(REPO, 'BENCHMARKS.md'), text);
		report('(wrote the table into BENCHMARKS.md)');
	}
	return checks;
}
