/**
 * One poll of the trigger, free of n8n and of I/O but the reader it is given: what was stored,
 * articles (./articles), social content (./social/social), the changes since a lost start
 * (./catchup), the repeats of at-least-once delivery (./repeats), then the items and the state to
 * store (./state/memory, stored as it is by ./state/codec). Nothing is stored unless the whole poll finishes, so one that fails
 * part-way repeats its window. ../README.md walks through it.
 */
import { pollArticles } from './articles';
import { catchUp } from './catchup';
import { eventsOfKind, type TriggerEvent } from '../events';
import { itemsOf, type EmittedItem } from './items';
import { withRepeats, type Delivery } from './repeats';
import { pollSocial } from './social/social';
import { encode } from './state/codec';
import type { TrackerMemory } from './state/memory';
import { readStored, type Stored } from './state/formats';
import { PollRun, type PollSettings } from './poll-run';
import { PAGE_SIZE, type Reader, type TrackedRecord } from './reader';

const DEFAULTS = {
	/** How far below the newest change a poll reads again, for writers whose clocks are behind. */
	lookBackMs: 5 * 60_000,
	maxArticlePages: 60,
	/** Optional reads per poll: the social search's pages and records read by id. */
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
	/** Exactly once (the default), or at least once with repeats (./repeats). */
	delivery?: Delivery;
	/**
	 * When nothing is stored although the trigger started from nothing at this time (host ms): the
	 * changes since are reported (../starts, ./catchup).
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
 * One poll: reads what it needs through `read`, and gives one item per observed change plus the
 * state to store. `stored`: the state the last complete poll stored (anything else, e.g. an empty
 * object, means "not activated yet").
 */
export async function runPoll(
	stored: unknown,
	config: TrackerConfig,
	read: Reader,
): Promise<PollOutcome> {
	const { events } = config;
	const settings = settingsOf(config);
	const ctx = new PollRun(read, settings);
	const storedAs = readStored(stored, config.scope);
	const previous = storedAs.kind === 'read' ? storedAs.memory : undefined;
	// Articles the poll reads, for its repeats (at-least-once delivery only).
	const met = config.delivery === 'atLeastOnce' ? new Map<string, TrackedRecord>() : undefined;
	const articles =
		eventsOfKind(events, 'article').length > 0
			? await pollArticles(previous?.articles, previous?.committedAt ?? 0, ctx, met)
			: undefined;
	const social =
		eventsOfKind(events, 'social').length > 0
			? await pollSocial(previous?.social, events, ctx)
			: undefined;
	// A state of a format not decoded, or a start n8n lost: every change since is reported too.
	const from =
		storedAs.kind === 'foreign'
			? storedAs.committedAt
			: storedAs.kind === 'none'
				? config.lostStart
				: undefined;
	const since = from === undefined ? undefined : await catchUp(from, events, ctx, met);

	let items = [
		...itemsOf(articles?.changes ?? [], 'article', events),
		...itemsOf(social?.changes ?? [], 'social', events),
		...itemsOf(since?.articles ?? [], 'article', events),
		...itemsOf(since?.social ?? [], 'social', events),
	];
	let journal;
	if (met) ({ items, journal } = await withRepeats(previous?.journal, items, events, met, ctx));
	const memory: TrackerMemory = {
		scope: config.scope,
		committedAt: config.now ?? 0,
		articles: articles?.memory,
		social: social?.memory,
		journal,
	};
	return {
		items,
		state: encode(memory),
		lag: lagOf(articles?.behind ?? false, social, ctx.notes.said),
		stored: storedAs,
		started: !previous,
		caughtUp: from === undefined ? undefined : { from, short: since?.short ?? [] },
	};
}

function settingsOf(config: TrackerConfig): PollSettings {
	return {
		startedAt: config.now ?? Infinity,
		lookBackMs: config.lookBackMs ?? DEFAULTS.lookBackMs,
		articlePageSize: config.articlePageSize ?? PAGE_SIZE,
		maxArticlePages: config.maxArticlePages ?? DEFAULTS.maxArticlePages,
		budget: config.requestBudget ?? DEFAULTS.requestBudget,
	};
}

/** Behind: any work left, or anything said (something could not be done in this poll). */
function lagOf(
	articles: boolean,
	social: Pick<Lag, 'missing' | 'newRecords' | 'learning'> | undefined,
	notes: string[],
): Lag {
	const { missing = 0, newRecords = 0, learning = false } = social ?? {};
	const behind = articles || learning || missing > 0 || newRecords > 0 || notes.length > 0;
	return { behind, missing, newRecords, learning, articles, notes };
}
