import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../../shared/constants';
import { pause } from '../../shared/transport/http';
import { walk } from '../../shared/transport/pages';
import { budgetSpacingMs } from '../../shared/transport/retry';
import {
	connect,
	request,
	type CallOptions,
	type Connection,
} from '../../shared/transport/request';
import { toNodeError } from './items';
import type { WaitSettings } from './parameters';

/** What one look at a job says. */
export type Observation =
	| { state: 'pending'; status: string; progress?: number }
	| { state: 'finished'; status: string; record: IDataObject }
	| { state: 'failed'; status: string; reason?: string };

/** How to watch one kind of generation job. */
export interface GenerationJob {
	/** "article", "social content": used in messages. */
	noun: string;
	/** Field that carries the id in outputs (matches the generate response). */
	idField: string;
	/** The parameter a user would paste the id into later. */
	idLabel: string;
	/** List route filtered by `listStatus`: one request answers for up to 100 pending jobs. */
	listEndpoint: string;
	listStatus: string;
	pendingStatuses: readonly string[];
	/** The cheapest look at one job (one request while it is pending). */
	pollOne(connection: Connection, id: string, call: CallOptions): Promise<Observation>;
	/** The full record of a job that has left the pending list. */
	fetchOne(connection: Connection, id: string, call: CallOptions): Promise<Observation>;
}

export interface WaitTarget {
	itemIndex: number;
	id: string;
	settings: WaitSettings;
}

type WaitResult =
	| { outcome: 'finished'; status: string; record: IDataObject }
	/** Timed out with "Return Last": the id with its last known status. */
	| { outcome: 'timedOut'; status: string; output: IDataObject }
	| { outcome: 'failed'; status?: string; error: NodeApiError | NodeOperationError }
	/** Not settled because waiting stopped early for another item's failure. */
	| { outcome: 'pending'; status?: string; progress?: number };

interface Tracked extends WaitTarget {
	deadline: number;
	status?: string;
	progress?: number;
	result?: WaitResult;
}

function isCancelled(context: IExecuteFunctions): boolean {
	return context.getExecutionCancelSignal()?.aborted === true;
}

function describeLast(job: Tracked): string {
	if (!job.status) return 'not seen yet';
	return job.progress === undefined ? job.status : `${job.status}, ${job.progress}%`;
}

function settle(
	context: IExecuteFunctions,
	job: GenerationJob,
	tracked: Tracked,
	seen: Observation,
): void {
	tracked.status = seen.status;
	if (seen.state === 'pending') {
		tracked.progress = seen.progress ?? tracked.progress;
		return;
	}
	if (seen.state === 'finished') {
		tracked.result = { outcome: 'finished', status: seen.status, record: seen.record };
		return;
	}
	const reason = seen.reason ? `: ${seen.reason}` : '';
	tracked.result = {
		outcome: 'failed',
		status: seen.status,
		error: new NodeOperationError(
			context.getNode(),
			`The ${job.noun} generation failed (${job.idField} ${tracked.id})${reason}`,
			{
				itemIndex: tracked.itemIndex,
				description: `The service reports status "${seen.status}" for ${job.idField} ${tracked.id}${reason}. Credits spent on a failed generation are the service's to refund; check your balance before retrying.`,
			},
		),
	};
}

function failLookup(
	context: IExecuteFunctions,
	job: GenerationJob,
	tracked: Tracked,
	error: unknown,
): void {
	const cause = toNodeError(context, error, tracked.itemIndex);
	// A fresh error per job: one failed list request must not share one error object between items.
	tracked.result = {
		outcome: 'failed',
		status: tracked.status,
		error: new NodeOperationError(
			context.getNode(),
			`Could not check on ${job.noun} ${tracked.id}: ${cause.message}`,
			{
				itemIndex: tracked.itemIndex,
				description: `${cause.description ? `${cause.description} ` : ''}The generation may still finish: run "Wait for Completion" later with ${job.idLabel} ${tracked.id}.`,
			},
		),
	};
}

async function lookAt(
	context: IExecuteFunctions,
	connection: Connection,
	job: GenerationJob,
	tracked: Tracked,
	look: 'pollOne' | 'fetchOne',
): Promise<void> {
	try {
		settle(context, job, tracked, await job[look](connection, tracked.id, tracked.settings.call));
	} catch (error) {
		if (isCancelled(context)) throw toNodeError(context, error, tracked.itemIndex);
		failLookup(context, job, tracked, error);
	}
}

