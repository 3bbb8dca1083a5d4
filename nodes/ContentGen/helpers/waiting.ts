import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { WAIT } from '../../shared/constants';
import type { OnTimeout } from '../../shared/constants';
import { apiRequest, iteratePages, pause } from '../../shared/transport';
import type { Page } from '../../shared/transport';
import { validateOnTimeout, validatePollInterval, validateTimeout } from '../../shared/validation';
import { maxRateLimitWaitMs, toNodeError } from './items';

export interface WaitSettings {
	pollIntervalMs: number;
	timeoutMs: number;
	onTimeout: OnTimeout;
	maxRateLimitWaitMs: number;
}

/** What one look at a job says. */
export type Observation =
	| { state: 'pending'; status: string; progress?: number }
	| { state: 'finished'; status: string; record: IDataObject }
	| { state: 'failed'; status: string; reason?: string };

export interface PollOptions {
	itemIndex: number;
	maxRateLimitWaitMs: number;
}

/** How to watch one kind of generation job. */
export interface JobKind {
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
	pollOne(context: IExecuteFunctions, id: string, options: PollOptions): Promise<Observation>;
	/** The full record of a job that has left the pending list. */
	fetchOne(context: IExecuteFunctions, id: string, options: PollOptions): Promise<Observation>;
}

/** One look at a job's record, with its status as text ('unknown' when the answer has none). */
export async function readJob<T extends IDataObject>(
	context: IExecuteFunctions,
	path: string,
	options: PollOptions,
): Promise<{ data: T; status: string }> {
	const { data } = await apiRequest.call<
		IExecuteFunctions,
		['GET', string, PollOptions],
		Promise<{ data: T }>
	>(context, 'GET', path, options);
	return { data, status: String(data?.status ?? 'unknown') };
}

export interface WaitTarget {
	itemIndex: number;
	id: string;
	settings: WaitSettings;
}

export type WaitResult =
	| { kind: 'finished'; status: string; record: IDataObject }
	/** Timed out with "Return Last": the id with its last known status. */
	| { kind: 'timedOut'; status: string; output: IDataObject }
	| { kind: 'failed'; status?: string; error: NodeApiError | NodeOperationError }
	/** Not settled because waiting stopped early for another item's failure. */
	| { kind: 'pending'; status?: string; progress?: number };

export interface WaitRunOptions {
	/** Sleep one interval before the first look (a job submitted a moment ago is not done). */
	initialDelay: boolean;
	/** Stop as soon as any job fails, leaving the rest pending (used without "Continue On Fail"). */
	stopOnFailure: boolean;
}

function pollIntervalOf(kind: 'article' | 'social'): number {
	return WAIT[kind].pollInterval;
}

function timeoutOf(kind: 'article' | 'social'): number {
	return WAIT[kind].timeout;
}

/** The wait options of an operation (inside its Options collection). */
export function waitOptions(
	kind: 'article' | 'social',
	showWhenWaiting: boolean,
): INodeProperties[] {
	const pollIntervalDefault = pollIntervalOf(kind);
	const timeoutDefault = timeoutOf(kind);
	const show = showWhenWaiting
		? { displayOptions: { show: { '/waitForCompletion': [true] } } }
		: {};
	const cadence =
		kind === 'article'
			? 'an article usually takes a few minutes'
			: 'social content usually takes under a minute';
	return [
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: WAIT.pollInterval.min, maxValue: WAIT.pollInterval.max },
			default: pollIntervalDefault,
			description: `How often to check on the generation while waiting (${cadence}). Checks are free; with many items one request checks up to 100 at once.`,
			...show,
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: WAIT.timeout.min, maxValue: WAIT.timeout.max },
			default: timeoutDefault,
			description:
				'How long to wait for the generation to finish before giving up (see On Timeout)',
			...show,
		},
		{
			displayName: 'On Timeout',
			name: 'onTimeout',
			type: 'options',
			options: [
				{
					name: 'Return Last Known Status',
					value: 'returnLast',
					description:
						'Output the ID with its last known status and timed_out: true, to wait again later',
				},
				{
					name: 'Fail',
					value: 'fail',
					description: 'Fail the item; the error still names the ID and its last status',
				},
			],
			default: 'returnLast',
			description: 'What to do when the generation has not finished within the timeout',
			...show,
		},
	];
}

export function readWaitSettings(
	context: IExecuteFunctions,
	itemIndex: number,
	kind: 'article' | 'social',
): WaitSettings {
	const defaults = WAIT[kind];
	return {
		pollIntervalMs:
			validatePollInterval(
				context.getNodeParameter('options.pollInterval', itemIndex, defaults.pollInterval),
			) * 1000,
		timeoutMs:
			validateTimeout(context.getNodeParameter('options.timeout', itemIndex, defaults.timeout)) *
			1000,
		onTimeout: validateOnTimeout(
			context.getNodeParameter('options.onTimeout', itemIndex, 'returnLast'),
		),
		maxRateLimitWaitMs: maxRateLimitWaitMs(context, itemIndex),
	};
}

function isCancelled(context: IExecuteFunctions): boolean {
	return context.getExecutionCancelSignal()?.aborted === true;
}

interface Tracked extends WaitTarget {
	deadline: number;
	status?: string;
	progress?: number;
	result?: WaitResult;
}

function describeLast(job: Tracked): string {
	if (!job.status) return 'not seen yet';
	return job.progress === undefined ? job.status : `${job.status}, ${job.progress}%`;
}

