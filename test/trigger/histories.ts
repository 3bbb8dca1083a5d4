/**
 * Random histories of an account, replayed against the tracker and checked poll by poll against
 * the ground-truth model (./model). A history is a script of steps; the runner resolves random
 * picks (which record, which clock error) with a seeded PRNG, so a failure replays exactly.
 */
import fc from 'fast-check';

import {
	pollSteps,
	type EmittedItem,
	type PollOutcome,
	type TrackerConfig,
} from '../../nodes/ContentGenTrigger/tracker';
import { runPollSync } from './drive';
import {
	ARTICLE_EVENT_NAMES,
	ARTICLE_STATUSES,
	articleEventsOf,
	compare,
	expectArticles,
	expectSocial,
	SOCIAL_EVENT_NAMES,
	SOCIAL_STATUSES,
	socialEventsOf,
	watchedSocial,
	type Acceptable,
	type Transition,
} from './model';
import { EPOCH, prng, World, type SocialOrder } from './world';

const ALL_EVENTS = [...ARTICLE_EVENT_NAMES, ...SOCIAL_EVENT_NAMES];
const LOOK_BACK_MS = 5 * 60_000;
const STATE_LIMIT = 65_536;

type Kind = 'article' | 'social';

export type Step =
	| { t: 'tick'; ms: number }
	| { t: 'create'; kind: Kind; status: string; count: number; skew: number }
	| { t: 'burst'; kind: Kind; count: number }
	| { t: 'set'; kind: Kind; pick: number; status: string; skew: number }
	| { t: 'finish'; kind: Kind; share: number; skew: number }
	| { t: 'ahead'; pick: number }
	| { t: 'poll'; failAt: number | null }
	| { t: 'restart' };

export interface Script {
	events: string[];
	order: SocialOrder;
	seed: number;
	/** Article page size the tracker asks for (tiny pages exercise paging). */
	pageSize?: number;
	/** Records that exist before activation: [kind, status, created] */
	initial: Array<[Kind, string, number]>;
	steps: Step[];
	/** The tracker must know every record (small accounts). */
	strict: boolean;
	/** Extra tracker settings (budgets). */
	config?: Partial<TrackerConfig>;
}

/** One transition per item. */
function transitionsOf(items: EmittedItem[]): Transition[] {
	return items.map((i) => ({
		id: i.record.id,
		previous: i.previousStatus,
		status: i.record.status,
		events: [...i.events].sort(),
	}));
}

const IN_FLIGHT: Record<Kind, readonly string[]> = {
	article: ['draft', 'queued'],
	social: ['draft', 'queued', 'generating'],
};
const OUTCOMES: Record<Kind, readonly string[]> = {
	article: ['cms', 'cms', 'cms', 'needs_editing', 'failed'],
	social: ['completed', 'completed', 'ready', 'failed'],
};

type PollHook = (step: number, outcome: PollOutcome, world: World) => string | null | void;

/** The failure a script injects into a poll's requests (the service answering 503). */
class InjectedFailure extends Error {
	constructor() {
		super('HTTP 503');
		this.name = 'InjectedFailure';
	}
}

/** Alters the stored state between polls: a broken tracker the properties must catch. */
export type Mutant = (state: Record<string, unknown>) => Record<string, unknown>;

/**
 * Plays a script: changes the world step by step and polls the tracker where it says so (an
 * injected failing request makes the poll fail, so nothing is committed; any other error, of the
 * tracker or of the service it asked, ends the run). `check` sees each committed poll and may
 * stop the run with a problem. A run in which no poll committed is a problem too.
 */
