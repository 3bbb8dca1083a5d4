/**
 * Change tracking of the ContentGen Trigger, free of I/O.
 *
 * `pollSteps` is a generator: it yields the reads it needs (`TrackerRequest`), is resumed with
 * the answers, and returns the events plus the state to store. The node drives it with the
 * shared transport; tests drive it with an in-memory model of the service. Nothing is stored
 * unless the whole generator finishes, so a poll that fails part-way repeats its window.
 *
 * ARTICLES: the list sorts by updated_at. A poll reads `GET /articles?sort=updated_at&order=desc`
 * page by page until it passes the cursor (the highest updated_at seen, plus the ids seen at
 * exactly that instant, for ties). Previous statuses come from a map of the records seen since
 * activation (non-terminal records first; terminal ones fill what is left of the cap).
 * A changed record missing from the map was created after the cursor (new) or was already
 * finished before the trigger last saw it (cms, needs_editing, failed or archived): its previous
 * status is then unknown (null), so only a change into draft/queued is reported (as a status
 * change); a move between two finished statuses cannot be told apart from an edit and is ignored.
 *
 *   article requests per poll = max(1, ceil(changed / 100)), at most 20 pages; an idle poll is
 *   exactly 1 request. A window longer than 20 pages is finished over the next polls: the cursor
 *   moves to the top and the unread band is resumed from its list position (changes only move
 *   records to the top, so nothing below that position is skipped).
 *
 * SOCIAL: the list has no sort and no guaranteed order, so the tracker never depends on it.
 * It follows every record in a watched status W (draft, queued, generating; plus ready,
 * completed and scheduled when scheduled/published/any-change events are selected) and any
 * record in a status the list filter does not know (`publishing`). Each poll reads the list of
 * every status in W (a list of up to 100 is one request, whatever its order), fetches one by one
 * the followed records that are no longer in their list, and counts all records (no record is
 * ever deleted, so the count only grows by births). Births not found in the watched lists (a
 * record created and finished between two polls) are searched for in the other lists. A record
 * it does not follow, found in a watched list, is reported (previousStatus null) only if that
 * list was read whole at this poll and the last one; lists over 1,000 records are sampled, not
 * followed.
 *
 *   social requests per poll = |W| + sum over W of (extra pages of lists longer than 100, at
 *     most 10 per list) + L (followed records that left the watched lists, incl. `publishing`)
 *     + 1 (count) + (only when a birth skipped the watched lists) D (search pages, <= 10) + 1.
 *   An idle poll is |W| + 1 requests: 4 for finished/failed events, 7 with the others.
 *
 * STATE (JSON, stored in the node's static data): ids are packed to 22 characters and statuses
 * to one letter. Caps: 1,000 articles, 100 tie ids, 1,000 tracked social records, 200 pending
 * births, 100 birth ties; worst case about 55 KB. At a cap the oldest entries are forgotten
 * (finished articles before in-flight ones), and their later changes can go unreported: an
 * article only when it moves back to draft/queued (previousStatus null), social content not
 * until it shows up in a list read whole again.
 */

import { ARTICLE_LIFECYCLE, SOCIAL_LIFECYCLE, SOCIAL_STATUSES } from '../shared/domain/statuses';

export const ARTICLE_EVENTS = [
	'articleCompleted',
	'articleFailed',
	'articleCreated',
	'articleStatusChanged',
] as const;
export const SOCIAL_EVENTS = [
	'socialFinished',
	'socialFailed',
	'socialScheduled',
	'socialPublished',
	'socialStatusChanged',
] as const;
export type ArticleEvent = (typeof ARTICLE_EVENTS)[number];
export type SocialEvent = (typeof SOCIAL_EVENTS)[number];
export type TriggerEvent = ArticleEvent | SocialEvent;

export interface TrackedRecord {
	id: string;
	status: string;
	created_at?: string;
	updated_at?: string;
	[key: string]: unknown;
}

export interface EmittedEvent {
	event: TriggerEvent;
	previousStatus: string | null;
	record: TrackedRecord;
}