/** Pages through the filtered list until every wanted id has been seen (or the list ends). */
async function listPending(
	connection: Connection,
	job: GenerationJob,
	jobs: Tracked[],
): Promise<Map<string, IDataObject>> {
	const wanted = new Set(jobs.map((tracked) => tracked.id));
	const found = new Map<string, IDataObject>();
	const call = jobs[0].settings.call;
	const maxRateLimitWaitMs = Math.max(
		...jobs.map((tracked) => tracked.settings.call.maxRateLimitWaitMs),
	);
	const pages = walk<IDataObject>(
		connection,
		job.listEndpoint,
		{ status: job.listStatus },
		PAGE_SIZE_MAX,
		{ ...call, maxRateLimitWaitMs },
	);
	for await (const { items } of pages) {
		for (const record of items) {
			const id = typeof record.id === 'string' ? record.id.toLowerCase() : '';
			if (wanted.has(id)) found.set(id, record);
		}
		if (found.size === wanted.size) break;
	}
	return found;
}

/** One round: one look for a single job; for several, one list request plus one fetch per job that left it. */
async function pollRound(
	context: IExecuteFunctions,
	connection: Connection,
	job: GenerationJob,
	jobs: Tracked[],
): Promise<void> {
	if (jobs.length === 1) {
		await lookAt(context, connection, job, jobs[0], 'pollOne');
		return;
	}
	let listed: Map<string, IDataObject>;
	try {
		listed = await listPending(connection, job, jobs);
	} catch (error) {
		if (isCancelled(context)) throw toNodeError(context, error, jobs[0].itemIndex);
		for (const tracked of jobs) failLookup(context, job, tracked, error);
		return;
	}
	for (const tracked of jobs) {
		const record = listed.get(tracked.id);
		const status = typeof record?.status === 'string' ? record.status : undefined;
		if (status !== undefined && job.pendingStatuses.includes(status)) {
			tracked.status = status;
			continue;
		}
		// Gone from the list: finished, failed, or moved to a status the filter hides. The record tells.
		await lookAt(context, connection, job, tracked, 'fetchOne');
	}
}

function timeOut(context: IExecuteFunctions, job: GenerationJob, tracked: Tracked): void {
	const seconds = Math.round(tracked.settings.timeoutMs / 1000);
	if (tracked.settings.onTimeout === 'returnLast') {
		const output: IDataObject = { [job.idField]: tracked.id, status: tracked.status ?? null };
		if (tracked.progress !== undefined) output.progress = tracked.progress;
		output.timed_out = true;
		tracked.result = { outcome: 'timedOut', status: tracked.status ?? 'unknown', output };
		return;
	}
	tracked.result = {
		outcome: 'failed',
		status: tracked.status,
		error: new NodeOperationError(
			context.getNode(),
			`The ${job.noun} ${tracked.id} did not finish within ${seconds} ${seconds === 1 ? 'second' : 'seconds'} (last status: ${describeLast(tracked)})`,
			{
				itemIndex: tracked.itemIndex,
				description: `Nothing is lost: it may still finish. Run "Wait for Completion" later with ${job.idLabel} ${tracked.id}, or raise the Timeout option.`,
			},
		),
	};
}

/**
 * Waits for many jobs together, so the wall time is that of the slowest job rather than the sum.
 * Each round costs one request for a single job, or one list request (per 100 pending) plus one
 * fetch per job that has just left the pending list. Cancelling the execution stops the wait.
 */
export async function waitForAll(
	context: IExecuteFunctions,
	job: GenerationJob,
	targets: WaitTarget[],
	options: { initialDelay: boolean; stopOnFailure: boolean },
): Promise<WaitResult[]> {
	const started = Date.now();
	const jobs: Tracked[] = targets.map((target) => ({
		...target,
		id: target.id.toLowerCase(),
		deadline: started + target.settings.timeoutMs,
	}));
	let pending = jobs;
	// One credential read for the whole wait; its rate-limit headers pace the rounds.
	const connection = await connect(context);
	for (let round = 0; pending.length > 0; round++) {
		if (round > 0 || options.initialDelay) {
			const interval = Math.max(
				Math.min(...pending.map((tracked) => tracked.settings.pollIntervalMs)),
				budgetSpacingMs(connection.rateLimit, connection.previousRateLimit),
			);
			const untilDeadline = Math.min(...pending.map((tracked) => tracked.deadline)) - Date.now();
			await pause(context, Math.max(0, Math.min(interval, untilDeadline)));
		}
		await pollRound(context, connection, job, pending);
		const now = Date.now();
		for (const tracked of pending)
			if (!tracked.result && now >= tracked.deadline) timeOut(context, job, tracked);
		pending = pending.filter((tracked) => !tracked.result);
		if (options.stopOnFailure && jobs.some((tracked) => tracked.result?.outcome === 'failed'))
			break;
	}
	return jobs.map(
		(tracked) =>
			tracked.result ?? { outcome: 'pending', status: tracked.status, progress: tracked.progress },
	);
}

/** One look at a job's record, with its status as text ('unknown' when the answer has none). */
export async function readJob<T extends IDataObject>(
	connection: Connection,
	path: string,
	call: CallOptions,
): Promise<{ data: T; status: string }> {
	const { data } = await request<T>(connection, 'GET', path, call);
	return { data, status: String(data?.status ?? 'unknown') };
}
