import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { connect, type Connection } from '../../shared/transport/request';
import { runSlots } from '../helpers/items';

import { Batch } from './batch';
import type { GenerationJob, WaitTarget } from './job';
import { waitForAll } from './wait';

/** Waits for all targets together, then records each item's output or error. */
export async function finishJobs(
	context: IExecuteFunctions,
	batch: Batch,
	job: GenerationJob,
	targets: WaitTarget[],
	initialDelay: boolean,
	connection?: Connection,
): Promise<void> {
	if (targets.length === 0) return;
	const results = await waitForAll(context, job, targets, {
		initialDelay,
		stopOnFailure: !context.continueOnFail(),
		connection,
	});
	for (let index = 0; index < targets.length; index++) {
		const { itemIndex, id } = targets[index];
		const result = results[index];
		batch.remember(itemIndex, id, result.status);
		if (result.outcome === 'failed') batch.record(itemIndex, result.error);
	}
	batch.stopIfFailed();
	for (let index = 0; index < targets.length; index++) {
		const { itemIndex } = targets[index];
		const result = results[index];
		if (result.outcome === 'finished') {
			try {
				batch.done(itemIndex, await job.shape.call(context, result.record, itemIndex));
			} catch (error) {
				batch.record(itemIndex, error);
				batch.stopIfFailed();
			}
		} else if (result.outcome === 'timedOut') {
			batch.done(itemIndex, result.output);
		}
	}
}

/** Wait for Completion on existing ids: all items are watched together. */
export async function runWait(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	job: GenerationJob,
	/** Reads and validates the id and wait options of one item. */
	prepare: (this: IExecuteFunctions, itemIndex: number) => WaitTarget,
): Promise<INodeExecutionData[]> {
	const slots = runSlots(this);
	const batch = new Batch(this, job, items.length, 'Other records of this run, keep these ids');
	const targets: WaitTarget[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = prepare.call(this, itemIndex);
			targets.push(target);
			batch.remember(itemIndex, target.id);
		} catch (error) {
			batch.record(itemIndex, error);
		}
	}
	batch.stopIfFailed();
	if (targets.length > 0)
		await finishJobs(this, batch, job, targets, false, await connect(this, slots));
	return batch.items();
}