/** `articleList` is always sorted by updated_at, newest first. `status` undefined = unfiltered. */
export type TrackerRequest =
	| { kind: 'articleList'; page: number; limit: number; status?: string }
	| { kind: 'socialList'; page: number; limit: number; status?: string }
	| { kind: 'socialRecord'; id: string };

export interface ListResult {
	items: TrackedRecord[];
	total: number;
	hasMore: boolean;
}

/** A list request is answered with a ListResult, a socialRecord with the record or null (404). */
export type TrackerReply = ListResult | TrackedRecord | null;

export interface TrackerConfig {
	events: readonly TriggerEvent[];
	/** Identifies the filters (project, platform): state made under other filters is discarded. */
	scope: string;
	/** Article page size (tests use tiny pages to exercise paging); social lists use 100. */
	articlePageSize?: number;
	maxArticlePages?: number;
}

export interface ArticleState {
	/** Cursor: highest updated_at seen (epoch ms). */
	c: number;
	/** Packed ids seen with updated_at exactly `c`. */
	t: string;
	/** Packed map id -> status code, oldest first. */
	m: string;
	/**
	 * Set while a window too long for one poll is being read: the list position down to which
	 * everything is done, and the cursor (with its ties) of the last window read to its end.
	 */
	r?: { p: number; c: number; t: string };
}

export interface SocialState {
	/** Watched statuses these entries were made for. */
	e: string;
	/**
	 * Watched lists read whole at the last poll (and nothing forgotten at the cap): only there
	 * does a record the tracker does not follow prove a change.
	 */
	f?: string;
	/** Packed map of tracked records id -> status code, oldest first. */
	m: string;
	/** Birth watermark: every record counted in `n` was created at or before `w` (epoch ms). */
	w: number;
	/** Record count when `w` was set. */
	n: number;
	/** Packed ids created exactly at `w` that are already counted. */
	t: string;
	/** Packed ids of births reported since `w` was set. */
	p: string;
}

export interface TrackerState {
	v: 1;
	k: string;
	a?: ArticleState;
	s?: SocialState;
}

export interface PollOutcome {
	events: EmittedEvent[];
	state: TrackerState;
}

export type PollSteps = Generator<TrackerRequest, PollOutcome, TrackerReply>;

export const LIMITS = {
	pageSize: 100,
	maxArticlePages: 20,
	seedPagesPerStatus: 10,
	socialPagesPerList: 10,
	discoveryPages: 10,
	articleMap: 1000,
	articleTies: 100,
	socialMap: 1000,
	pendingBirths: 200,
	birthTies: 100,
} as const;

// ---------------------------------------------------------------------------------------------
// Compact encoding

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PACKED_ID_LENGTH = 22;

