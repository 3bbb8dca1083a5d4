/**
 * The tracker's memory between polls, as its code reads it (named fields). What n8n stores is its
 * encoding (./codec): one-letter keys, packed ids; ../../README.md gives the legend.
 */
import type { RecordMap } from './keys';

/** Entries of a labelled book carry the time of their group: an upper bound of their own. */
export type Bounded = RecordMap<number>;

/** A finished article: its status code and the newest updated_at of the poll that saw it. */
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
	/** Every article in draft or queued, key -> status code. */
	pending: RecordMap<string>;
	/** Finished articles seen, oldest first. */
	seen: RecordMap<Seen>;
	/** A window too long for one poll: its unread band starts at this list position. */
	unread?: { position: number; floor: number };
}

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

export interface NewRecordMemory {
	/** Records counted at the baseline. */
	count: number;
	/** Newest created_at at the baseline, never ahead of the host's clock. */
	newestCreated: number;
	/** Records created within the look-back of the watermark (key -> a bound above its created_at). */
	recent: Bounded;
	/** Births reported since the baseline that are not followed. */
	reported: Bounded;
	/** Births reported since the baseline that are followed (the followed books hold their keys). */
	reportedFollowed: { count: number; newest: number };
	/** Births of the activation read that it may have taken for existing records. */
	uncertain: number;
	/** Set while the whole list is being read to learn the newest record. */
	learning?: Learning;
	/** The count fell: births may hide behind the loss, so a whole pass looks for them. */
	hiddenByLoss?: boolean;
}

export interface SocialMemory {
	/** Status codes of the lists followed. */
	followedLists: string;
	/** Codes of the watched lists whose members were all known at the last poll. */
	completeLists: string;
	/** Each watched list's count when its members were last all accounted for, by status code. */
	listCounts: Record<string, number>;
	/** Records in the followed lists, key -> status code. */
	followed: RecordMap<string>;
	/** Records in a status no list filter accepts (`publishing`), fetched one by one: whole keys. */
	byId: RecordMap<string>;
	/** Followed records that left the watched lists and have not been found yet. */
	missing: RecordMap<string>;
	newRecords: NewRecordMemory;
	/** Next page of the whole list to search, and full passes without finding what was missing. */
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
