/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only benchmark driver: reads /proc and worker logs, talks to local n8n and sandbox */
// How scripts/n8n/queue-bench.ts measures one case: the webhook calls it fires at n8n, the
// requests and charges the sandbox saw meanwhile, the executions n8n kept and the workers' memory;
// and what those executions returned.
import { readFileSync } from 'fs';

import { outputJson, type Execution, type N8nRest } from './rest-client';
import { NODES, PATHS, workflowId, type WorkflowKey } from './queue-workflows';

export const MINUTE_MS = 60_000;
export const PLAN_PER_MINUTE = { Free: 100, Business: 1000 } as const;
export type Plan = keyof typeof PLAN_PER_MINUTE;

export interface SandboxRequest {
	method: string;
	path: string;
	status: number;
	at: string;
}

export interface Run {
	wallMs: number;
	requests: SandboxRequest[];
	/** articles charged to the benchmark user during the run */
	charged: number;
	executions: Execution[];
	/** per execution: peak memory growth of the worker that ran it */
	memory: number[];
}

/** Where the benchmark runs: n8n, the sandbox's control API, its benchmark user, the workers. */
export interface QueueSetup {
	rest: N8nRest;
	control: string;
	user: string;
	n8nDir: string;
	workers: Array<{ name: string; pid: number; log: string }>;
}

export function measurer({ rest, control, user, n8nDir, workers }: QueueSetup) {
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
		const executions = await Promise.all(
			fresh.map(async (e) => await rest.execution(e.id, n8nDir)),
		);
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

	return { sandbox, freshKey, run };
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

const oursOutput = (e: Execution) => outputJson(e.resultData.runData[NODES.ours]);

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
export function articles(executions: Execution[]): { finished: number; slowestMs: number } {
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