function simulate(
	script: Script,
	check: PollHook,
	extra: Step[] = [],
	mutant?: Mutant,
): string | null {
	const world = new World(prng(script.seed), { socialOrder: script.order });
	const random = prng(script.seed ^ 0x9e3779b9);
	const clockError = (max: number) => Math.round((random() * 2 - 1) * max);
	for (const [kind, status, created] of script.initial) world.create(kind, status, { created });
	const table = (kind: Kind) => (kind === 'article' ? world.articles : world.social);
	let stored: unknown = {};
	let committedPolls = 0;

	for (const [index, step] of [...script.steps, ...extra].entries()) {
		if (step.t === 'tick') world.tick(step.ms);
		else if (step.t === 'create') {
			for (let i = 0; i < step.count; i++)
				world.create(step.kind, step.status, { skew: clockError(step.skew) });
		} else if (step.t === 'burst') {
			for (let i = 0; i < step.count; i++)
				world.create(step.kind, step.kind === 'article' ? 'queued' : 'generating');
		} else if (step.t === 'set') {
			const ids = [...table(step.kind).keys()];
			if (ids.length > 0)
				world.set(step.kind, ids[step.pick % ids.length], step.status, clockError(step.skew));
		} else if (step.t === 'finish') {
			for (const row of table(step.kind).values()) {
				if (!IN_FLIGHT[step.kind].includes(row.status) || random() >= step.share) continue;
				const outcome = OUTCOMES[step.kind][Math.floor(random() * OUTCOMES[step.kind].length)];
				world.set(step.kind, row.id, outcome, clockError(step.skew));
			}
		} else if (step.t === 'ahead') {
			// One writer's clock an hour fast: its stamp must not hide later changes.
			const ids = [...world.articles.keys()];
			if (ids.length > 0) world.set('article', ids[step.pick % ids.length], 'cms', 3_600_000);
		} else if (step.t === 'restart') {
			stored = JSON.parse(JSON.stringify(stored));
		} else {
			let requests = 0;
			const config = {
				events: script.events as TrackerConfig['events'],
				scope: 'all',
				articlePageSize: script.pageSize,
				maxArticlePages: 1000,
				...script.config,
				now: world.now,
				lookBackMs: LOOK_BACK_MS,
			};
			let outcome: PollOutcome;
			// An order that holds within a poll shows the same records on a page read again.
			const pages = new Set<number>();
			let reread: number | undefined;
			try {
				outcome = runPollSync(pollSteps(stored, config), (request) => {
					if (step.failAt !== null && requests++ === step.failAt) throw new InjectedFailure();
					if (request.kind === 'socialList' && !request.status && script.order !== 'shuffled') {
						if (pages.has(request.page)) reread ??= request.page;
						pages.add(request.page);
					}
					return world.answer(request);
				});
			} catch (error) {
				if (error instanceof InjectedFailure) continue; // nothing committed
				// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- a crash of the tracker or a refused request is the finding itself
				throw error;
			}
			if (reread !== undefined) return `poll at step ${index}: read page ${reread} twice`;
			const size = JSON.stringify(outcome.state).length;
			if (size > STATE_LIMIT) return `poll at step ${index}: state too large: ${size}`;
			const problem = check(index, outcome, world);
			if (problem) return `poll at step ${index}: ${problem}`;
			stored = mutant ? mutant(JSON.parse(JSON.stringify(outcome.state))) : outcome.state;
			committedPolls++;
		}
	}
	return committedPolls === 0 ? 'no poll committed' : null;
}

/** Checks each poll against the ground-truth model; returns the first disagreement, or null. */
export function runScript(script: Script, mutant?: Mutant): string | null {
	const wanted = new Set(script.events);
	const watched = watchedSocial(script.events);
	let committed: { articles: Map<string, string>; social: Map<string, string> } | null = null;
	let followed = new Set<string>();
	return simulate(
		script,
		(_step, outcome, world) => {
			const articles = world.snapshot('article');
			const social = world.snapshot('social');
			let expected = new Map<string, Acceptable>();
			if (committed === null) {
				followed = new Set([...social].filter(([, s]) => watched.has(s)).map(([id]) => id));
			} else {
				expected = expectArticles(committed.articles, articles, wanted, script.strict);
				const s = expectSocial(committed.social, social, followed, watched, wanted);
				for (const [id, acceptable] of s.expected) expected.set(id, acceptable);
				followed = s.followed;
			}
			committed = { articles, social };
			return compare(transitionsOf(outcome.items), expected);
		},
		[],
		mutant,
	);
}

/** A record's reports, in order, with the poll that made each. */
type Chains = Map<string, Array<Transition & { step: number }>>;

function record(chains: Chains, step: number, outcome: PollOutcome): void {
	for (const t of transitionsOf(outcome.items)) {
		const chain = chains.get(t.id) ?? [];
		chain.push({ ...t, step });
		chains.set(t.id, chain);
	}
}

