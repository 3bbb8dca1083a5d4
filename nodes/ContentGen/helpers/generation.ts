import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import type { ApiResponse } from '../../shared/types';
import { validateMinimumBalance } from '../../shared/validation';
import { BalanceFloor, fromHundredths } from './budget';
import type { ItemResult } from './items';
import { errorItem, maxRateLimitWaitMs, pair, readSwitch, toNodeError } from './items';
import type { JobKind, WaitSettings, WaitTarget } from './waiting';
import { readWaitSettings, waitForAll } from './waiting';

/** One validated generate request, ready to send. */
export interface PreparedGeneration {
	body: IDataObject;
	costHundredths: number;
	minimumBalance: number;
	maxRateLimitWaitMs: number;
	/** Present when the item waits for its generation to finish. */
	wait?: WaitSettings;
}

export type Shape = (
	this: IExecuteFunctions,
	record: IDataObject,
	itemIndex: number,
) => Promise<ItemResult>;

export interface GenerateSpec {
	kind: JobKind;
	endpoint: string;
	/** Reads and validates every parameter of one item; throws before anything is sent. */
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedGeneration;
	/** The generate response as output; the credits spent are added to it. */
	present(data: IDataObject): IDataObject;
	/** Output of a finished record. */
	shape: Shape;
}

interface Known {
	id: string;
	status?: string;
}

/** Per-item outcomes of a batch, in input order, with the ids that must never be lost. */
class Batch {
	private readonly outputs: Array<INodeExecutionData[] | undefined>;
	private readonly known = new Map<number, Known>();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly kind: JobKind,
		size: number,
		private readonly knownLabel: string,
	) {
		this.outputs = new Array<INodeExecutionData[] | undefined>(size);
	}

	remember(itemIndex: number, id: string, status?: string): void {
		this.known.set(itemIndex, { id, status });
	}

	done(itemIndex: number, result: ItemResult): void {
		this.outputs[itemIndex] = pair(result, itemIndex);
	}

	/** An error item under "Continue On Fail"; otherwise throws, naming every other id of the run. */
	fail(itemIndex: number, error: unknown): void {
		if (this.context.getExecutionCancelSignal()?.aborted) throw error;
		const nodeError = toNodeError(this.context, error, itemIndex);
		const own = this.known.get(itemIndex);
		if (this.context.continueOnFail()) {
			const item = errorItem(nodeError, itemIndex);
			if (own) {
				item.json[this.kind.idField] = own.id;
				if (own.status) item.json.status = own.status;
			}
			this.outputs[itemIndex] = [item];
			return;
		}
		const others = [...this.known.entries()].filter(([index]) => index !== itemIndex);
		if (others.length > 0) {
			const list = others
				.map(
					([index, { id, status }]) =>
						`item ${index}: ${this.kind.idField} ${id}${status ? ` (${status})` : ''}`,
				)
				.join('; ');
			nodeError.description = `${nodeError.description ? `${nodeError.description}\n\n` : ''}${this.knownLabel}: ${list}.`;
		}
		throw nodeError;
	}

	/** Waits for all targets together, then records each item's output or error. */
	async wait(targets: WaitTarget[], shape: Shape, initialDelay: boolean): Promise<void> {
		if (targets.length === 0) return;
		const results = await waitForAll(this.context, this.kind, targets, {
			initialDelay,
			stopOnFailure: !this.context.continueOnFail(),
		});
		targets.forEach((target, index) => {
			this.remember(target.itemIndex, target.id, results[index].status);
		});
		// Without "Continue On Fail" the first failure (in item order) stops the node.
		const failures = targets
			.map((target, index) => ({ target, result: results[index] }))
			.filter(({ result }) => result.kind === 'failed')
			.sort((a, b) => a.target.itemIndex - b.target.itemIndex);
		if (!this.context.continueOnFail() && failures.length > 0) {
			const first = failures[0];
			if (first.result.kind === 'failed') this.fail(first.target.itemIndex, first.result.error);
		}
		for (let index = 0; index < targets.length; index++) {
			const { itemIndex } = targets[index];
			const result = results[index];
			if (result.kind === 'finished') {
				try {
					this.done(itemIndex, await shape.call(this.context, result.record, itemIndex));
				} catch (error) {
					this.fail(itemIndex, error);
				}
			} else if (result.kind === 'timedOut') {
				this.done(itemIndex, result.output);
			} else if (result.kind === 'failed') {
				this.fail(itemIndex, result.error);
			}
		}
	}

	items(): INodeExecutionData[] {
		return this.outputs.flatMap((output) => output ?? []);
	}
}

