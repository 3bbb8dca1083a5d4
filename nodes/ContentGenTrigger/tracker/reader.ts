/** The tracker's side of the seam: what it asks the service for, what it is answered, the `Reader`. */
import { PAGE_SIZE_MAX, UUID_PATTERN } from '../../shared/constants';

export interface TrackedRecord {
	id: string;
	status: string;
	created_at?: string;
	updated_at?: string;
	[key: string]: unknown;
}

/**
 * `articleList` is always sorted by updated_at, newest first; `status` undefined = unfiltered.
 * An `optional` read may be declined (answered OUT_OF_TIME) when the poll has no time left: the
 * tracker then leaves that work to the next poll.
 */
export type TrackerRequest =
	| { kind: 'articleList'; page: number; limit: number; status?: string }
	| { kind: 'socialList'; page: number; limit: number; status?: string; optional?: boolean }
	| { kind: 'socialRecord'; id: string; optional?: boolean };

export interface ListResult {
	items: TrackedRecord[];
	total: number;
	hasMore: boolean;
	/** The service's clock when it answered, if it said (epoch ms, at most a minute ahead). */
	serviceTime?: number;
}

export const OUT_OF_TIME = { outOfTime: true } as const;

/** A list read gets a ListResult, a socialRecord the record or null (404). */
export type TrackerReply = ListResult | TrackedRecord | null | typeof OUT_OF_TIME;

/**
 * How the tracker reads the service: the node answers through the transport (../service-reader), tests
 * from an in-memory account (at once, or later).
 */
export type Reader = (request: TrackerRequest) => Promise<TrackerReply> | TrackerReply;

export const PAGE_SIZE = PAGE_SIZE_MAX;

export function isOutOfTime(reply: TrackerReply): reply is typeof OUT_OF_TIME {
	return typeof reply === 'object' && reply !== null && 'outOfTime' in reply;
}

/** Epoch ms of a timestamp field; NaN when absent or unreadable. */
export function time(value: unknown): number {
	return typeof value === 'string' ? Date.parse(value) : NaN;
}

/** The latest readable stamp of `field` among `records`; -Infinity when none has one. */
export function newest(records: TrackedRecord[], field: 'created_at' | 'updated_at'): number {
	let latest = -Infinity;
	for (const record of records) {
		const stamp = time(record[field]);
		if (stamp > latest) latest = stamp;
	}
	return latest;
}

/** The id a record is remembered by (lower case); undefined when it is not a UUID (not tracked). */
export function keyOf(id: unknown): string | undefined {
	return typeof id === 'string' && UUID_PATTERN.test(id) ? id.toLowerCase() : undefined;
}
