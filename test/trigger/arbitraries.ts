/** Random scripts: small accounts, and large ones with bursts and writers' clocks that differ. */
import fc from 'fast-check';

import { ARTICLE_STATUSES, SOCIAL_STATUSES, watchedSocial } from './model';
import { ALL_EVENTS, LOOK_BACK_MS, OUTCOMES, type Kind, type Script, type Step } from './script';
import { EPOCH, prng, type SocialOrder } from '../../harness/trigger/world';

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
