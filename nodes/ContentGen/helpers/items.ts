import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { keepMessage } from '../../shared/transport/causes';
import { redactSecrets } from '../../shared/transport/errors';
import { connect, request, type Connection } from '../../shared/transport/request';
import { ValidationError } from '../../shared/validation';
import { callOptions, parallelRequests } from './parameters';

/** n8n's way of naming the item a message is about, at its end; added once. */
export function atItem(message: string, itemIndex: number): string {
	return /\[item \d+\]$/.test(message) ? message : `${message} [item ${itemIndex}]`;
}

/**
 * Converts anything thrown while handling an item into the error n8n shows for that item: what
 * happened, with the item's index at the end (`[item 2]`, counted from 0 as n8n counts items), and
 * in the description how to go on.
 */
export function toNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof ValidationError) {
		// The validation's message names the parameter in single quotes already (test/guard/n8n-words.ts).
		const message = atItem(error.message, itemIndex);
		const refusal = new NodeOperationError(context.getNode(), message, {
			itemIndex,
			description: `Change '${error.field}' for this item (its value or its expression) and run the node again. Nothing was sent to the service and no credits were spent.`,
		});
		return keepMessage(refusal, message);
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return keepMessage(error, atItem(error.message, itemIndex));
	}
	const message = atItem(redactSecrets((error as Error).message ?? String(error)), itemIndex);
	return keepMessage(new NodeOperationError(context.getNode(), message, { itemIndex }), message);
}

/** The item n8n shows for a failed item under "Continue On Fail". */
export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

export type ItemResult = IDataObject | IDataObject[] | INodeExecutionData[];

function isExecutionData(value: unknown): value is INodeExecutionData {
	return typeof value === 'object' && value !== null && 'json' in value;
}

/** Appends the results of one input item, paired with it; no spread, so any count fits. */
export function appendPaired(
	output: INodeExecutionData[],
	result: ItemResult,
	itemIndex: number,
): void {
	const list = Array.isArray(result) ? result : [result];
	for (const entry of list) {
		output.push(
			isExecutionData(entry)
				? { ...entry, pairedItem: { item: itemIndex } }
				: { json: entry as IDataObject, pairedItem: { item: itemIndex } },
		);
	}
}

/**
 * Runs `run(0)` .. `run(count - 1)` in index order, at most `slots` at once, starting none once
 * `stopped()` says so or a `run` has thrown; the ones started are left to settle, then the first
 * error thrown (a cancelled execution) is thrown again. Each `run` goes on synchronously up to its
 * first await, so what an item checks before its first request is known before the next starts.
 */
export async function inTurn(
	count: number,
	slots: number,
	run: (index: number) => Promise<void>,
	stopped: () => boolean,
): Promise<void> {
	let next = 0;
	let thrown: { error: unknown } | undefined;
	const lane = async () => {
		while (next < count && !thrown && !stopped()) {
			try {
				await run(next++);
			} catch (error) {
				thrown ??= { error };
			}
		}
	};
	const lanes: Array<Promise<void>> = [];
	for (let i = 0; i < Math.min(slots, count); i++) lanes.push(lane());
	await Promise.all(lanes);
	if (thrown) throw thrown.error;
}

/** Parallel Requests for the run (see `parallelRequests`), refused as n8n shows a refusal. */
export function runSlots(context: IExecuteFunctions): number {
	try {
		return parallelRequests(context);
	} catch (error) {
		throw toNodeError(context, error, 0);
	}
}

/** The run's connection, opened by the first item that needs it; a failed opening is tried again. */
export function sharedConnection(
	context: IExecuteFunctions,
	slots: number,
): () => Promise<Connection> {
	let opening: Promise<Connection> | undefined;
	return async () => {
		opening ??= connect(context, slots).catch(async (error: unknown) => {
			opening = undefined;
			return await Promise.reject(error);
		});
		return await opening;
	};
}

/** The requests of one item, once its parameters are read and checked. */
export type ItemWork = (connection: Connection) => Promise<ItemResult>;

/**
 * Runs an operation per item, several items at once (Options > Parallel Requests), within the key's
 * budget. `prepare` reads and checks an item's parameters without sending anything and returns the
 * work that sends its requests. Output is in input order and paired; "Continue On Fail" works per
 * item. Without it, no item starts after a failure, the ones in flight settle, and the error is
 * that of the lowest failing item: the one a run one item at a time would have stopped at.
 */
export async function runPerItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => ItemWork,
): Promise<INodeExecutionData[]> {
	const slots = runSlots(this);
	const connection = sharedConnection(this, slots);
	const continueOnFail = this.continueOnFail();
	const outputs = new Array<INodeExecutionData[] | undefined>(items.length);
	let failure: { itemIndex: number; error: NodeApiError | NodeOperationError } | undefined;
	const fail = (itemIndex: number, error: unknown) => {
		const nodeError = toNodeError(this, error, itemIndex);
		if (continueOnFail) outputs[itemIndex] = [errorItem(nodeError, itemIndex)];
		else if (!failure || itemIndex < failure.itemIndex) failure = { itemIndex, error: nodeError };
	};
	await inTurn(
		items.length,
		slots,
		async (itemIndex) => {
			let work: ItemWork;
			try {
				work = prepare(itemIndex);
			} catch (error) {
				fail(itemIndex, error);
				return;
			}
			try {
				const open = await connection();
				const output: INodeExecutionData[] = [];
				appendPaired(output, await work(open), itemIndex);
				outputs[itemIndex] = output;
			} catch (error) {
				fail(itemIndex, error);
			}
		},
		() => failure !== undefined,
	);
	if (failure) throw failure.error;
	const all: INodeExecutionData[] = [];
	for (const output of outputs) for (const item of output ?? []) all.push(item);
	return all;
}

/** A plain read: one free GET per item, returned as the service gives it. */
export async function getPerItem(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	pathOf: (itemIndex: number) => string,
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(context, items, (itemIndex) => {
		const path = pathOf(itemIndex);
		const call = callOptions(context, itemIndex);
		return async (connection) => {
			const { data } = await request<IDataObject>(connection, 'GET', path, call);
			return data;
		};
	});
}