/**
 * Generate for every item: validate all, check the balance floor for all, submit all, then wait
 * for the submitted jobs together. Nothing is spent on an item whose parameters are invalid, and
 * without "Continue On Fail" nothing at all is spent when any item is invalid.
 */
export async function runGenerate(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	spec: GenerateSpec,
): Promise<INodeExecutionData[]> {
	const batch = new Batch(
		this,
		spec.kind,
		items.length,
		'Generations already submitted (and charged) in this run, keep these ids',
	);
	const prepared = new Array<PreparedGeneration | undefined>(items.length);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			prepared[itemIndex] = spec.prepare.call(this, itemIndex);
		} catch (error) {
			batch.fail(itemIndex, error);
		}
	}

	const floor = new BalanceFloor(this, `${spec.kind.noun} generation`);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const item = prepared[itemIndex];
		if (!item) continue;
		try {
			await floor.reserve(itemIndex, item.costHundredths, item.minimumBalance);
		} catch (error) {
			prepared[itemIndex] = undefined;
			batch.fail(itemIndex, error);
		}
	}

	const targets: WaitTarget[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const item = prepared[itemIndex];
		if (!item) continue;
		try {
			// The transport never re-sends a POST that may have reached the service.
			const response = await apiRequest.call<
				IExecuteFunctions,
				[
					'POST',
					string,
					{ body: IDataObject; cost: number; maxRateLimitWaitMs: number; itemIndex: number },
				],
				Promise<ApiResponse<IDataObject>>
			>(this, 'POST', spec.endpoint, {
				body: item.body,
				cost: fromHundredths(item.costHundredths),
				maxRateLimitWaitMs: item.maxRateLimitWaitMs,
				itemIndex,
			});
			const data = response.data ?? {};
			const output = spec.present(data);
			output.credits_spent = fromHundredths(item.costHundredths);
			const id = requireJobId(this, data, spec.kind.idField, spec.kind.noun);
			batch.remember(itemIndex, id, typeof output.status === 'string' ? output.status : undefined);
			if (item.wait) targets.push({ itemIndex, id, settings: item.wait });
			else batch.done(itemIndex, output);
		} catch (error) {
			batch.fail(itemIndex, error);
		}
	}

	await batch.wait(targets, spec.shape, true);
	return batch.items();
}

export interface WaitSpec {
	kind: JobKind;
	/** Reads and validates the id and wait options of one item. */
	prepare(this: IExecuteFunctions, itemIndex: number): WaitTarget;
	shape: Shape;
}

/** Wait for Completion on existing ids: all items are watched together. */
export async function runWait(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	spec: WaitSpec,
): Promise<INodeExecutionData[]> {
	const batch = new Batch(
		this,
		spec.kind,
		items.length,
		'Other records of this run, keep these ids',
	);
	const targets: WaitTarget[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const target = spec.prepare.call(this, itemIndex);
			targets.push(target);
			batch.remember(itemIndex, target.id);
		} catch (error) {
			batch.fail(itemIndex, error);
		}
	}
	await batch.wait(targets, spec.shape, false);
	return batch.items();
}

/** A generate request with the parameters every Generate has, once its own body is validated. */
export function prepareGeneration(
	context: IExecuteFunctions,
	itemIndex: number,
	kind: 'article' | 'social',
	body: IDataObject,
	costHundredths: number,
): PreparedGeneration {
	const wait = readSwitch(context, 'waitForCompletion', itemIndex);
	return {
		body,
		costHundredths,
		minimumBalance: validateMinimumBalance(
			context.getNodeParameter('options.minimumBalance', itemIndex, 0),
		),
		maxRateLimitWaitMs: maxRateLimitWaitMs(context, itemIndex),
		wait: wait ? readWaitSettings(context, itemIndex, kind) : undefined,
	};
}

/** The id a generate response carries; the job is charged, so a missing id is spelled out. */
function requireJobId(
	context: IExecuteFunctions,
	data: IDataObject,
	field: string,
	noun: string,
): string {
	const id = data[field];
	if (typeof id !== 'string' || id === '') {
		throw new NodeOperationError(
			context.getNode(),
			`The service accepted the ${noun} but returned no ${field}`,
			{
				description: `The generation was probably started and charged. Find it with Get Many. Response: ${JSON.stringify(data).slice(0, 500)}`,
			},
		);
	}
	return id.toLowerCase();
}
