/**
 * The tracker's memory between polls, stored as it is (./codec adds the format `v` and the time
 * `t`): plain JSON, records by their whole id, statuses as the service spells them. Every capped
 * map is ordered oldest entry first (JSON keeps the order of keys that are not numbers, as ids are
 * not): past its cap the oldest entries go, and the poll says so.
 */

/** Record id -> its status. */
export type Statuses = Record<string, string>;
/** Record id -> a time at or after the record's own `created_at` (when to forget it). */
export type Bounds = Record<string, number>;

/**
 * The caps, each the most records one map holds (docs/trigger.md, "State", says what they rest
 * on): together they keep the static data that n8n writes after every poll within what it handles.
 */
export const CAPS = {
	/** Articles in flight (draft, queued): each one's completion is reported. */
	pending: 20_000,
	/** Finished articles: a move of one between finished statuses is reported with the status it left. */
	finished: 25_000,
	/** Records of one followed social list, followed one by one (more: the list is not followed). */
	followedList: 20_000,
	/** Social records in `publishing`, read by id each poll (1 request each). */
	byId: 1_000,
	/** Social records reported in `failed`: a new generation of one is reported as leaving it. */
	unfollowed: 20_000,
	/** Records created within the look-back, not to pass for new ones; also those reported new. */
	recent: 10_000,
} as const;

/** Sets `id` at the newest end of `map`. */
export function put<V>(map: Record<string, V>, id: string, value: V): void {
	delete map[id];
	map[id] = value;
}

/** Forgets the oldest entries of `map` past `cap` (once a poll: counting keys takes a walk). */
export function trim(map: object, cap: number): number {
	let over = Object.keys(map).length - cap;
	const dropped = Math.max(0, over);
	for (const key in map) {
		if (over-- <= 0) break;
		delete (map as Record<string, unknown>)[key];
	}
	return dropped;
}

export const size = (map: object): number => Object.keys(map).length;

export interface ArticleMemory {
	/** Newest updated_at accepted, never ahead of the n8n host's clock (epoch ms). */
	cursor: number;
	/** Changes stamped at or after it are (re-)read; everything below is done. */
	floor: number;
	/** Host time of the last poll that read something new: a quiet look-back closes. */
	quietSince: number;
	/** Every article in flight (draft, queued). */
	pending: Statuses;
	/** Finished articles, the one changed longest ago first. */
	finished: Statuses;
	/** Next page of the list to learn finished articles' statuses from (../learn-articles); 0 once learnt. */
	learn: number;
	/** A window too long for one poll: its unread part starts at this list position. */
	unread?: { position: number; floor: number };
}

/** Reading the whole social list once after activation (../social/new-records). */
export interface Learning {
	/** Next page of the whole list to read. */
	page: number;
	/** Newest created_at read so far. */
	newest: number;
	/** Record count when the read started. */
	count: number;
	/** The service's clock at activation: a record created after it is new, not one to learn. */
	since: number;
}

/** What new social records are told apart by (../social/new-records). */
export interface NewRecordMemory {
	/** The whole list's count that new records are counted from. */
	count: number;
	/** The newest created_at counted, never ahead of the host's clock. */
	newestCreated: number;
	/** Records created within the look-back of newestCreated. */
	recent: Bounds;
	/** New records reported since `count` was taken that are not followed. */
	reported: Bounds;
	/** New records reported since then that are followed (the followed map holds them). */
	reportedFollowed: { count: number; newest: number };
	/** New records of the learning read that it may have taken for existing ones. */
	uncertain: number;
	/** Set while the whole list is being read once, to learn newestCreated and `recent`. */
	learning?: Learning;
	/** The count fell: new records may hide behind the loss, so a whole pass looks for them. */
	hiddenByLoss?: boolean;
}

export interface SocialMemory {
	/** The followed lists: the statuses the selected events come from. */
	followedLists: string[];
	/** Those whose members were all remembered at the last poll. */
	completeLists: string[];
	/** Each followed list's count when its members were last all accounted for, by status. */
	listCounts: Record<string, number>;
	/** Records in the followed lists. */
	followed: Statuses;
	/** Records in a status no list filter accepts (`publishing`), read by id. */
	byId: Statuses;
	/** Followed records that left the followed lists and have not been found yet. */
	missing: Statuses;
	/** Records reported in `failed` (not followed): a new generation of one leaves that status. */
	unfollowed: Statuses;
	newRecords: NewRecordMemory;
	/** Next page of the whole list to search, and whole passes in a row that found nothing. */
	searchPage: number;
	passes: number;
	/** Once the list proved not to be newest first, the search stops relying on page 1. */
	notNewestFirst: boolean;
	/** Once its order proved to move between requests, a whole read must fit in one poll. */
	reorders: boolean;
}

/** At Least Once: the changes reported by the last polls (../repeats). */
export interface Journal {
	/** The number of the next poll. */
	poll: number;
	entries: JournalEntry[];
}

export interface JournalEntry {
	/** The poll that first reported it. */
	poll: number;
	kind: 'article' | 'social';
	id: string;
	/** The status it changed to, and its updated_at then (epoch ms, or as the service wrote it). */
	status: string;
	updatedAt: number | string;
	/** The status it left: null when unknown, absent for a new record. */
	previousStatus?: string | null;
}

export interface TrackerMemory {
	/** The filters (`project|platform`) it was made under: another scope's memory is not used. */
	scope: string;
	/** Host time of the last poll that completed (epoch ms). */
	committedAt: number;
	articles?: ArticleMemory;
	social?: SocialMemory;
	journal?: Journal;
}
