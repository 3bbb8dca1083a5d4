/**
 * A month of a busy account, many hazards at once, as data: a seeded history of minutes (births,
 * moves, quick regenerations, edits, deletions, writers' clocks off, bursts), each ending in a
 * poll that may fail part-way (a 5xx or 429), run slowly (changes land while it reads) or be
 * thrown away by a restart. `monthOf(seed)` writes the history; ./month-run plays it against the
 * tracker and holds what it reported to the changes it was obliged to report. Shared by
 * test/trigger/month.test.ts (a quick seed, many with CONTENTGEN_DEEP=1) and bench/.
 */
import { prng, type SocialOrder, type StampKind } from './world';

export type Kind = 'article' | 'social';

/**
 * `pick` chooses the record when the action runs (a fraction: below 0.7 among the newest 300,
 * else any), `choice` its next status among the plausible ones; so an action means something
 * whatever actions a shrunk history left out.
 */
export type Action =
	| { do: 'create'; kind: Kind; status: string; skew: number }
	| { do: 'move'; kind: Kind; pick: number; choice: number; skew: number }
	| { do: 'regenerate'; pick: number; choice: number }
	| { do: 'edit'; kind: Kind; pick: number }
	| { do: 'delete'; pick: number };

/** `error`: the poll fails after `at` requests; `slow`: `during` lands after `at` requests. */
export type Fault = 'none' | 'error' | 'slow' | 'discard';

export interface Minute {
	actions: Action[];
	fault: Fault;
	at: number;
	during: Action[];
}

export interface MonthSize {
	articles: number;
	social: number;
	/** Polls before the hazards start: activation and learning the account. */
	warmup: number;
	minutes: number;
	/** Writers' clocks up to this many minutes off either way. */
	clockSkewMinutes: number;
	/** How the service mints ids (v7: time-ordered, several in a millisecond) and stamps times. */
	ids: 'v4' | 'v7';
	stamps: StampKind;
}

export interface History extends MonthSize {
	seed: number;
	order: SocialOrder;
	list: Minute[];
}

/** Writers' clocks up to 2 minutes off either way: two of them stay within the look-back. */
export const MONTH: MonthSize = {
	articles: 3000,
	social: 3000,
	warmup: 12,
	minutes: 400,
	clockSkewMinutes: 2,
	ids: 'v4',
	stamps: 'ms',
};

/** Plausible next statuses: the lifecycles forward, plus regenerations and archiving. */
export const NEXT: Record<Kind, Record<string, string[]>> = {
	article: {
		draft: ['queued'],
		queued: ['cms', 'needs_editing', 'failed', 'cms'],
		cms: ['archived', 'needs_editing', 'failed', 'queued'],
		needs_editing: ['cms', 'archived', 'queued'],
		failed: ['queued', 'archived', 'cms'],
		archived: ['cms', 'queued', 'needs_editing'],
	},
	social: {
		draft: ['queued', 'generating'],
		queued: ['generating'],
		generating: ['ready', 'completed', 'failed', 'completed'],
		ready: ['scheduled', 'publishing', 'published'],
		completed: ['scheduled', 'published', 'publishing'],
		scheduled: ['published', 'failed'],
		publishing: ['published', 'failed'],
		published: [],
		failed: ['generating'],
	},
};

/** The history a seed gives: the same on every machine. */
export function monthOf(seed: number, order: SocialOrder, size: MonthSize = MONTH): History {
	const r = prng(seed);
	const chance = (p: number) => r() < p;
	const spread = size.clockSkewMinutes * 60_000;
	const skew = () => (chance(0.2) ? Math.round((r() * 2 - 1) * spread) : 0);
	const action = (): Action => {
		const kind: Kind = chance(0.5) ? 'article' : 'social';
		const x = r();
		if (x < 0.3) {
			const status =
				kind === 'article'
					? chance(0.8)
						? 'queued'
						: 'draft'
					: chance(0.8)
						? 'generating'
						: 'draft';
			return { do: 'create', kind, status, skew: skew() };
		}
		if (x < 0.75) return { do: 'move', kind, pick: r(), choice: r(), skew: skew() };
		if (x < 0.82) return { do: 'regenerate', pick: r(), choice: r() };
		if (x < 0.995) return { do: 'edit', kind, pick: r() };
		return { do: 'delete', pick: r() };
	};
	const list: Minute[] = [];
	for (let m = 0; m < size.minutes; m++) {
		const hazards = m >= size.warmup;
		const count = !hazards ? 0 : chance(0.04) ? 50 + Math.floor(r() * 251) : Math.floor(r() * 6);
		const actions = Array.from({ length: count }, action);
		const f = r();
		const fault: Fault = !hazards
			? 'none'
			: f < 0.04
				? 'error'
				: f < 0.1
					? 'slow'
					: f < 0.13
						? 'discard'
						: 'none';
		const during = fault === 'slow' ? Array.from({ length: 1 + Math.floor(r() * 5) }, action) : [];
		list.push({ actions, fault, at: 1 + Math.floor(r() * 6), during });
	}
	stoppedAfterActivation(seed, size, list);
	return { ...size, seed, order, list };
}

