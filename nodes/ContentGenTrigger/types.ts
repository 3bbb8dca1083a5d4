/** What the tracker asks for, what it is answered, and what its parts share during one poll. */
import { PAGE_SIZE_MAX } from '../shared/constants';
import type { Previous } from './events';

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

export type Reads<T> = Generator<TrackerRequest, T, TrackerReply>;

/** One observed change of one record. */
export interface Change {
	previous: Previous;
	record: TrackedRecord;
}

export interface PollContext {
	/**
	 * The service's clock as last seen, else the n8n host's (epoch ms; Infinity when unknown):
	 * stamps ahead of it do not move a cursor.
	 */
	now: number;
	/** Host time when the poll started (Infinity when unknown): durations are measured on it. */
	startedAt: number;
	lookBackMs: number;
	articlePageSize: number;
	maxArticlePages: number;
	/** Optional reads (searches, single records) left in this poll. */
	budget: number;
	/** Said once per poll when the trigger is behind or cannot do something. */
	notes: string[];
}

export const PAGE_SIZE = PAGE_SIZE_MAX;

export function isOutOfTime(reply: TrackerReply): reply is typeof OUT_OF_TIME {
	return typeof reply === 'object' && reply !== null && 'outOfTime' in reply;
}

/** Epoch ms of a timestamp field; NaN when absent or unreadable. */
export function time(value: unknown): number {
	return typeof value === 'string' ? Date.parse(value) : NaN;
}
