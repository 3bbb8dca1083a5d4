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
import { catchUp } from './catchup';
import { eventsOfKind, type TriggerEvent } from '../events';
import { itemsOf, type EmittedItem } from './items';
import { decodeJournal, encodeJournal, nextJournal, repeats, type Delivery } from './repeats';
import { pollSocial } from './social/social';
import { store } from './state/codec';
import type { TrackerMemory } from './state/memory';
import { readStored, type Stored } from './state/formats';
import { PollContext } from './context';
import { PAGE_SIZE, type Reader, type TrackedRecord } from './requests';

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
	newRecords: number;
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

/**
 * One poll: reads what it needs through `read`, and gives one item per observed transition plus
 * the state to store. `stored`: the state the last complete poll stored (anything else, e.g. an
 * empty object, means "not activated yet").
 */
export async function runPoll(
	stored: unknown,
	config: TrackerConfig,
	read: Reader,
): Promise<PollOutcome> {
	const ctx = new PollContext(read, {
		startedAt: config.now ?? Infinity,
		lookBackMs: config.lookBackMs ?? DEFAULTS.lookBackMs,
		articlePageSize: config.articlePageSize ?? PAGE_SIZE,
		maxArticlePages: config.maxArticlePages ?? DEFAULTS.maxArticlePages,
		budget: config.requestBudget ?? DEFAULTS.requestBudget,
	});
	const storedAs = readStored(stored, config.scope, ctx.startedAt);
	const previous = storedAs.kind === 'read' ? storedAs.memory : undefined;
	const memory: TrackerMemory = { scope: config.scope, committedAt: config.now ?? 0 };
	const items: EmittedItem[] = [];
	// Articles the poll reads, for its repeats (at-least-once delivery only).
	const met = config.delivery === 'atLeastOnce' ? new Map<string, TrackedRecord>() : undefined;
	const lag: Lag = {
		behind: false,
		missing: 0,
		newRecords: 0,
		learning: false,
		articles: false,
		notes: [],
	};

	if (eventsOfKind(config.events, 'article').length > 0) {
		const result = await pollArticles(previous?.articles, previous?.committedAt ?? 0, ctx, met);
		memory.articles = result.memory;
		for (const item of itemsOf(result.changes, 'article', config.events)) items.push(item);
		lag.articles = result.behind;
	}
	if (eventsOfKind(config.events, 'social').length > 0) {
		const result = await pollSocial(previous?.social, config.events, ctx);
		memory.social = result.memory;
		for (const item of itemsOf(result.changes, 'social', config.events)) items.push(item);
		lag.missing = result.missing;
		lag.newRecords = result.newRecords;
		lag.learning = result.learning;
	}
	const from =
		storedAs.kind === 'newer'
			? storedAs.committedAt
			: storedAs.kind === 'none'
				? config.lostStart
				: undefined;
	let caughtUp: PollOutcome['caughtUp'];
	if (from !== undefined) {
		const since = await catchUp(from, config.events, ctx, met);
		for (const item of itemsOf(since.articles, 'article', config.events)) items.push(item);
		for (const item of itemsOf(since.social, 'social', config.events)) items.push(item);
		caughtUp = { from, short: since.short };
	}
	let journal: Record<string, unknown> | undefined;
	let repeated: EmittedItem[] = [];
	if (config.delivery === 'atLeastOnce') {
		const before = decodeJournal(
			storedAs.kind === 'read' ? (stored as { j?: unknown }).j : undefined,
		);
		const again = await repeats(before, config.events, met ?? new Map(), ctx);
		const fresh = new Set(items.map((item) => item.eventId));
		repeated = again.filter((item) => !fresh.has(item.eventId));
		journal = encodeJournal(nextJournal(before, items, ctx.notes));
	}
	const reserved = journal ? JSON.stringify(journal).length : 0;
	const state = store(memory, ctx.notes, ctx.lookBackMs, reserved);
	if (journal) state.j = journal;
	lag.notes = ctx.notes.said;
	lag.behind =
		lag.articles || lag.learning || lag.missing > 0 || lag.newRecords > 0 || lag.notes.length > 0;
	return {
		items: repeated.length > 0 ? [...repeated, ...items] : items,
		state,
		lag,
		stored: storedAs,
		started: !previous,
		caughtUp,
	};
}
