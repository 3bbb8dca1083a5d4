/**
 * Change tracking of the ContentGen Trigger, free of I/O.
 *
 * `pollSteps` is a generator: it yields the reads it needs (TrackerRequest), is resumed with the
 * answers, and returns one item per observed transition plus the state to store. The node
 * answers through the transport (./reads); tests answer from an in-memory model of the service.
 * Nothing is stored unless the whole generator finishes, so a poll that fails part-way repeats
 * its window. Articles: ./articles; social content: ./social, ./births (new records), ./census
 * (the first whole read) and ./lists (reading a list whole); the stored form and its size:
 * ./state, ./ids and ./capacity; states of other builds: ./stored and ./format1; the events and
 * their items: ./events, ./items and ./event-id; starting again without losing changes: ./starts
 * and ./catchup; at-least-once delivery: ./replay; the node's side: ./reads (the transport) and
 * ./schedule (the time to the next poll). The trigger's own words and the API's: ./GLOSSARY.md.
 */
import { pollArticles } from './articles';
import { fit } from './capacity';
import { catchUp } from './catchup';
import { definition, eventsOfKind, type TriggerEvent } from './events';
import { eventIdOf } from './event-id';
import { keyOf } from './ids';
import { itemsOf, type EmittedItem } from './items';
import { decodeJournal, encodeJournal, nextJournal, repeats, type Delivery } from './replay';
import { pollSocial } from './social';
import { encode, type TrackerMemory } from './state';
import { readStored, type Stored } from './stored';
import {
	PAGE_SIZE,
	time,
	type ListResult,
	type PollContext,
	type Reads,
	type TrackedRecord,
	type TrackerReply,
	type TrackerRequest,
} from './types';

export type { ListResult, TrackedRecord, TrackerReply, TrackerRequest } from './types';
export type { TriggerEvent } from './events';
export type { EmittedItem } from './items';

const DEFAULTS = {
	/** How far below the newest change a poll reads again, for writers whose clocks are behind. */
	lookBackMs: 5 * 60_000,
	maxArticlePages: 60,
	/** Optional reads per poll: the social search and single records. */
	requestBudget: 30,
};

export interface TrackerConfig {
	events: readonly TriggerEvent[];
	/** Identifies the filters (project, platform): state made under other filters is discarded. */
	scope: string;
	/** The n8n host's clock (epoch ms): no cursor moves past it, unless the service tells its own. */
	now?: number;
	lookBackMs?: number;
	/** Article page size (tests use tiny pages to exercise paging); social lists use 100. */
	articlePageSize?: number;
	maxArticlePages?: number;
	requestBudget?: number;
	/** Exactly once (the default), or at least once with repeats (./replay). */
	delivery?: Delivery;
	/**
	 * When nothing is stored although the trigger started from nothing at this time (host ms): the
	 * changes since are reported (./starts, ./catchup).
	 */
	lostStart?: number;
}

/** What the trigger could not finish in this poll: it continues at the next ones. */
export interface Lag {
	behind: boolean;
	/** Followed social records that left their list and were not found again yet. */
	missing: number;
	/** New social records counted but not found yet. */
	births: number;
	/** Still reading the whole social list once, after activation. */
	learning: boolean;
	/** An article window longer than one poll is being read. */
	articles: boolean;
	notes: string[];
}

export interface PollOutcome {
	items: EmittedItem[];
	state: Record<string, unknown>;
	lag: Lag;
	/** What was stored before this poll, as this build read it. */
	stored: Stored;
	/** This poll took a new starting point (nothing usable was stored). */
	started: boolean;
	/** The changes since this time were reported as well; `short`: what could not be read. */
	caughtUp?: { from: number; short: string[] };
}

export type PollSteps = Generator<TrackerRequest, PollOutcome, TrackerReply>;

/**
 * Passes a part's reads on, keeping `ctx.now` at the service's clock whenever an answer tells it,
 * and noting in `met` every article the whole list showed (repeats take their records there).
 */
function* clocked<T>(part: Reads<T>, ctx: PollContext, met?: Map<string, TrackedRecord>): Reads<T> {
	let next = part.next();
	while (!next.done) {
		const request = next.value;
		const reply = yield request;
		const serviceTime = (reply as ListResult | null)?.serviceTime;
		if (typeof serviceTime === 'number') ctx.now = serviceTime;
		if (met && request.kind === 'articleList' && !request.status) {
			for (const record of (reply as ListResult).items ?? []) {
				const key = keyOf(record.id);
				if (key) met.set(key, record);
			}
		}
		next = part.next(reply);
	}
	return next.value;
}

