/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only benchmark driver: reads /proc and worker logs, talks to local n8n and sandbox */
// How the queue-mode benchmark (bench.ts) measures one case: the webhook calls it fires at n8n, the
// requests and charges the sandbox saw meanwhile, the executions n8n kept and the workers' memory;
// and what those executions returned.
import { readFileSync } from 'fs';

import type { RequestLogEntry, Sandbox } from '../../../sandbox';
import { PLAN_LIMITS } from '../../../sandbox/constants';
import type { ExecutionRecord, N8nApi, NodeRun } from './api';
import type { N8nProcess } from './n8n';
import { waitFor } from './processes';
import { NODES, PATHS, workflowId, type WorkflowKey } from './queue-workflows';

export const MINUTE_MS = 60_000;
export const PLAN_PER_MINUTE = { Free: 100, Business: 1000 } as const;
export type Plan = keyof typeof PLAN_PER_MINUTE;

export type SandboxRequest = RequestLogEntry;
export type Execution = ExecutionRecord;

export interface Run {
	wallMs: number;
	requests: SandboxRequest[];
	/** articles charged to the benchmark user during the run */
	charged: number;
	executions: Execution[];
	/** per execution: peak memory growth of the worker that ran it */
	memory: number[];
}

/** Samples of each timed case (CONTENTGEN_N8N_BENCH_SAMPLES, at least 3): one run swings by half on a shared machine. */
export const SAMPLES = Math.max(3, Number(process.env.CONTENTGEN_N8N_BENCH_SAMPLES ?? 3) || 3);

/** The sample of median time (of an even count, the lower middle one). */
export function medianRun(runs: Run[]): Run {
	const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
	return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Where the benchmark runs: n8n, the sandbox, its benchmark user, the workers (as they are now). */
export interface QueueSetup {
	api: N8nApi;
	sandbox: Sandbox;
	user: string;
	workers: () => N8nProcess[];
}

/** Every output item of a node across its runs, whatever connection type it outputs on. */
export function outputJson(runs: NodeRun[] | undefined): Array<Record<string, unknown>> {
	return (runs ?? []).flatMap((run) =>
		Object.values(run.data ?? {}).flatMap((branches) =>
			branches.flatMap((branch) => (branch ?? []).map((item) => item.json)),
		),
	);
}

export function measurer({ api, sandbox, user, workers }: QueueSetup) {
	const { control } = sandbox;

	/** Puts a fresh key of the benchmark user, on the plan's limits, into both benchmark credentials. */
	async function freshKey(
		plan: Plan,
		credentials: { ours: string; bearer: string },
	): Promise<void> {
		control.setRateLimit(PLAN_LIMITS[plan], user);
		const apiKey = control.createKey({
			userId: user,
			name: `benchmark ${new Date().toISOString()}`,
		});
		await api.updateCredential(credentials.ours, { apiKey });
		await api.updateCredential(credentials.bearer, { token: apiKey });
	}

	/** Peak resident memory of each worker above its level at the start, sampled every 50 ms. */
	function sampleMemory(): () => Map<string, number> {
		const rss = (pid: number | undefined) => {
			try {
				const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
				return match ? Number(match[1]) * 1024 : 0;
			} catch {
				return 0;
			}
		};
		const now = workers();
		const start = new Map(now.map((w) => [w.name, rss(w.process.child.pid)]));
		const peak = new Map(start);
		const timer = setInterval(() => {
			for (const w of now)
				peak.set(w.name, Math.max(peak.get(w.name) ?? 0, rss(w.process.child.pid)));
		}, 50);
		return () => {
			clearInterval(timer);
			return new Map(now.map((w) => [w.name, (peak.get(w.name) ?? 0) - (start.get(w.name) ?? 0)]));
		};
	}

	function workerOf(executionId: string): string | undefined {
		return workers().find((w) =>
			readFileSync(w.process.log, 'utf8').includes(`Worker started execution ${executionId} (job`),
		)?.name;
	}

	/**
	 * Fires `bodies.length` webhook calls at once and waits for all of them (the webhooks answer when
	 * the workflow ends). `key`: one of the leg's workflows, or one made at run time (id and path).
	 */
	async function run(
		key: WorkflowKey | { id: string; path: string },
		bodies: unknown[],
	): Promise<Run> {
		const { id, path } = typeof key === 'string' ? { id: workflowId(key), path: PATHS[key] } : key;
		const before = new Set(await api.executionIds(id));
		const since = Date.now();
		const memory = sampleMemory();
		const started = performance.now();
		await Promise.all(
			bodies.map(async (body) => {
				const response = await fetch(`${api.url}/webhook/${path}`, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: JSON.stringify(body),
				});
				await response.text();
			}),
		);
		const wallMs = performance.now() - started;
		const growth = memory();
		// n8n lists an execution once it has finished; its webhook may answer just before that
		const listed = async () =>
			(await api.executionIds(id)).filter((execution) => !before.has(execution));
		const fresh = await waitFor('the executions are listed', 30, async () => {
			const ids = await listed();
			return ids.length >= bodies.length && ids;
		}).catch(listed);
		const executions = await Promise.all(
			fresh.map(async (execution) => await api.execution(execution)),
		);
		const requests = control
			.requests()
			.filter((r) => r.userId === user && Date.parse(r.at) >= since)
			.sort((a, b) => a.at.localeCompare(b.at));
		const charged = control
			.ledger()
			.filter((e) => e.userId === user && Date.parse(e.at) >= since).length;
		return {
			wallMs,
			requests,
			charged,
			executions,
			memory: executions.map((e) => growth.get(workerOf(e.id) ?? '') ?? 0),
		};
	}

	return { freshKey, run };
}

