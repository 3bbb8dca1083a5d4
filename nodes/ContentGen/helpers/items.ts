import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { redactSecrets } from '../../shared/transport/redaction';
import { connect, request, type Connection } from '../../shared/transport/request';
import { ValidationError } from '../../shared/validation';
import { callOptions, parallelRequests } from './parameters';

/**
 * The package's own message put back where n8n's error classes replaced it (they do for a message
 * naming a system error code, and quoted words, a title or an id, may hold one by chance).
 */
function keepMessage<E extends Error>(error: E, message: string): E {
	return Object.assign(error, { message });
}

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
function errorItem(
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

/** Charged work: the id each item's request returns, and how the ids are introduced on a stop. */
export interface Charged {
	idField: string;
	label: string;
}

/**
 * The one item runner: each item's outcome in input order, paired, and the run's first failure.
 * "Continue On Fail" turns a failure into that item's error item. Without it, no item starts after
 * a failure, the ones in flight settle, and the error is that of the lowest failing item: the one a
 * run one item at a time would have stopped at; for charged work it names every other item sent.
 */
export class ItemRun {
	private readonly outputs: Array<INodeExecutionData[] | undefined>;
	private readonly continueOnFail: boolean;
	private readonly known = new Map<number, { id: string; status?: string }>();
	/** Items whose charged request went out and may have been processed, with no id back. */
	private readonly unsure = new Set<number>();
	private firstFailure?: { itemIndex: number; error: NodeApiError | NodeOperationError };

	constructor(
		private readonly context: IExecuteFunctions,
		size: number,
		private readonly charged?: Charged,
	) {
		this.outputs = new Array<INodeExecutionData[] | undefined>(size);
		this.continueOnFail = context.continueOnFail();
	}

	get failed(): boolean {
		return this.firstFailure !== undefined;
	}

	remember(itemIndex: number, id: string, status?: string): void {
		this.known.set(itemIndex, { id, status });
	}

	/** The item's charged request went out and may have been processed, but no id came back. */
	sentWithoutId(itemIndex: number): void {
		this.unsure.add(itemIndex);
	}

	/** The results of one input item, paired with it. */
	done(itemIndex: number, result: ItemResult): void {
		const list: Array<IDataObject | INodeExecutionData> = Array.isArray(result) ? result : [result];
		this.outputs[itemIndex] = list.map((entry) =>
			isExecutionData(entry)
				? { ...entry, pairedItem: { item: itemIndex } }
				: { json: entry, pairedItem: { item: itemIndex } },
		);
	}

	/** An item failed: its error item (kept for "Continue On Fail"), and the first failure. */
	fail(itemIndex: number, error: unknown): void {
		if (this.context.getExecutionCancelSignal()?.aborted) throw error;
		const nodeError = toNodeError(this.context, error, itemIndex);
		const item = errorItem(nodeError, itemIndex);
		const own = this.known.get(itemIndex);
		if (own && this.charged) {
			item.json[this.charged.idField] = own.id;
			if (own.status) item.json.status = own.status;
		}
		this.outputs[itemIndex] = [item];
		if (!this.firstFailure || itemIndex < this.firstFailure.itemIndex)
			this.firstFailure = { itemIndex, error: nodeError };
	}

	/** Reads and checks every item before the first request; an item that throws has failed. */
	prepareAll<T>(prepare: (itemIndex: number) => T): Array<T | undefined> {
		const prepared = new Array<T | undefined>(this.outputs.length);
		for (let itemIndex = 0; itemIndex < prepared.length; itemIndex++) {
			try {
				prepared[itemIndex] = prepare(itemIndex);
			} catch (error) {
				this.fail(itemIndex, error);
			}
		}
		return prepared;
	}

	/**
	 * Runs every item, `slots` at once in item order (see `inTurn`); what `run` throws is the item's
	 * failure. Without "Continue On Fail" none starts after a failure.
	 */
	async each(slots: number, run: (itemIndex: number) => Promise<void>): Promise<void> {
		await inTurn(
			this.outputs.length,
			slots,
			async (itemIndex) => {
				try {
					await run(itemIndex);
				} catch (error) {
					this.fail(itemIndex, error);
				}
			},
			() => !this.continueOnFail && this.failed,
		);
	}

	/** Without "Continue On Fail", the first failure stops the run, naming the other items sent. */
	stopIfFailed(): void {
		if (!this.firstFailure || this.continueOnFail) return;
		const { itemIndex, error: nodeError } = this.firstFailure;
		const charged = this.charged;
		if (charged) {
			const others = new Map<number, string>();
			for (const [index, { id, status }] of this.known)
				others.set(index, `${charged.idField} ${id}${status ? ` (${status})` : ''}`);
			for (const index of this.unsure)
				if (!others.has(index))
					others.set(index, `sent, no ${charged.idField} came back (it may have been charged)`);
			others.delete(itemIndex);
			if (others.size > 0) {
				const list = Array.from(others.keys())
					.sort((a, b) => a - b)
					.map((index) => `item ${index}: ${others.get(index)}`)
					.join('; ');
				nodeError.description = `${nodeError.description ? `${nodeError.description}\n\n` : ''}${charged.label}: ${list}.`;
			}
		}
		throw nodeError;
	}

	items(): INodeExecutionData[] {
		const all: INodeExecutionData[] = [];
		for (const output of this.outputs) for (const item of output ?? []) all.push(item);
		return all;
	}
}

/**
 * Runs an operation per item, several items at once (Options > Parallel Requests), within the key's
 * budget. `prepare` reads and checks an item's parameters without sending anything and returns the
 * work that sends its requests.
 */
export async function runPerItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => ItemWork,
): Promise<INodeExecutionData[]> {
	const slots = runSlots(this);
	const connection = sharedConnection(this, slots);
	const run = new ItemRun(this, items.length);
	await run.each(slots, async (itemIndex) => {
		const work = prepare(itemIndex);
		run.done(itemIndex, await work(await connection()));
	});
	run.stopIfFailed();
	return run.items();
}

/**
 * A read: one free GET per item, its record as the service gives it, or as `shapeOf` the item
 * shapes it (its parameters read, like the path's, before anything is sent).
 */
export async function getPerItem(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	pathOf: (itemIndex: number) => string,
	shapeOf?: (itemIndex: number) => (record: IDataObject) => ItemResult | Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(context, items, (itemIndex) => {
		const path = pathOf(itemIndex);
		const shape = shapeOf?.(itemIndex) ?? ((record) => record);
		const call = callOptions(context, itemIndex);
		return async (connection) =>
			await shape((await request<IDataObject>(connection, 'GET', path, call)).data);
	});
}