/**
 * With a request budget per poll, the tracker may be late but never silent or wrong: the same
 * history with an unlimited budget gives the reference. Each record's reports must be that
 * reference's reports merged into fewer, later ones (from the first one's previous status to
 * the last one's status, with the events of that change; a merged change without a selected
 * event gives no report); whenever the budgeted tracker is not where the reference is after a
 * poll, it must say it is behind; and idle polls afterwards must let it catch up. A social record
 * that appeared or moved while the tracker was still learning the account may miss its first
 * reports.
 */
export function runLate(script: Script, budget: number): string | null {
	// Both runs must commit the same polls: a request that fails would hit different reads.
	script = {
		...script,
		steps: script.steps.map((step) => (step.t === 'poll' ? { ...step, failAt: null } : step)),
	};
	// Enough idle polls to read the whole list a few times at this budget.
	const polls = 10 + 4 * Math.ceil(script.initial.length / 100 / budget);
	const settle: Step[] = [];
	for (let i = 0; i < polls; i++)
		settle.push({ t: 'tick', ms: 60_000 }, { t: 'poll', failAt: null });
	const reference: Chains = new Map();
	const referenceAt = new Map<number, Map<string, string>>();
	const problem = simulate(
		{ ...script, config: { ...script.config, requestBudget: Infinity } },
		(step, outcome) => {
			record(reference, step, outcome);
			referenceAt.set(step, lastStatuses(reference));
		},
		settle,
	);
	if (problem) return `reference run: ${problem}`;

	const late: Chains = new Map();
	let activation: Map<string, string> | undefined;
	const learnt = new Set<string>();
	let learning = true;
	let behind = true;
	const result = simulate(
		{ ...script, config: { ...script.config, requestBudget: budget } },
		(step, outcome, world) => {
			record(late, step, outcome);
			activation ??= world.snapshot('social');
			// Up to the poll that ends the learning, what changed may have been taken as it was.
			if (learning) {
				for (const [id, status] of world.snapshot('social'))
					if (activation.get(id) !== status) learnt.add(id);
			}
			learning = outcome.lag.learning;
			behind = outcome.lag.behind;
			if (behind) return null;
			const now = lastStatuses(late);
			for (const [id, status] of referenceAt.get(step) ?? []) {
				if (now.get(id) !== status && !learnt.has(id))
					return `not behind, yet ${id} is reported at ${now.get(id) ?? 'nothing'}, not ${status}`;
			}
			return null;
		},
		settle,
	);
	if (result) return result;
	if (behind) return `still behind after ${polls} idle polls`;
	const wanted = new Set(script.events);
	for (const id of new Set([...reference.keys(), ...late.keys()])) {
		const problem = merged(reference.get(id) ?? [], late.get(id) ?? [], learnt.has(id), wanted);
		if (problem) return `${id}: ${problem}`;
	}
	return null;
}

function lastStatuses(chains: Chains): Map<string, string> {
	return new Map([...chains].map(([id, chain]) => [id, chain[chain.length - 1].status]));
}

/** The selected events of a merged change; a null previous may mean "new" or "unknown". */
function mergedEvents(id: string, previous: string | null, status: string, wanted: Set<string>) {
	const of = id.includes('-0001-') ? articleEventsOf : socialEventsOf;
	const pick = (p: string | null | undefined) =>
		of(p, status)
			.filter((e) => wanted.has(e))
			.sort()
			.join();
	return previous === null ? [pick(undefined), pick(null)] : [pick(previous)];
}

/** Whether `late` is `reference` cut into consecutive spans, each merged into one report or none. */
function merged(
	reference: Transition[],
	late: Transition[],
	mayStartLate: boolean,
	wanted: Set<string>,
): string | null {
	const show = () => `reported ${JSON.stringify(late)}; reference ${JSON.stringify(reference)}`;
	let next = 0;
	for (const item of late) {
		const starts = reference
			.map((r, k) => k)
			.filter((k) => k >= next && reference[k].previous === item.previous);
		const start =
			mayStartLate && next === 0
				? (starts[0] ?? next)
				: starts.find((k) => k === next || skippable(reference, next, k, wanted));
		if (start === undefined) return show();
		const end = reference.findIndex((r, k) => k >= start && r.status === item.status);
		if (end < 0) return show();
		if (!mergedEvents(item.id, item.previous, item.status, wanted).includes(item.events.join()))
			return `events of ${JSON.stringify(item)}`;
		next = end + 1;
	}
	if (
		next < reference.length &&
		!mayStartLate &&
		!skippable(reference, next, reference.length, wanted)
	)
		return `${show()}: ends early`;
	return null;
}

