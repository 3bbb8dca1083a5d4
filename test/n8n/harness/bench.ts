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
	medianRun,
	SAMPLES,
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
	const { row, render: table } = resultTable();
	const { checks, check } = checker();

	const topics = (n: number, label: string) =>
		Array.from({ length: n }, (_, i) => ({ topic: `${label} ${i + 1}`, project_id: project }));

	// ---- the cases -----------------------------------------------------------------------------------

	const SECTION = { budget: 1, returnAll: 2, generations: 3, latency: 4 };

	/** SAMPLES runs of a case, each on a fresh key of the plan. */
	async function sampled(plan: Plan, once: () => Promise<Run>): Promise<Run[]> {
		const runs: Run[] = [];
		for (let n = 0; n < SAMPLES; n++) {
			await freshKey(plan);
			runs.push(await once());
		}
		return runs;
	}

	async function generateAndWait(plan: Plan): Promise<void> {
		const runs = await sampled(
			plan,
			async () =>
				await run(
					'benchGenerateWait',
					topics(10, 'Shared budget, article').map(({ topic }) => ({ topic, projectId: project })),
				),
		);
		const { finished, slowestMs } = articles(medianRun(runs).executions);
		row(
			SECTION.budget,
			`10 executions × generate + wait (${POLL_SECONDS} s polls), ${plan} plan`,
			'ContentGen',
			runs,
			{ ms: slowestMs, what: 'slowest article', applies: finished === 10 },
			`${finished} of 10 articles returned, ${medianRun(runs).charged} charged`,
		);
		for (const r of runs) {
			const done = articles(r.executions).finished;
			check(
				done === 10 && r.charged === 10 && r.executions.every((e) => e.status === 'success'),
				`10 concurrent generate + wait on one ${plan} budget: ${done} of 10 finished, ${r.charged} charged, ${r.executions.filter((e) => e.status !== 'success').length} failed executions`,
			);
		}
	}

	/** 10 executions x Return All on one key, our node's samples first (they end as a window opens). */
	async function returnAllMany(plan: Plan, between: () => Promise<void>): Promise<void> {
		const bodies = Array.from({ length: 10 }, () => ({ status: 'archived' }));
		const ours = await sampled(plan, async () => await run('benchReturnAll', bodies));
		await between();
		const http = await sampled(plan, async () => await run('benchHttpPaginate', bodies));
		const expected = 10 * SEED.returnAllSmall;
		const ideal = expected / 100;
		for (const [runs, variant] of [
			[ours, 'ContentGen'],
			[http, 'HTTP Request, its pagination'],
		] as const) {
			const r = medianRun(runs);
			const got = records(r.executions);
			row(
				SECTION.budget,
				`10 executions × Return All of ${count(SEED.returnAllSmall)}, ${plan} plan`,
				variant,
				runs,
				{
					ms: rateFloorMs(r.requests, ideal, plan),
					what: `${ideal} requests at ${PLAN_PER_MINUTE[plan]}/min`,
					applies: got.total === expected,
				},
				`${count(got.total)} of ${count(expected)} records${got.partial ? `, ${got.partial} error bodies taken for pages` : ''}`,
				http,
			);
		}
		for (const r of ours) {
			const got = records(r.executions);
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
		const measured: Record<'benchReturnAll' | 'benchHttpPaginate', Run[]> = {
			benchReturnAll: [],
			benchHttpPaginate: [],
		};
		// Interleaved: the workers' memory and the machine's load drift over time.
		for (let n = 0; n < SAMPLES; n++) {
			for (const key of ['benchReturnAll', 'benchHttpPaginate'] as const) {
				await freshKey('Business');
				measured[key].push(await run(key, [{ status: 'draft' }]));
			}
		}
		const memoryOf = (runs: Run[]) =>
			[...runs].map((r) => r.memory[0] ?? 0).sort((a, b) => a - b)[
				Math.floor((runs.length - 1) / 2)
			];
		for (const [key, variant] of [
			['benchReturnAll', 'ContentGen'],
			['benchHttpPaginate', 'HTTP Request, its pagination'],
		] as const) {
			const runs = measured[key];
			row(
				SECTION.returnAll,
				`Return All of ${count(SEED.returnAllLarge)}, Business plan`,
				variant,
				runs,
				{ ms: 0, what: '', applies: false },
				`${count(records(medianRun(runs).executions).total)} records; worker memory +${mb(memoryOf(runs))} (median), ${ratio(memoryOf(runs), memoryOf(measured.benchHttpPaginate))} x HTTP Request's`,
				measured.benchHttpPaginate,
			);
		}
		for (const r of measured.benchReturnAll) {
			const got = records(r.executions);
			check(
				got.total === SEED.returnAllLarge && got.distinct[0] === SEED.returnAllLarge,
				`Return All of ${count(SEED.returnAllLarge)} in queue mode returned every record once (${count(got.distinct[0])} distinct)`,
			);
		}
	}

	async function generateMany(plan: Plan): Promise<void> {
		const measured: Record<'benchGenerateMany' | 'benchHttpLoop', Run[]> = {
			benchGenerateMany: [],
			benchHttpLoop: [],
		};
		for (let n = 0; n < SAMPLES; n++) {
			for (const key of ['benchGenerateMany', 'benchHttpLoop'] as const) {
				await freshKey(plan);
				const label = `${plan} plan, ${key === 'benchGenerateMany' ? 'node' : 'loop'} article`;
				measured[key].push(await run(key, [{ items: topics(20, label) }]));
			}
		}
		for (const [key, variant] of [
			['benchGenerateMany', 'ContentGen, one node'],
			['benchHttpLoop', 'HTTP Request + Wait + IF loop'],
		] as const) {
			const runs = measured[key];
			const r = medianRun(runs);
			const { finished, slowestMs } = articles(r.executions);
			const error = r.executions[0]?.error;
			row(
				SECTION.generations,
				`20 generations waited for (${POLL_SECONDS} s polls), ${plan} plan`,
				variant,
				runs,
				{ ms: slowestMs, what: 'slowest article', applies: finished === 20 },
				`${finished} of 20 articles returned, ${r.charged} charged${error ? `; "${error}"` : ''}`,
				measured.benchHttpLoop,
			);
		}
		for (const r of measured.benchGenerateMany) {
			const { finished } = articles(r.executions);
			check(
				finished === 20 && r.charged === 20 && r.executions.every((e) => e.status === 'success'),
				`20 generations waited for in one node on the ${plan} plan: ${finished} of 20 finished, ${r.charged} charged`,
			);
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
	await returnAllMany('Free', async () => await generateAndWait('Free'));
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
		table(),
	].join('\n');
	for (const line of text.split('\n')) report(line);
	if (process.env.CONTENTGEN_BENCH_WRITE) {
		write(join(REPO, 'BENCHMARKS.md'), text);
		report('(wrote the table into BENCHMARKS.md)');
	}
	return checks;
}
