/**
 * Change tracking of the ContentGen Trigger, free of I/O.
 *
 * `pollSteps` is a generator: it yields the reads it needs (TrackerRequest), is resumed with the
 * answers, and returns one item per observed transition plus the state to store. The node
 * answers through the transport (./reads); tests answer from an in-memory model of the service.
 * Nothing is stored unless the whole generator finishes, so a poll that fails part-way repeats
 * its window. Articles: ./articles; social content: ./social, ./births (new records), ./census
 * (the first whole read) and ./lists (reading a list whole); the stored form and its size:
 * ./state, ./ids and ./capacity; the events: ./events; the node's side: ./reads (the transport)
 * and ./schedule (the time to the next poll). The trigger's own words and the API's: ./GLOSSARY.md.
 */
import { pollArticles } from './articles';
import { fit } from './capacity';
import { definition, eventsOfKind, matching, type RecordKind, type TriggerEvent } from './events';
import { pollSocial } from './social';
import { decode, encode, type TrackerMemory } from './state';
import {
	PAGE_SIZE,
	time,
	type Change,
	type ListResult,
	type PollContext,
	type Reads,
	type TrackedRecord,
	type TrackerReply,
	type TrackerRequest,
} from './types';

export type { ListResult, TrackedRecord, TrackerReply, TrackerRequest } from './types';
export type { TriggerEvent } from './events';

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
}

/** One item per transition: `event` is the first selected event it matches, `events` all of them. */
export interface EmittedItem {
	event: TriggerEvent;
	events: TriggerEvent[];
	previousStatus: string | null;
	record: TrackedRecord;
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
}

export type PollSteps = Generator<TrackerRequest, PollOutcome, TrackerReply>;

function itemsOf(
	changes: Change[],
	kind: RecordKind,
	selected: readonly TriggerEvent[],
): EmittedItem[] {
	const ordered = [...changes].sort(
		(a, b) => (time(a.record.updated_at) || 0) - (time(b.record.updated_at) || 0),
	);
	const items: EmittedItem[] = [];
	for (const { previous, record } of ordered) {
		const events = matching(selected, kind, previous, record.status);
		if (events.length > 0)
			items.push({ event: events[0], events, previousStatus: previous ?? null, record });
	}
	return items;
}

/** Passes a part's reads on, keeping `ctx.now` at the service's clock whenever an answer tells it. */
function* clocked<T>(part: Reads<T>, ctx: PollContext): Reads<T> {
	let next = part.next();
	while (!next.done) {
		const reply = yield next.value;
		const serviceTime = (reply as ListResult | null)?.serviceTime;
		if (typeof serviceTime === 'number') ctx.now = serviceTime;
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
	const previous = decode(stored, config.scope);
	const memory: TrackerMemory = { scope: config.scope, committedAt: config.now ?? 0 };
	const items: EmittedItem[] = [];
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
	const width = fit(memory, ctx.notes, ctx.lookBackMs);
	lag.notes = ctx.notes;
	lag.behind =
		lag.articles || lag.learning || lag.missing > 0 || lag.births > 0 || ctx.notes.length > 0;
	return { items, state: encode(memory, width), lag };
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
		return { event: fitting[0], events: fitting, previousStatus: previous, record };
	}
	return undefined;
}
