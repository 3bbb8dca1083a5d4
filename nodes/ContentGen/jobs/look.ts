import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Connection } from '../../shared/transport/request';
import { toNodeError } from '../helpers/items';
import type { GenerationJob, Observation, WaitTarget } from './job';

export type WaitResult =
	| { outcome: 'finished'; status: string; record: IDataObject }
	/** Timed out with "Return Last": the id with its last known status. */
	| { outcome: 'timedOut'; status: string; output: IDataObject }
	| { outcome: 'failed'; status?: string; error: NodeApiError | NodeOperationError }
	/** Not settled because waiting stopped early for another item's failure. */
	| { outcome: 'pending'; status?: string; progress?: number };

/** A job being waited for, with everything the earlier rounds learnt about it. */
export interface Tracked extends WaitTarget {
	deadline: number;
	status?: string;
	progress?: number;
	/** Page of the pending list it was last seen on, when the list keeps its order. */
	page?: number;
	result?: WaitResult;
}

export function isCancelled(context: IExecuteFunctions): boolean {
	return context.getExecutionCancelSignal()?.aborted === true;
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
			`The service could not generate the ${job.noun} (${job.idField} ${tracked.id})${reason}`,
			{
				itemIndex: tracked.itemIndex,
				description: `The service reports status "${seen.status}" for ${job.idField} ${tracked.id}${reason}. Credits spent on a failed generation are the service's to refund; check your balance before retrying.`,
			},
		),
	};
}

export function failLookup(
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
				description: `${cause.description ? `${cause.description} ` : ''}The generation may still finish: run 'Wait for Completion' later with ${job.idLabel} ${tracked.id}.`,
			},
		),
	};
}

/** One request (two for an article that has just completed, via its status route) about one job. */
export async function lookAt(
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