/**
 * The least time `ideal` requests can take on a per-minute budget, starting when the first request
 * of the run was sent: windows are fixed per key, so every further window opens on the minute.
 */
export function rateFloorMs(requests: SandboxRequest[], ideal: number, plan: Plan): number {
	if (requests.length === 0) return 0;
	const first = Date.parse(requests[0].at);
	const windows = Math.ceil(ideal / PLAN_PER_MINUTE[plan]);
	if (windows <= 1) return 0;
	return Math.floor(first / MINUTE_MS) * MINUTE_MS + (windows - 1) * MINUTE_MS - first;
}

// ---- what the executions returned ------------------------------------------------------------

const oursOutput = (e: Execution) => outputJson(e.runData[NODES.ours]);

/** Records each Return All returned (as items), distinct within its execution; error bodies taken for pages. */
export function records(executions: Execution[]): {
	total: number;
	distinct: number[];
	partial: number;
} {
	let total = 0;
	let partial = 0;
	const distinct: number[] = [];
	for (const e of executions) {
		const ours = e.runData[NODES.ours] !== undefined;
		const items = outputJson(e.runData[ours ? NODES.ours : NODES.httpRecords]);
		total += items.length;
		distinct.push(new Set(items.map((r) => r.id)).size);
		// HTTP Request with pagination: one item per page body; a body without data is no page.
		if (!ours) {
			partial += outputJson(e.runData[NODES.http]).filter(
				(page) => !Array.isArray(page.data),
			).length;
		}
	}
	return { total, distinct, partial };
}

/** Finished articles of a generation run, and the slowest one's generation time on the sandbox clock. */
export function articles(executions: Execution[]): { finished: number; slowestMs: number } {
	const out = executions.flatMap((e) =>
		e.runData[NODES.ours]
			? oursOutput(e)
			: outputJson(e.runData[NODES.loopFetch]).map((r) => r.data as Record<string, unknown>),
	);
	const done = out.filter((a) => a && ['cms', 'needs_editing'].includes(String(a.status)));
	const slowestMs = Math.max(
		0,
		...done.map((a) => Date.parse(String(a.updated_at)) - Date.parse(String(a.created_at))),
	);
	return { finished: done.length, slowestMs };
}
