import type {
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import type { ItemResult } from '../helpers/items';
import { appendPaired, errorItem, toNodeError } from '../helpers/items';
import type { GenerationJob } from './job';

interface Known {
	id: string;
	status?: string;
}

/**
 * Per-item outcomes of a generate or wait run, in input order, with the ids that must never be
 * lost. `record` only records; `stopIfFailed` is where a run without "Continue On Fail" stops.
 */
export class Batch {
	private readonly outputs: Array<INodeExecutionData[] | undefined>;
	private readonly known = new Map<number, Known>();
	/** Items whose generate went out and may have been processed, with no id back. */
	private readonly unsure = new Set<number>();
	private firstFailure?: { itemIndex: number; error: NodeApiError | NodeOperationError };

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly job: GenerationJob,
		size: number,
		/** How the ids of other items are introduced when the run stops. */
		private readonly knownLabel: string,
	) {
		this.outputs = new Array<INodeExecutionData[] | undefined>(size);
	}

	remember(itemIndex: number, id: string, status?: string): void {
		this.known.set(itemIndex, { id, status });
	}

	/** The item's generate went out and may have been processed (and charged), but no id came back. */
	sentWithoutId(itemIndex: number): void {
		this.unsure.add(itemIndex);
	}

	get failed(): boolean {
		return this.firstFailure !== undefined;
	}

	done(itemIndex: number, result: ItemResult): void {
		const items: INodeExecutionData[] = [];
		appendPaired(items, result, itemIndex);
		this.outputs[itemIndex] = items;
	}

	/** An item failed: its error item (kept for "Continue On Fail"), and the first failure. */
	record(itemIndex: number, error: unknown): void {
		if (this.context.getExecutionCancelSignal()?.aborted) throw error;
		const nodeError = toNodeError(this.context, error, itemIndex);
		const item = errorItem(nodeError, itemIndex);
		const own = this.known.get(itemIndex);
		if (own) {
			item.json[this.job.idField] = own.id;
			if (own.status) item.json.status = own.status;
		}
		this.outputs[itemIndex] = [item];
		if (!this.firstFailure || itemIndex < this.firstFailure.itemIndex) {
			this.firstFailure = { itemIndex, error: nodeError };
		}
	}

	/**
	 * Without "Continue On Fail", the first failure (the lowest item) stops the run, naming every
	 * other item sent: its id, or that none came back.
	 */
	stopIfFailed(): void {
		if (!this.firstFailure || this.context.continueOnFail()) return;
		const { itemIndex, error: nodeError } = this.firstFailure;
		const others = new Map<number, string>();
		for (const [index, { id, status }] of this.known)
			others.set(index, `${this.job.idField} ${id}${status ? ` (${status})` : ''}`);
		for (const index of this.unsure)
			if (!others.has(index))
				others.set(index, `sent, no ${this.job.idField} came back (it may have been charged)`);
		others.delete(itemIndex);
		if (others.size > 0) {
			const list = Array.from(others.keys())
				.sort((a, b) => a - b)
				.map((index) => `item ${index}: ${others.get(index)}`)
				.join('; ');
			nodeError.description = `${nodeError.description ? `${nodeError.description}\n\n` : ''}${this.knownLabel}: ${list}.`;
		}
		throw nodeError;
	}

	items(): INodeExecutionData[] {
		const all: INodeExecutionData[] = [];
		for (const output of this.outputs) for (const item of output ?? []) all.push(item);
		return all;
	}
}
