import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { connect, type Connection } from '../../shared/transport/request';
import { ItemRun, runSlots } from '../helpers/items';

import type { GenerationJob, WaitTarget } from './job';
import { waitForAll } from './wait';

/** Waits for all targets together, then records each item's output or error. */
export async function finishJobs(
	context: IExecuteFunctions,
	run: ItemRun,
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
		run.remember(itemIndex, id, result.status);
		if (result.outcome === 'failed') run.fail(itemIndex, result.error);
	}
	run.stopIfFailed();
	for (let index = 0; index < targets.length; index++) {
		const { itemIndex } = targets[index];
		const result = results[index];
		if (result.outcome === 'finished') {
			try {
				run.done(itemIndex, await job.shape.call(context, result.record, itemIndex));
			} catch (error) {
				run.fail(itemIndex, error);
				run.stopIfFailed();
			}
		} else if (result.outcome === 'timedOut') {
			run.done(itemIndex, result.output);
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
	const run = new ItemRun(this, items.length, {
		idField: job.idField,
		label: 'Other records of this run, keep these ids',
	});
	const targets: WaitTarget[] = [];
	for (const target of run.prepareAll((itemIndex) => {
		const prepared = prepare.call(this, itemIndex);
		// Remembered at once: a later invalid item's error names it.
		run.remember(itemIndex, prepared.id);
		return prepared;
	}))
		if (target) targets.push(target);
	run.stopIfFailed();
	if (targets.length > 0)
		await finishJobs(this, run, job, targets, false, await connect(this, slots));
	return run.items();
}
