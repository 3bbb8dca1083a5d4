import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { UUID_PATTERN } from '../../shared/constants';
import { mayHaveBeenProcessed, type Explain } from '../../shared/transport/refusals';
import { request } from '../../shared/transport/request';
import { validateMinimumBalance } from '../../shared/validation';
import { BalanceFloor, fromHundredths } from '../helpers/budget';
import { ItemRun, runSlots, sharedConnection } from '../helpers/items';
import {
	callOptions,
	readSwitch,
	readWaitSettings,
	type WaitSettings,
} from '../helpers/parameters';
import { readOutput } from '../helpers/output';
import type { Product } from '../helpers/properties';
import { finishJobs } from './finish';
import type { GenerationJob, WaitTarget } from './job';

/** One validated generate request, ready to send. */
interface PreparedGeneration {
	body: IDataObject;
	costHundredths: number;
	minimumBalance: number;
	call: ReturnType<typeof callOptions>;
	/** Present when the item waits for its generation to finish. */
	wait?: WaitSettings;
}

interface GenerateSpec {
	job: GenerationJob;
	endpoint: string;
	/** Reads and validates every parameter of one item; throws before anything is sent. */
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedGeneration;
	/** The generate response as output; the credits spent are added to it. */
	present(data: IDataObject): IDataObject;
	/** Wording of this generate's 402 (and other statuses only it can explain). */
	explain?: (costHundredths: number) => Explain;
}

/**
 * Generate for every item: validate all, check the balance floor for all, submit all, then wait
 * for the submitted jobs together. Nothing is spent on an item whose parameters are invalid, and
 * without "Continue On Fail" nothing at all is spent when any item is invalid. Submissions go
 * several at once (Parallel Requests): never more
 * charged requests in flight than that, none started after a failure without "Continue On Fail",
 * and the error names every item already sent.
 */
export async function runGenerate(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	spec: GenerateSpec,
): Promise<INodeExecutionData[]> {
	const slots = runSlots(this);
	const run = new ItemRun(this, items.length, {
		idField: spec.job.idField,
		label: 'Generations already submitted (and charged) in this run, keep these ids',
	});
	const prepared = run.prepareAll((itemIndex) => spec.prepare.call(this, itemIndex));
	run.stopIfFailed();

	const floor = new BalanceFloor(this, `${spec.job.noun} generation`);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const item = prepared[itemIndex];
		if (!item) continue;
		try {
			await floor.reserve(itemIndex, item.costHundredths, item.minimumBalance);
		} catch (error) {
			prepared[itemIndex] = undefined;
			run.fail(itemIndex, error);
		}
	}
	run.stopIfFailed();

	const targets: WaitTarget[] = [];
	const connection = sharedConnection(this, slots);
	await run.each(slots, async (itemIndex) => {
		const item = prepared[itemIndex];
		if (!item) return;
		let answered = false;
		try {
			const open = await connection();
			// The transport never re-sends a POST that may have reached the service.
			const { data } = await request<IDataObject>(open, 'POST', spec.endpoint, {
				...item.call,
				body: item.body,
				explain: spec.explain?.(item.costHundredths),
			});
			answered = true;
			const output = spec.present(data ?? {});
			output.credits_spent = fromHundredths(item.costHundredths);
			const id = requireJobId(this, data ?? {}, spec.job, itemIndex);
			const status = typeof output.status === 'string' ? output.status : undefined;
			run.remember(itemIndex, id, status);
			if (item.wait) targets.push({ itemIndex, id, settings: item.wait });
			else run.done(itemIndex, output);
		} catch (error) {
			if (answered || mayHaveBeenProcessed(error)) run.sentWithoutId(itemIndex);
			run.fail(itemIndex, error);
		}
	});
	run.stopIfFailed();

	targets.sort((a, b) => a.itemIndex - b.itemIndex);
	if (targets.length > 0) await finishJobs(this, run, spec.job, targets, true, await connection());
	return run.items();
}

/** A generate request with the parameters every Generate has, once its own body is validated. */
export function prepareGeneration(
	context: IExecuteFunctions,
	itemIndex: number,
	product: Product,
	body: IDataObject,
	costHundredths: number,
): PreparedGeneration {
	const wait = readSwitch(context, 'waitForCompletion', itemIndex);
	// Output shapes the finished record, after the charge: a bad one is refused now instead.
	if (wait) readOutput(context, itemIndex);
	return {
		body,
		costHundredths,
		minimumBalance: validateMinimumBalance(
			context.getNodeParameter('options.minimumBalance', itemIndex, 0),
		),
		call: callOptions(context, itemIndex),
		wait: wait ? readWaitSettings(context, itemIndex, product) : undefined,
	};
}

/** The id a generate response carries; the job is charged, so a missing or odd id is spelled out. */
function requireJobId(
	context: IExecuteFunctions,
	data: IDataObject,
	job: GenerationJob,
	itemIndex: number,
): string {
	const id = data[job.idField];
	if (typeof id === 'string' && UUID_PATTERN.test(id)) return id.toLowerCase();
	const shown = typeof id === 'string' && id !== '' ? `"${id.slice(0, 100)}", not a UUID` : 'none';
	throw new NodeOperationError(
		context.getNode(),
		`The service accepted the ${job.noun} but returned an unusable ${job.idField} (${shown})`,
		{
			itemIndex,
			description: `The generation was probably started and charged: do not run this again blindly. Find it with Get Many. Response: ${JSON.stringify(data).slice(0, 500)}`,
		},
	);
}