/** 16 bytes of a UUID as 22 base64url characters; undefined for anything that is not a UUID. */
export function packId(id: string): string | undefined {
	if (!UUID.test(id)) return undefined;
	const hex = id.replace(/-/g, '');
	const bytes: number[] = [];
	for (let i = 0; i < 32; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
	let out = '';
	for (let i = 0; i < 16; i += 3) {
		const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
		out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
		if (i + 1 < 16) out += ALPHABET[(n >> 6) & 63];
		if (i + 2 < 16) out += ALPHABET[n & 63];
	}
	return out;
}

export function unpackId(packed: string): string {
	const bytes: number[] = [];
	for (let i = 0; i < PACKED_ID_LENGTH; i += 4) {
		const chunk = packed.slice(i, i + 4);
		let n = 0;
		for (let j = 0; j < 4; j++) n = (n << 6) | (j < chunk.length ? ALPHABET.indexOf(chunk[j]) : 0);
		bytes.push((n >> 16) & 255);
		if (chunk.length > 2) bytes.push((n >> 8) & 255);
		if (chunk.length > 3) bytes.push(n & 255);
	}
	const hex = bytes
		.slice(0, 16)
		.map((b) => b.toString(16).padStart(2, '0'))
		.join('');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One letter per status; 'x' stands for a status outside the spec (decoded as unknown). */
const STATUS_CODES: Record<string, string> = {
	draft: 'd',
	queued: 'q',
	cms: 'c',
	needs_editing: 'n',
	failed: 'f',
	archived: 'a',
	generating: 'g',
	ready: 'r',
	completed: 'o',
	scheduled: 's',
	published: 'p',
	publishing: 'u',
};
const CODE_STATUSES: Record<string, string> = Object.fromEntries(
	Object.entries(STATUS_CODES).map(([status, code]) => [code, status]),
);
const OTHER = 'x';

function statusCode(status: string): string {
	return STATUS_CODES[status] ?? OTHER;
}

function codeStatus(code: string): string | null {
	return CODE_STATUSES[code] ?? null;
}

function decodeMap(packed: string | undefined): Map<string, string> {
	const map = new Map<string, string>();
	if (typeof packed !== 'string') return map;
	const width = PACKED_ID_LENGTH + 1;
	for (let i = 0; i + width <= packed.length; i += width) {
		map.set(unpackId(packed.slice(i, i + PACKED_ID_LENGTH)), packed[i + PACKED_ID_LENGTH]);
	}
	return map;
}

function encodeMap(map: Map<string, string>): string {
	let out = '';
	for (const [id, code] of map) out += (packId(id) ?? '') + code;
	return out;
}

function decodeIds(packed: string | undefined): Set<string> {
	const ids = new Set<string>();
	if (typeof packed !== 'string') return ids;
	for (let i = 0; i + PACKED_ID_LENGTH <= packed.length; i += PACKED_ID_LENGTH) {
		ids.add(unpackId(packed.slice(i, i + PACKED_ID_LENGTH)));
	}
	return ids;
}

function encodeIds(ids: Iterable<string>, cap: number): string {
	let out = '';
	let count = 0;
	for (const id of ids) {
		if (count++ >= cap) break;
		out += packId(id) ?? '';
	}
	return out;
}

/** Moves an entry to the newest end, so the oldest entries are the first forgotten. */
function touch(map: Map<string, string>, id: string, code: string): void {
	map.delete(id);
	map.set(id, code);
}

function capMap(map: Map<string, string>, cap: number, keepFirst: (code: string) => boolean): void {
	if (map.size <= cap) return;
	for (const [id, code] of map) {
		if (map.size <= cap) return;
		if (!keepFirst(code)) map.delete(id);
	}
	for (const id of map.keys()) {
		if (map.size <= cap) return;
		map.delete(id);
	}
}

function time(value: unknown): number {
	const parsed = typeof value === 'string' ? Date.parse(value) : NaN;
	return Number.isFinite(parsed) ? parsed : NaN;
}

/** Lower-case canonical id, or undefined when the record cannot be tracked (no UUID). */
function idOf(record: TrackedRecord): string | undefined {
	return typeof record.id === 'string' && UUID.test(record.id)
		? record.id.toLowerCase()
		: undefined;
}

// ---------------------------------------------------------------------------------------------
// Event rules (shared with the manual test event)

const ARTICLE_COMPLETE = new Set<string>(ARTICLE_LIFECYCLE.complete);
const ARTICLE_IN_FLIGHT = new Set<string>(ARTICLE_LIFECYCLE.pending);
const SOCIAL_FINISHED = new Set<string>(SOCIAL_LIFECYCLE.finished);
/** The statuses the social list can filter by. */
const SOCIAL_LIST_STATUSES = new Set<string>(SOCIAL_STATUSES);
const SOCIAL_PRE_FINISH = SOCIAL_LIFECYCLE.pending;
const SOCIAL_POST_FINISH = SOCIAL_LIFECYCLE.publishable;
/** Where a record born and finished between two polls is most likely to be. */
const SOCIAL_SEARCH_ORDER = [
	'completed',
	'ready',
	'failed',
	'published',
	'scheduled',
	'generating',
	'queued',
	'draft',
];

/**
 * Events of one observed change. `previous` undefined = the record is new; null = it existed but
 * its previous status is unknown.
 */
export function articleEventsFor(previous: string | null | undefined, now: string): ArticleEvent[] {
	const events: ArticleEvent[] = [];
	if (previous === undefined) events.push('articleCreated');
	else if (previous !== now) events.push('articleStatusChanged');
	const wasComplete = typeof previous === 'string' && ARTICLE_COMPLETE.has(previous);
	if (ARTICLE_COMPLETE.has(now) && !wasComplete && previous !== now)
		events.push('articleCompleted');
	if (now === 'failed' && previous !== 'failed') events.push('articleFailed');
	return events;
}

export function socialEventsFor(previous: string | null | undefined, now: string): SocialEvent[] {
	if (previous === now) return [];
	const events: SocialEvent[] = [];
	if (previous !== undefined) events.push('socialStatusChanged');
	const wasFinished = typeof previous === 'string' && SOCIAL_FINISHED.has(previous);
	if (SOCIAL_FINISHED.has(now) && !wasFinished) events.push('socialFinished');
	if (now === 'failed') events.push('socialFailed');
	if (now === 'scheduled') events.push('socialScheduled');
	if (now === 'published') events.push('socialPublished');
	return events;
}

/** Statuses whose lists the social tracker reads every poll, for the selected events. */
export function watchedSocialStatuses(events: readonly TriggerEvent[]): string[] {
	const watched: string[] = [...SOCIAL_PRE_FINISH];
	if (
		events.some(
			(e) => e === 'socialScheduled' || e === 'socialPublished' || e === 'socialStatusChanged',
		)
	) {
		watched.push(...SOCIAL_POST_FINISH);
	}
	return watched;
}

function isArticleEvent(event: TriggerEvent): event is ArticleEvent {
	return (ARTICLE_EVENTS as readonly string[]).includes(event);
}

function isSocialEvent(event: TriggerEvent): event is SocialEvent {
	return (SOCIAL_EVENTS as readonly string[]).includes(event);
}

// ---------------------------------------------------------------------------------------------
// The poll

function isTrackerState(value: unknown): value is TrackerState {
	return typeof value === 'object' && value !== null && (value as TrackerState).v === 1;
}

/** Reads the stored state (anything else, e.g. an empty object, means "not activated yet"). */
export function pollSteps(stored: unknown, config: TrackerConfig): PollSteps {
	return run(stored, config);
}

function* run(stored: unknown, config: TrackerConfig): PollSteps {
	const previous = isTrackerState(stored) && stored.k === config.scope ? stored : undefined;
	const state: TrackerState = { v: 1, k: config.scope };
	const events: EmittedEvent[] = [];
	const wanted = new Set(config.events);

	if (config.events.some(isArticleEvent)) {
		const result = yield* pollArticles(previous?.a, config);
		state.a = result.state;
		events.push(...result.events.filter((e) => wanted.has(e.event)));
	}
	if (config.events.some(isSocialEvent)) {
		const result = yield* pollSocial(previous?.s, config);
		state.s = result.state;
		events.push(...result.events.filter((e) => wanted.has(e.event)));
	}
	return { events, state };
}

type Part<S> = Generator<TrackerRequest, { events: EmittedEvent[]; state: S }, TrackerReply>;

function* seedArticles(config: TrackerConfig): Part<ArticleState> {
	const limit = config.articlePageSize ?? LIMITS.pageSize;
	const map = new Map<string, string>();
	for (const status of ['draft', 'queued']) {
		for (let page = 1; page <= LIMITS.seedPagesPerStatus && map.size < LIMITS.articleMap; page++) {
			const result = (yield { kind: 'articleList', page, limit, status }) as ListResult;
			for (const record of result.items) {
				const id = idOf(record);
				if (id) touch(map, id, statusCode(record.status));
			}
			if (!result.hasMore || result.items.length === 0) break;
		}
	}
	// Read last, so a record that moved while the lists were read shows its latest status. Every
	// record at the cursor instant must be known, or the next poll would take it for a new one.
	const newest: TrackedRecord[] = [];
	let cursor = 0;
	const maxPages = config.maxArticlePages ?? LIMITS.maxArticlePages;
	for (let page = 1; page <= maxPages; page++) {
		const result = (yield { kind: 'articleList', page, limit: LIMITS.pageSize }) as ListResult;
		if (page === 1)
			for (const record of result.items) cursor = Math.max(cursor, time(record.updated_at) || 0);
		let passed = false;
		for (const record of result.items) {
			if (time(record.updated_at) < cursor) passed = true;
			if (page === 1 || time(record.updated_at) === cursor) newest.push(record);
		}
		if (passed || !result.hasMore || result.items.length === 0) break;
	}
	const ties: string[] = [];
	for (const record of [...newest].reverse()) {
		const id = idOf(record);
		if (!id) continue;
		touch(map, id, statusCode(record.status));
		if (time(record.updated_at) === cursor) ties.push(id);
	}
	capMap(map, LIMITS.articleMap, (code) => ARTICLE_IN_FLIGHT.has(codeStatus(code) ?? ''));
	return {
		events: [],
		state: { c: cursor, t: encodeIds(ties, LIMITS.articleTies), m: encodeMap(map) },
	};
}

/** Reads the newest-first list from `firstPage` until it passes `below` or the page budget ends. */
function* readWindow(
	firstPage: number,
	below: number,
	maxPages: number,
	limit: number,
	seen: Set<string>,
	window: TrackedRecord[],
): Generator<TrackerRequest, { complete: boolean; lastPage: number }, TrackerReply> {
	let page = firstPage;
	for (let used = 0; used < maxPages; used++, page++) {
		const result = (yield { kind: 'articleList', page, limit }) as ListResult;
		let passed = false;
		for (const record of result.items) {
			if (time(record.updated_at) < below) {
				passed = true;
				break;
			}
			// Records at the cursor instant are read again: a change within the same millisecond
			// keeps updated_at, and only the status comparison can see it.
			const id = idOf(record);
			if (!id || seen.has(id)) continue;
			seen.add(id);
			window.push(record);
		}
		if (passed || !result.hasMore || result.items.length === 0)
			return { complete: true, lastPage: page };
	}
	return { complete: false, lastPage: page - 1 };
}

function* pollArticles(
	previous: ArticleState | undefined,
	config: TrackerConfig,
): Part<ArticleState> {
	if (!previous || typeof previous.c !== 'number') return yield* seedArticles(config);
	const limit = config.articlePageSize ?? LIMITS.pageSize;
	const maxPages = config.maxArticlePages ?? LIMITS.maxArticlePages;
	const map = decodeMap(previous.m);
	const cursor = previous.c;
	const ties = decodeIds(previous.t);
	const resume = previous.r && typeof previous.r.p === 'number' ? previous.r : undefined;
	// Whether a record is new is judged against the last window read to its end.
	const lowCursor = resume ? resume.c : cursor;
	const lowTies = resume ? decodeIds(resume.t) : ties;

	const window: TrackedRecord[] = [];
	const seen = new Set<string>();
	const top = yield* readWindow(1, cursor, maxPages, limit, seen, window);
	const topCount = window.length;
	let nextResume: ArticleState['r'];
	if (!top.complete) {
		// Everything above this position is done; below it, down to the low cursor, is not.
		nextResume = {
			p: top.lastPage * limit,
			c: lowCursor,
			t: encodeIds(lowTies, LIMITS.articleTies),
		};
	} else if (resume) {
		// Records above the resume position then are still above it now (changes only go to
		// the top), so reading from there misses nothing of the unread band.
		const firstPage = Math.floor(resume.p / limit) + 1;
		const band = yield* readWindow(
			firstPage,
			lowCursor,
			maxPages - top.lastPage,
			limit,
			seen,
			window,
		);
		if (!band.complete) nextResume = { p: band.lastPage * limit, c: resume.c, t: resume.t };
	}

	const events: EmittedEvent[] = [];
	const ordered = [...window].sort((a, b) => (time(a.updated_at) || 0) - (time(b.updated_at) || 0));
	for (const record of ordered) {
		const id = idOf(record) as string;
		const known = map.get(id);
		const created = time(record.created_at);
		let previousStatus: string | null | undefined;
		if (known !== undefined) {
			previousStatus = codeStatus(known);
		} else if (time(record.updated_at) === lowCursor && lowTies.has(id)) {
			// Seen at the last poll and forgotten since: nothing to compare with.
			touch(map, id, statusCode(record.status));
			continue;
		} else if (
			created > lowCursor ||
			(created === lowCursor && !lowTies.has(id)) ||
			!Number.isFinite(created)
		) {
			previousStatus = undefined;
		} else {
			// Existed but never seen in flight: it was finished; only a move back in flight is certain.
			previousStatus = null;
		}
		let names = articleEventsFor(previousStatus, record.status);
		if (previousStatus === null) {
			names = ARTICLE_IN_FLIGHT.has(record.status) ? ['articleStatusChanged'] : [];
		} else if (previousStatus !== undefined && previousStatus === record.status) {
			names = [];
		}
		for (const event of names)
			events.push({ event, previousStatus: previousStatus ?? null, record });
		touch(map, id, statusCode(record.status));
	}
	capMap(map, LIMITS.articleMap, (code) => ARTICLE_IN_FLIGHT.has(codeStatus(code) ?? ''));

	let nextCursor = cursor;
	const topRecords = window.slice(0, topCount);
	for (const record of topRecords) nextCursor = Math.max(nextCursor, time(record.updated_at) || 0);
	const nextTies = nextCursor === cursor ? new Set(ties) : new Set<string>();
	for (const record of topRecords) {
		if (time(record.updated_at) === nextCursor) nextTies.add(idOf(record) as string);
	}
	const state: ArticleState = {
		c: nextCursor,
		t: encodeIds(nextTies, LIMITS.articleTies),
		m: encodeMap(map),
	};
	if (nextResume) state.r = nextResume;
	return { events, state };
}

interface ListRead {
	total: number;
	/** Every member was read. */
	complete: boolean;
	/** Too long to read whole within the page budget: only a first page was read. */
	oversized: boolean;
}

/** Every member of one status list, whatever order the pages come in. */
function* readSocialList(
	status: string | undefined,
	limit: number,
	maxPages: number,
	into: Map<string, TrackedRecord>,
	counted: { pages: number },
): Generator<TrackerRequest, ListRead, TrackerReply> {
	const members = new Set<string>();
	let total = 0;
	let totalPages = 1;
	for (let i = 0; i < maxPages; i++) {
		const page = (i % totalPages) + 1;
		const result = (yield { kind: 'socialList', page, limit, status }) as ListResult;
		counted.pages++;
		total = result.total;
		totalPages = Math.max(1, Math.ceil(total / limit));
		for (const record of result.items) {
			const id = idOf(record);
			if (!id) continue;
			members.add(id);
			const earlier = into.get(id);
			if (!earlier || !(time(earlier.updated_at) > time(record.updated_at))) into.set(id, record);
		}
		if (members.size >= total || result.items.length === 0) break;
		if (totalPages > maxPages) return { total, complete: false, oversized: true };
	}
	return { total, complete: members.size >= total, oversized: false };
}

/** The list of every watched status; `complete` has the codes of the lists read whole. */
function* readWatchedLists(
	watched: string[],
	limit: number,
	into: Map<string, TrackedRecord>,
	counted: { pages: number },
): Generator<TrackerRequest, { complete: string; oversized: Set<string> }, TrackerReply> {
	let complete = '';
	const oversized = new Set<string>();
	for (const status of watched) {
		const read = yield* readSocialList(status, limit, LIMITS.socialPagesPerList, into, counted);
		if (read.complete) complete += statusCode(status);
		if (read.oversized) oversized.add(status);
	}
	return { complete, oversized };
}

function* countSocial(): Generator<TrackerRequest, number, TrackerReply> {
	const result = (yield { kind: 'socialList', page: 1, limit: 1 }) as ListResult;
	return result.total;
}

function isTrackedSocial(status: string, watched: Set<string>): boolean {
	// Statuses the list filter does not know (publishing) can only be followed one by one.
	return watched.has(status) || !SOCIAL_LIST_STATUSES.has(status);
}

function* seedSocial(config: TrackerConfig, watched: string[]): Part<SocialState> {
	const limit: number = LIMITS.pageSize;
	const seen = new Map<string, TrackedRecord>();
	const pages = { pages: 0 };
	const { complete, oversized } = yield* readWatchedLists(watched, limit, seen, pages);
	// A sample of everything for the newest creation time (exact up to 100 records), and the count.
	const all = (yield { kind: 'socialList', page: 1, limit: LIMITS.pageSize }) as ListResult;
	const map = new Map<string, string>();
	let watermark = 0;
	for (const record of [...seen.values(), ...all.items]) {
		watermark = Math.max(watermark, time(record.created_at) || 0);
	}
	const watchedSet = new Set(watched);
	for (const record of seen.values()) {
		const id = idOf(record);
		if (id && isTrackedSocial(record.status, watchedSet) && !oversized.has(record.status)) {
			touch(map, id, statusCode(record.status));
		}
	}
	const ties = new Set<string>();
	for (const record of [...seen.values(), ...all.items]) {
		const id = idOf(record);
		if (id && time(record.created_at) === watermark) ties.add(id);
	}
	const capped = map.size > LIMITS.socialMap;
	capMap(map, LIMITS.socialMap, () => false);
	return {
		events: [],
		state: {
			e: watched.map(statusCode).join(''),
			f: capped ? '' : complete,
			m: encodeMap(map),
			w: watermark,
			// Read last, so every record it counts was read before or is newer than the watermark.
			n: all.total,
			t: encodeIds(ties, LIMITS.birthTies),
			p: '',
		},
	};
}

function* pollSocial(previous: SocialState | undefined, config: TrackerConfig): Part<SocialState> {
	const watched = watchedSocialStatuses(config.events);
	const signature = watched.map(statusCode).join('');
	if (!previous || previous.e !== signature || typeof previous.w !== 'number') {
		return yield* seedSocial(config, watched);
	}
	const watchedSet = new Set(watched);
	const limit: number = LIMITS.pageSize;
	const map = decodeMap(previous.m);
	const watermarkTies = decodeIds(previous.t);
	const pending = decodeIds(previous.p);
	const watermark = previous.w;
	const pages = { pages: 0 };

	const listed = new Map<string, TrackedRecord>();
	const { complete, oversized } = yield* readWatchedLists(watched, limit, listed, pages);
	// Lists read whole now and at the last poll: a record in them that is not followed arrived.
	const exact = new Set(
		watched.filter(
			(st) => complete.includes(statusCode(st)) && (previous.f ?? '').includes(statusCode(st)),
		),
	);
	const observed = new Map<string, TrackedRecord>();
	for (const [id, record] of listed) {
		if (watchedSet.has(record.status)) observed.set(id, record);
	}
	const gone = new Set<string>();
	for (const [id, code] of map) {
		if (observed.has(id)) continue;
		// Absent from a list too long to read whole proves nothing, and fetching them all would not scale.
		const status = codeStatus(code);
		if (status !== null && oversized.has(status)) continue;
		const record = (yield { kind: 'socialRecord', id }) as TrackedRecord | null;
		if (record && idOf(record) === id) observed.set(id, record);
		else gone.add(id);
	}

	const isBirth = (id: string, record: TrackedRecord) => {
		const created = time(record.created_at);
		return (
			!map.has(id) &&
			!pending.has(id) &&
			(created > watermark || (created === watermark && !watermarkTies.has(id)))
		);
	};
	const births = new Map<string, TrackedRecord>();
	for (const [id, record] of observed) if (isBirth(id, record)) births.set(id, record);

	let count = yield* countSocial();
	if (pending.size + births.size < count - previous.n) {
		// Some births skipped the watched lists: look in the others, everything first.
		const found = new Map<string, TrackedRecord>();
		let budget = LIMITS.discoveryPages;
		const missing = () => pending.size + births.size < count - previous.n;
		const lists: Array<string | undefined> = [
			undefined,
			...SOCIAL_SEARCH_ORDER.filter((s) => !watchedSet.has(s)),
		];
		for (const status of lists) {
			if (!missing() || budget <= 0) break;
			const used = { pages: 0 };
			yield* readSocialList(status, limit, budget, found, used);
			budget -= used.pages;
			for (const [id, record] of found) {
				if (!observed.has(id) && isBirth(id, record)) {
					births.set(id, record);
					observed.set(id, record);
				}
			}
			if (status === undefined && found.size >= count) break;
		}
		count = yield* countSocial();
	}

	const events: EmittedEvent[] = [];
	const ordered = [...observed.values()].sort(
		(a, b) => (time(a.updated_at) || 0) - (time(b.updated_at) || 0),
	);
	for (const record of ordered) {
		const id = idOf(record) as string;
		const known = map.get(id);
		let previousStatus: string | null | undefined;
		if (known !== undefined) previousStatus = codeStatus(known);
		else if (births.has(id)) previousStatus = undefined;
		else if (exact.has(record.status)) previousStatus = null;
		else {
			// Not followed and not provably new here: start following it without an event.
			if (watchedSet.has(record.status) && !oversized.has(record.status))
				touch(map, id, statusCode(record.status));
			continue;
		}
		// A status outside the spec is stored as 'x': no change is claimed between two of them.
		const unchangedOther = known === OTHER && statusCode(record.status) === OTHER;
		if (!unchangedOther) {
			for (const event of socialEventsFor(previousStatus, record.status)) {
				events.push({ event, previousStatus: previousStatus ?? null, record });
			}
		}
		if (isTrackedSocial(record.status, watchedSet)) touch(map, id, statusCode(record.status));
		else map.delete(id);
	}
	for (const id of gone) map.delete(id);
	const capped = map.size > LIMITS.socialMap;
	capMap(map, LIMITS.socialMap, () => false);
	const f = capped ? '' : complete;

	// Births are reconciled against the count; until every counted birth is found, keep looking.
	const reported = new Set([...pending, ...births.keys()]);
	let state: SocialState;
	if (reported.size >= count - previous.n || reported.size > LIMITS.pendingBirths) {
		let nextWatermark = watermark;
		for (const record of births.values())
			nextWatermark = Math.max(nextWatermark, time(record.created_at) || 0);
		const nextTies = nextWatermark === watermark ? new Set(watermarkTies) : new Set<string>();
		for (const [id, record] of births)
			if (time(record.created_at) === nextWatermark) nextTies.add(id);
		state = {
			e: signature,
			f,
			m: encodeMap(map),
			w: nextWatermark,
			n: count,
			t: encodeIds(nextTies, LIMITS.birthTies),
			p: '',
		};
	} else {
		state = {
			e: signature,
			f,
			m: encodeMap(map),
			w: watermark,
			n: previous.n,
			t: previous.t,
			p: encodeIds(reported, LIMITS.pendingBirths),
		};
	}
	return { events, state };
}

/** Drives the generator with a synchronous answerer (tests, benchmarks). */
export function runPollSync(
	steps: PollSteps,
	answer: (request: TrackerRequest) => TrackerReply,
): PollOutcome {
	let next = steps.next();
	while (!next.done) next = steps.next(answer(next.value));
	return next.value;
}

// ---------------------------------------------------------------------------------------------
// Manual "fetch test event"

/** The most recent record that could have produced one of the events, labelled sensibly. */
export function pickTestEvent(
	records: TrackedRecord[],
	events: readonly TriggerEvent[],
): EmittedEvent | undefined {
	const sorted = [...records].sort((a, b) => (time(b.updated_at) || 0) - (time(a.updated_at) || 0));
	for (const record of sorted) {
		for (const event of events) {
			const fit = testEventFit(event, record.status);
			if (fit !== false) return { event, previousStatus: fit, record };
		}
	}
	return undefined;
}

/** false when the record's status cannot follow that event; else a plausible previous status. */
function testEventFit(event: TriggerEvent, status: string): string | null | false {
	switch (event) {
		case 'articleCompleted':
			return ARTICLE_COMPLETE.has(status) ? 'queued' : false;
		case 'articleFailed':
			return status === 'failed' ? 'queued' : false;
		case 'articleCreated':
			return null;
		case 'socialFinished':
			return SOCIAL_FINISHED.has(status) ? 'generating' : false;
		case 'socialFailed':
			return status === 'failed' ? 'generating' : false;
		case 'socialScheduled':
			return status === 'scheduled' ? null : false;
		case 'socialPublished':
			return status === 'published' ? null : false;
		default:
			return null;
	}
}