/** What a writer may create directly: any status of the lifecycle, not only its first. */
const BORN: Record<Kind, string[]> = {
	article: ['draft', 'queued', 'cms', 'failed'],
	social: ['draft', 'generating', 'ready', 'completed', 'failed', 'scheduled', 'published'],
};

/**
 * Social records created while the first poll reads the whole list (after it read its count: the
 * 18th request of the month's first poll), then n8n restarted and stopped for a few minutes
 * (those polls' state is never stored), while writers create records in any status and move
 * others. From a PRNG of its own, so that the rest of a seed's history stays what it was.
 */
function stoppedAfterActivation(seed: number, size: MonthSize, list: Minute[]): void {
	const r = prng(seed ^ 0x5eed5);
	const during = Array.from({ length: 1 + Math.floor(r() * 3) }, (): Action => {
		const status = BORN.social[Math.floor(r() * BORN.social.length)];
		return { do: 'create', kind: 'social', status, skew: 0 };
	});
	list[0] = { ...list[0], fault: 'slow', at: 18 + Math.floor(r() * 28), during };
	const from = 1 + Math.floor(r() * 2);
	const to = Math.min(size.warmup - 2, from + 2 + Math.floor(r() * 4));
	for (let m = from; m < to && m < list.length; m++) {
		const actions = Array.from({ length: Math.floor(r() * 4) }, (): Action => {
			const kind: Kind = r() < 0.6 ? 'social' : 'article';
			if (r() < 0.7) {
				const status = BORN[kind][Math.floor(r() * BORN[kind].length)];
				return { do: 'create', kind, status, skew: 0 };
			}
			return { do: 'move', kind, pick: r(), choice: r(), skew: 0 };
		});
		list[m] = { actions, fault: 'discard', at: 1 + Math.floor(r() * 6), during: [] };
	}
}

/**
 * A month that starts with `records` articles and as many social records. The warm-up grows with
 * the articles: learning their statuses takes ceil(articles / 100) / 5 polls (5 pages a poll).
 */
export function monthOfSize(records: number, size: MonthSize = MONTH): MonthSize {
	const warmup = Math.max(MONTH.warmup, Math.ceil(records / 500) + 6);
	return { ...size, articles: records, social: records, warmup };
}

/**
 * The month's size with what a deep run's environment changes: CONTENTGEN_MONTH_CLOCKS (writers'
 * clocks, minutes), CONTENTGEN_MONTH_IDS (v4, v7), CONTENTGEN_MONTH_STAMPS (ms, s),
 * CONTENTGEN_MONTH_RECORDS (articles, and as many social records, at the start). A bad value is
 * an error naming it.
 */
export function monthSizeOf(env: Record<string, string | undefined>): MonthSize {
	const clocks = Number(env.CONTENTGEN_MONTH_CLOCKS ?? MONTH.clockSkewMinutes);
	if (!(clocks >= 0)) throw new Error('CONTENTGEN_MONTH_CLOCKS: minutes, 0 or more');
	const ids = env.CONTENTGEN_MONTH_IDS ?? MONTH.ids;
	if (ids !== 'v4' && ids !== 'v7') throw new Error('CONTENTGEN_MONTH_IDS: v4 or v7');
	const stamps = env.CONTENTGEN_MONTH_STAMPS ?? MONTH.stamps;
	if (stamps !== 'ms' && stamps !== 's') throw new Error('CONTENTGEN_MONTH_STAMPS: ms or s');
	const records = Number(env.CONTENTGEN_MONTH_RECORDS ?? MONTH.articles);
	if (!(Number.isInteger(records) && records >= 100))
		throw new Error('CONTENTGEN_MONTH_RECORDS: records of each kind at the start, 100 or more');
	const size: MonthSize = { ...MONTH, clockSkewMinutes: clocks, ids, stamps };
	return records === MONTH.articles ? size : monthOfSize(records, size);
}

/** Seeds of the deep run when CONTENTGEN_MONTH_SEEDS does not say: what fits CI's time. */
export const DEEP_SEEDS = '1-12';

/**
 * Seeds written as CONTENTGEN_MONTH_SEEDS takes them: numbers and ranges, comma-separated
 * (`1-100`, `7`, `3,9,12-15`). A bad list is an error naming it, not a run of fewer seeds.
 */
export function parseSeeds(text: string): number[] {
	const seeds: number[] = [];
	for (const part of text.split(',')) {
		const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
		const from = Number(match?.[1]);
		const to = match?.[2] === undefined ? from : Number(match[2]);
		if (!match || to < from)
			throw new Error(`CONTENTGEN_MONTH_SEEDS: "${text}" is not like 1-100 or 3,9,12-15`);
		for (let seed = from; seed <= to; seed++) seeds.push(seed);
	}
	return seeds;
}