function settle(
	context: IExecuteFunctions,
	kind: JobKind,
	job: Tracked,
	observation: Observation,
): void {
	job.status = observation.status;
	if (observation.state === 'pending') {
		job.progress = observation.progress ?? job.progress;
		return;
	}
	if (observation.state === 'finished') {
		job.result = { kind: 'finished', status: observation.status, record: observation.record };
		return;
	}
	const reason = observation.reason ? `: ${observation.reason}` : '';
	job.result = {
		kind: 'failed',
		status: observation.status,
		error: new NodeOperationError(
			context.getNode(),
			`The ${kind.noun} generation failed (${kind.idField} ${job.id})${reason}`,
			{
				itemIndex: job.itemIndex,
				description: `The service reports status "${observation.status}" for ${kind.idField} ${job.id}${reason}. Credits spent on a failed generation are the service's to refund; check your balance before retrying.`,
			},
		),
	};
}

function failLookup(context: IExecuteFunctions, kind: JobKind, job: Tracked, error: unknown): void {
	const cause = toNodeError(context, error, job.itemIndex);
	const message = `Could not check on ${kind.noun} ${job.id}: ${cause.message}`;
	const description = `${cause.description ? `${cause.description} ` : ''}The generation may still finish: run "Wait for Completion" later with ${kind.idLabel} ${job.id}.`;
	// A fresh error per job: one failed list request must not share one error object between items.
	job.result = {
		kind: 'failed',
		status: job.status,
		error: new NodeOperationError(context.getNode(), message, {
			itemIndex: job.itemIndex,
			description,
		}),
	};
}

async function lookAt(
	context: IExecuteFunctions,
	kind: JobKind,
	job: Tracked,
	look: 'pollOne' | 'fetchOne',
): Promise<void> {
	try {
		const options = {
			itemIndex: job.itemIndex,
			maxRateLimitWaitMs: job.settings.maxRateLimitWaitMs,
		};
		settle(context, kind, job, await kind[look](context, job.id, options));
	} catch (error) {
		if (isCancelled(context)) throw toNodeError(context, error, job.itemIndex);
		failLookup(context, kind, job, error);
	}
}

/** Pages through the filtered list until every wanted id has been seen (or the list ends). */
async function listPending(
	context: IExecuteFunctions,
	kind: JobKind,
	jobs: Tracked[],
): Promise<Map<string, IDataObject>> {
	const wanted = new Set(jobs.map((job) => job.id));
	const found = new Map<string, IDataObject>();
	const maxWait = Math.max(...jobs.map((job) => job.settings.maxRateLimitWaitMs));
	const pages = iteratePages.call<
		IExecuteFunctions,
		[string, IDataObject, number, { maxRateLimitWaitMs: number }],
		AsyncGenerator<Page<IDataObject>>
	>(context, kind.listEndpoint, { status: kind.listStatus }, 100, { maxRateLimitWaitMs: maxWait });
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
	kind: JobKind,
	jobs: Tracked[],
): Promise<void> {
	if (jobs.length === 1) {
		await lookAt(context, kind, jobs[0], 'pollOne');
		return;
	}
	let listed: Map<string, IDataObject>;
	try {
		listed = await listPending(context, kind, jobs);
	} catch (error) {
		if (isCancelled(context)) throw toNodeError(context, error, jobs[0].itemIndex);
		for (const job of jobs) failLookup(context, kind, job, error);
		return;
	}
	for (const job of jobs) {
		const record = listed.get(job.id);
		const status = typeof record?.status === 'string' ? record.status : undefined;
		if (status !== undefined && kind.pendingStatuses.includes(status)) {
			job.status = status;
			continue;
		}
		// Gone from the list: finished, failed, or moved to a status the filter hides. The record tells.
		await lookAt(context, kind, job, 'fetchOne');
	}
}

function timeOut(context: IExecuteFunctions, kind: JobKind, job: Tracked): void {
	const seconds = Math.round(job.settings.timeoutMs / 1000);
	if (job.settings.onTimeout === 'returnLast') {
		const output: IDataObject = { [kind.idField]: job.id, status: job.status ?? null };
		if (job.progress !== undefined) output.progress = job.progress;
		output.timed_out = true;
		job.result = { kind: 'timedOut', status: job.status ?? 'unknown', output };
		return;
	}
	job.result = {
		kind: 'failed',
		status: job.status,
		error: new NodeOperationError(
			context.getNode(),
			`The ${kind.noun} ${job.id} did not finish within ${seconds} seconds (last status: ${describeLast(job)})`,
			{
				itemIndex: job.itemIndex,
				description: `Nothing is lost: it may still finish. Run "Wait for Completion" later with ${kind.idLabel} ${job.id}, or raise the Timeout option.`,
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
	kind: JobKind,
	targets: WaitTarget[],
	options: WaitRunOptions,
): Promise<WaitResult[]> {
	const started = Date.now();
	const jobs: Tracked[] = targets.map((target) => ({
		...target,
		id: target.id.toLowerCase(),
		deadline: started + target.settings.timeoutMs,
	}));
	let pending = jobs;
	for (let round = 0; pending.length > 0; round++) {
		if (round > 0 || options.initialDelay) {
			const interval = Math.min(...pending.map((job) => job.settings.pollIntervalMs));
			const untilDeadline = Math.min(...pending.map((job) => job.deadline)) - Date.now();
			await pause(context, Math.max(0, Math.min(interval, untilDeadline)));
		}
		await pollRound(context, kind, pending);
		const now = Date.now();
		for (const job of pending) if (!job.result && now >= job.deadline) timeOut(context, kind, job);
		pending = pending.filter((job) => !job.result);
		if (options.stopOnFailure && jobs.some((job) => job.result?.kind === 'failed')) break;
	}
	return jobs.map(
		(job) => job.result ?? { kind: 'pending', status: job.status, progress: job.progress },
	);
}
