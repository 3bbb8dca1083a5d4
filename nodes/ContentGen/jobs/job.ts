import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { request, type CallOptions, type Connection } from '../../shared/transport/request';
import type { ItemResult } from '../helpers/items';
import type { WaitSettings } from '../helpers/parameters';

/** What one look at a job says. */
export type Observation =
	| { state: 'pending'; status: string; progress?: number }
	| { state: 'finished'; status: string; record: IDataObject }
	| { state: 'failed'; status: string; reason?: string };

/** The item's output for a finished record, as its Output and Options ask. */
export type Shape = (
	this: IExecuteFunctions,
	record: IDataObject,
	itemIndex: number,
) => Promise<ItemResult>;

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
	/**
	 * Whether the list keeps its records in a stable order (newest first), so a job is found again
	 * on the page it was last seen on. Without it only the list's size says what a walk costs.
	 */
	listOrdered: boolean;
	pendingStatuses: readonly string[];
	/** The cheapest look at one job (one request while it is pending). */
	pollOne(connection: Connection, id: string, call: CallOptions): Promise<Observation>;
	/** The full record, in one request whether the job is pending or done. */
	fetchOne(connection: Connection, id: string, call: CallOptions): Promise<Observation>;
	shape: Shape;
}

export interface WaitTarget {
	itemIndex: number;
	id: string;
	settings: WaitSettings;
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
