/**
 * The tracker's memory between polls, as its code reads it (named fields). What n8n stores is its
 * encoding (./codec): one-letter keys, packed ids; ../../README.md gives the legend.
 */
import type { RecordMap } from './keys';

/**
 * Records with a time bound: each entry's time (created_at or updated_at) is at or before its
 * bound, the newest of the poll that wrote it, so entries are stored grouped by bound.
 */
export type Bounded = RecordMap<number>;

/** A finished article: its status code and the bound of the poll that saw it. */
export interface Seen {
	code: string;
	bound: number;
}

export interface ArticleMemory {
	/** Newest updated_at accepted, never ahead of the n8n host's clock (epoch ms). */
	cursor: number;
	/** Changes stamped at or after it are (re-)read; everything below is done. */
	floor: number;
	/** Host time of the last poll that read something new: a quiet look-back closes. */
	quietSince: number;
	/** Every pending article (draft, queued): key -> status code. */
	pending: RecordMap<string>;
	/** Finished articles seen, oldest first. */
	seen: RecordMap<Seen>;
	/**
	 * Finished articles last changed below the floor, with their status (../learn-articles): keys
	 * of OLD_KEY characters whatever `w` is, at most OLD_MAX, bounds rounded to a day.
	 */
	old?: RecordMap<Seen>;
	/**
	 * Next page of the list to learn finished articles' statuses from (../learn-articles); 0 once
	 * learnt; absent in an earlier build's state (learnt from page 1).
	 */
	learn?: number;
	/** A window too long for one poll: its unread part starts at this list position. */
	unread?: { position: number; floor: number };
}

/** Reading the whole social list once after activation (../social/learning). */
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
	/** Records created within the look-back of newestCreated: key -> a bound of created_at. */
	recent: Bounded;
	/** New records reported since `count` was taken that are not followed. */
	reported: Bounded;
	/** New records reported since then that are followed (the followed map holds their keys). */
	reportedFollowed: { count: number; newest: number };
	/** New records of the learning read that it may have taken for existing ones. */
	uncertain: number;
	/** Set while the whole list is being read once, to learn newestCreated and `recent`. */
	learning?: Learning;
	/** The count fell: new records may hide behind the loss, so a whole pass looks for them. */
	hiddenByLoss?: boolean;
}

export interface SocialMemory {
	/** Status codes of the followed lists. */
	followedLists: string;
	/** Codes of the followed lists whose members were all remembered at the last poll. */
	completeLists: string;
	/** Each followed list's count when its members were last all accounted for, by status code. */
	listCounts: Record<string, number>;
	/** Records in the followed lists: key -> status code. */
	followed: RecordMap<string>;
	/** Records in a status no list filter accepts (`publishing`), fetched by id: whole keys. */
	byId: RecordMap<string>;
	/** Followed records that left the followed lists and have not been found yet. */
	missing: RecordMap<string>;
	newRecords: NewRecordMemory;
	/** Next page of the whole list to search, and whole passes in a row that found nothing. */
	searchPage: number;
	passes: number;
	/** Once the list proved not to be newest first, the search stops relying on page 1. */
	notNewestFirst: boolean;
	/** Once its order proved to move between requests, a whole read must fit in one poll. */
	reorders: boolean;
}

export interface TrackerMemory {
	scope: string;
	/** Host time of the last poll that completed (epoch ms). */
	committedAt: number;
	articles?: ArticleMemory;
	social?: SocialMemory;
}