/** Reference reports [from, to) merge into a change without a selected event (so no report). */
function skippable(
	reference: Transition[],
	from: number,
	to: number,
	wanted: Set<string>,
): boolean {
	if (to <= from) return true;
	const first = reference[from];
	const last = reference[to - 1];
	return mergedEvents(first.id, first.previous, last.status, wanted).includes('');
}

// ----- small accounts: the histories the tracker has always been checked against -----

/** Creation mostly starts where the service starts it; anything else is possible too. */
function statusFor(kind: Kind, n: number): string {
	const list = kind === 'article' ? ARTICLE_STATUSES : SOCIAL_STATUSES;
	if (n < 8) return kind === 'article' ? 'queued' : 'generating';
	return list[n % list.length];
}

function anyStatus(kind: Kind, n: number): string {
	const list = kind === 'article' ? ARTICLE_STATUSES : SOCIAL_STATUSES;
	return list[n % list.length];
}

const kindArb = fc.constantFrom<Kind>('article', 'social');

const smallStepArb: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 3,
		arbitrary: fc.record({ t: fc.constant('tick' as const), ms: fc.constantFrom(0, 0, 1, 5) }),
	},
	{
		weight: 3,
		arbitrary: fc.record({ kind: kindArb, n: fc.nat(20) }).map(
			({ kind, n }): Step => ({
				t: 'create',
				kind,
				status: statusFor(kind, n),
				count: 1,
				skew: 0,
			}),
		),
	},
	{
		weight: 6,
		arbitrary: fc.record({ kind: kindArb, pick: fc.nat(1000), n: fc.nat(20) }).map(
			({ kind, pick, n }): Step => ({
				t: 'set',
				kind,
				pick,
				status: anyStatus(kind, n),
				skew: 0,
			}),
		),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			t: fc.constant('poll' as const),
			failAt: fc.option(fc.nat(12), { freq: 3 }),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ t: fc.constant('restart' as const) }) },
);

export const smallScriptArb: fc.Arbitrary<Script> = fc
	.record({
		events: fc.oneof(fc.constant(ALL_EVENTS), fc.subarray(ALL_EVENTS, { minLength: 1 })),
		pageSize: fc.constantFrom(2, 3, 100),
		seed: fc.nat(),
		articles: fc.array(fc.nat(20), { maxLength: 8, size: 'max' }),
		social: fc.array(fc.nat(20), { maxLength: 8, size: 'max' }),
		steps: fc.array(smallStepArb, { minLength: 5, maxLength: 60, size: 'max' }),
	})
	.map(({ events, pageSize, seed, articles, social, steps }) => ({
		events,
		pageSize,
		seed,
		order: 'shuffled' as const,
		strict: true,
		// Created in one instant, one millisecond before the history starts.
		initial: [
			...articles.map((n): [Kind, string, number] => [
				'article',
				statusFor('article', n),
				EPOCH - 1,
			]),
			...social.map((n): [Kind, string, number] => ['social', statusFor('social', n), EPOCH - 1]),
		],
		// A last poll that no failure hits: every history commits a poll and is checked to its end.
		steps: [...steps, { t: 'poll', failAt: null }],
	}));

// ----- large accounts: thousands of months-old records, bursts, writers' clocks that differ -----

const DAY = 86_400_000;

function oldRecords(
	kind: Kind,
	count: number,
	publishable: boolean,
	seed: number,
): Array<[Kind, string, number]> {
	const random = prng(seed);
	const out: Array<[Kind, string, number]> = [];
	for (let i = 0; i < count; i++) {
		let status: string;
		if (kind === 'article')
			status = ['cms', 'cms', 'cms', 'needs_editing', 'failed', 'archived'][i % 6];
		else if (!publishable)
			status = ['completed', 'completed', 'completed', 'ready', 'published', 'failed'][i % 6];
		// When finished records are followed (publish events), keep them to what it can follow.
		else
			status =
				i < 1500 ? ['completed', 'ready', 'scheduled'][i % 3] : ['published', 'failed'][i % 2];
		out.push([kind, status, EPOCH - 1000 - Math.floor(random() * 180 * DAY)]);
	}
	return out;
}