/** Reads the stored state (anything else, e.g. an empty object, means "not activated yet"). */
export function pollSteps(stored: unknown, config: TrackerConfig): PollSteps {
	return run(stored, config);
}

function* run(stored: unknown, config: TrackerConfig): PollSteps {
	const ctx: PollContext = {
		now: config.now ?? Infinity,
		startedAt: config.now ?? Infinity,
		lookBackMs: config.lookBackMs ?? DEFAULTS.lookBackMs,
		articlePageSize: config.articlePageSize ?? PAGE_SIZE,
		maxArticlePages: config.maxArticlePages ?? DEFAULTS.maxArticlePages,
		budget: config.requestBudget ?? DEFAULTS.requestBudget,
		notes: [],
	};
	const read = readStored(stored, config.scope, ctx.startedAt);
	const previous = read.kind === 'read' ? read.memory : undefined;
	const memory: TrackerMemory = { scope: config.scope, committedAt: config.now ?? 0 };
	const items: EmittedItem[] = [];
	// Articles the poll reads, for its repeats (at-least-once delivery only).
	const met = config.delivery === 'atLeastOnce' ? new Map<string, TrackedRecord>() : undefined;
	const lag: Lag = {
		behind: false,
		missing: 0,
		births: 0,
		learning: false,
		articles: false,
		notes: [],
	};

	if (eventsOfKind(config.events, 'article').length > 0) {
		const result = yield* clocked(
			pollArticles(previous?.articles, previous?.committedAt ?? 0, ctx),
			ctx,
			met,
		);
		memory.articles = result.memory;
		for (const item of itemsOf(result.changes, 'article', config.events)) items.push(item);
		lag.articles = result.behind;
	}
	if (eventsOfKind(config.events, 'social').length > 0) {
		const result = yield* clocked(pollSocial(previous?.social, config.events, ctx), ctx);
		memory.social = result.memory;
		for (const item of itemsOf(result.changes, 'social', config.events)) items.push(item);
		Object.assign(lag, {
			missing: result.missing,
			births: result.births,
			learning: result.learning,
		});
	}
	const from =
		read.kind === 'newer' ? read.committedAt : read.kind === 'none' ? config.lostStart : undefined;
	let caughtUp: PollOutcome['caughtUp'];
	if (from !== undefined) {
		const since = yield* clocked(catchUp(from, config.events, ctx), ctx, met);
		for (const item of itemsOf(since.articles, 'article', config.events)) items.push(item);
		for (const item of itemsOf(since.social, 'social', config.events)) items.push(item);
		caughtUp = { from, short: since.short };
	}
	let journal: Record<string, unknown> | undefined;
	let repeated: EmittedItem[] = [];
	if (config.delivery === 'atLeastOnce') {
		const before = decodeJournal(read.kind === 'read' ? (stored as { j?: unknown }).j : undefined);
		const again = yield* clocked(repeats(before, config.events, met ?? new Map(), ctx), ctx);
		const fresh = new Set(items.map((item) => item.eventId));
		repeated = again.filter((item) => !fresh.has(item.eventId));
		journal = encodeJournal(nextJournal(before, items, ctx.notes));
	}
	const reserved = journal ? JSON.stringify(journal).length : 0;
	const width = fit(memory, ctx.notes, ctx.lookBackMs, reserved);
	lag.notes = ctx.notes;
	lag.behind =
		lag.articles || lag.learning || lag.missing > 0 || lag.births > 0 || ctx.notes.length > 0;
	const state = encode(memory, width);
	if (journal) state.j = journal;
	return {
		items: repeated.length > 0 ? [...repeated, ...items] : items,
		state,
		lag,
		stored: read,
		started: !previous,
		caughtUp,
	};
}

/** Fetch Test Event: the most recent record that could have produced a selected event. */
export function pickTestEvent(
	records: TrackedRecord[],
	events: readonly TriggerEvent[],
): EmittedItem | undefined {
	const sorted = [...records].sort((a, b) => (time(b.updated_at) || 0) - (time(a.updated_at) || 0));
	for (const record of sorted) {
		const fitting = events.filter((e) => definition(e).example(record.status) !== false);
		if (fitting.length === 0) continue;
		const previous = definition(fitting[0]).example(record.status) as string | null;
		const kind = definition(fitting[0]).kind;
		return {
			kind,
			event: fitting[0],
			events: fitting,
			previous,
			previousStatus: previous,
			eventId: eventIdOf(kind, record),
			record,
		};
	}
	return undefined;
}