const largeStepArb = (skew: number): fc.Arbitrary<Step> =>
	fc.oneof(
		{
			weight: 4,
			arbitrary: fc.record({
				t: fc.constant('tick' as const),
				ms: fc.integer({ min: 0, max: 120_000 }),
			}),
		},
		{
			weight: 4,
			arbitrary: fc.record({
				t: fc.constant('poll' as const),
				failAt: fc.option(fc.nat(30), { freq: 6 }),
			}),
		},
		{
			weight: 3,
			arbitrary: fc
				.record({ kind: kindArb, count: fc.integer({ min: 1, max: 5 }), n: fc.nat(9) })
				.map(({ kind, count, n }): Step => {
					// Most generations start in flight; some are born finished between two polls.
					const start = kind === 'article' ? 'queued' : 'generating';
					const status = n < 6 ? start : OUTCOMES[kind][n % OUTCOMES[kind].length];
					return { t: 'create', kind, status, count, skew };
				}),
		},
		{
			weight: 3,
			arbitrary: fc.record({
				t: fc.constant('finish' as const),
				kind: kindArb,
				share: fc.constantFrom(0.1, 0.5, 1),
				skew: fc.constant(skew),
			}),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				t: fc.constant('burst' as const),
				kind: kindArb,
				count: fc.integer({ min: 1000, max: 2500 }),
			}),
		},
		{
			weight: 3,
			arbitrary: fc
				.record({ kind: kindArb, pick: fc.nat(100_000), n: fc.nat(20) })
				.map(
					({ kind, pick, n }): Step => ({ t: 'set', kind, pick, status: anyStatus(kind, n), skew }),
				),
		},
		{ weight: 1, arbitrary: fc.record({ t: fc.constant('restart' as const) }) },
	);

export interface LargeOptions {
	skew: boolean;
	ahead: boolean;
	orders?: SocialOrder[];
}

export const largeScriptArb = (options: LargeOptions): fc.Arbitrary<Script> =>
	fc
		.record({
			events: fc.oneof(fc.constant(ALL_EVENTS), fc.subarray(ALL_EVENTS, { minLength: 1 })),
			seed: fc.nat(),
			order: fc.constantFrom<SocialOrder>(
				...(options.orders ?? ['id', 'newest', 'oldest', 'shuffled']),
			),
			articles: fc.constantFrom(0, 1500, 10_000),
			social: fc.constantFrom(0, 1500, 6000, 10_000),
			skew: options.skew ? fc.constantFrom(30_000, LOOK_BACK_MS / 2) : fc.constant(0),
		})
		.chain((h) =>
			fc
				.array(largeStepArb(h.skew), { minLength: 8, maxLength: 30 })
				.chain((steps) =>
					options.ahead
						? fc.nat(100_000).map((pick) => [{ t: 'ahead' as const, pick }, ...steps])
						: fc.constant(steps),
				)
				.map((steps) => {
					const publishable = watchedSocial(h.events).has('completed');
					// A list reshuffled on every request is read by sampling, at many times the
					// requests of a stable one: 1,500 records exercise it at a bearable test time.
					const social = h.order === 'shuffled' ? Math.min(h.social, 1500) : h.social;
					// Activation first, so the bursts land between two polls.
					const all: Step[] = [
						{ t: 'poll', failAt: null },
						...steps,
						{ t: 'tick', ms: 60_000 },
						{ t: 'poll', failAt: null },
					];
					return {
						events: h.events,
						seed: h.seed,
						order: h.order,
						strict: false,
						// Enough requests per poll to finish every search: exactness, not lateness.
						config: { requestBudget: Infinity },
						initial: [
							...oldRecords('article', h.articles, false, h.seed),
							...oldRecords('social', social, publishable, h.seed + 1),
						],
						steps: capBursts(all),
					};
				}),
		);

/** Keeps the records in flight at once under 5,000. */
function capBursts(steps: Step[]): Step[] {
	let total = 0;
	return steps.filter((s) => {
		if (s.t !== 'burst') return true;
		total += s.count;
		return total <= 5000;
	});
}
