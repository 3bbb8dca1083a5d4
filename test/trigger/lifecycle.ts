/**
 * Accounts of agency size for the social trigger: statuses that move forward only (the spec's
 * lifecycle: a record reaches scheduled or published only from a status the trigger follows),
 * terminal lists that keep growing, records the account loses, and content born while the
 * trigger is still learning an account of 10,000 records. Steps and checks here extend the
 * runner of ./script.
 */
import fc from 'fast-check';

import type { PollOutcome } from '../../nodes/ContentGenTrigger/tracker';
import { watchedSocial } from './model';
import { runScript, simulate, type Script, type Step } from './script';
import { EPOCH, prng, type SocialOrder, type World } from '../../harness/trigger/world';

const FINISHED_EVENTS = ['socialFinished', 'socialFailed'];
const AFTER_FINISH_EVENTS = ['socialScheduled', 'socialPublished', 'socialStatusChanged'];
const DAY = 86_400_000;

/** `count` old records spread over the statuses a busy account holds. */
function agencyAccount(count: number, seed: number): Array<['social', string, number]> {
	const random = prng(seed);
	const mix = ['published', 'published', 'published', 'failed', 'completed', 'ready', 'scheduled'];
	return Array.from({ length: count }, (_, i) => [
		'social',
		mix[i % mix.length],
		EPOCH - 1000 - Math.floor(random() * 180 * DAY),
	]);
}

const lifecycleStepArb: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 4, arbitrary: fc.record({ t: fc.constant('tick' as const), ms: fc.constant(60_000) }) },
	{
		weight: 4,
		arbitrary: fc.record({ t: fc.constant('poll' as const), failAt: fc.constant(null) }),
	},
	{
		weight: 2,
		arbitrary: fc.record({
			t: fc.constant('create' as const),
			kind: fc.constant('social' as const),
			status: fc.constantFrom('generating', 'generating', 'completed', 'ready'),
			count: fc.integer({ min: 1, max: 5 }),
			skew: fc.constant(0),
		}),
	},
	{
		weight: 4,
		arbitrary: fc.record({
			t: fc.constant('advance' as const),
			pick: fc.nat(1_000_000),
			count: fc.integer({ min: 1, max: 30 }),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({ t: fc.constant('remove' as const), pick: fc.nat(1_000_000) }),
	},
);

/**
 * 10,000 records, statuses moving forward, published growing, records lost; every search
 * finishes within the poll (exactness, not lateness), and the stable orders a database gives.
 */
export const lifecycleScriptArb: fc.Arbitrary<Script> = fc
	.record({
		events: fc.constantFrom(FINISHED_EVENTS, AFTER_FINISH_EVENTS, [
			...FINISHED_EVENTS,
			...AFTER_FINISH_EVENTS,
		]),
		seed: fc.nat(),
		order: fc.constantFrom<SocialOrder>('id', 'newest', 'oldest'),
		steps: fc.array(lifecycleStepArb, { minLength: 8, maxLength: 30 }),
	})
	.map(({ events, seed, order, steps }) => ({
		events: [...events],
		seed,
		order,
		strict: false,
		config: { requestBudget: Infinity },
		initial: agencyAccount(10_000, seed),
		steps: [
			{ t: 'poll', failAt: null },
			...steps,
			{ t: 'tick', ms: 60_000 },
			{ t: 'poll', failAt: null },
		],
	}));

/**
 * The ground truth of ./model, and the cost of an idle poll: once the trigger is not behind, a
 * poll after an interval in which nothing happened costs one request per followed list, one for
 * the whole list and one per record in `publishing`.
 */
export async function runLifecycle(script: Script): Promise<string | null> {
	const lists = watchedSocial(script.events).size;
	let last: { snapshot: Map<string, string>; requests: number; behind: boolean } | undefined;
	return await runScript(script, undefined, (_step, outcome: PollOutcome, world: World) => {
		const snapshot = world.snapshot('social');
		const requests = world.log.length;
		const idle =
			last !== undefined &&
			!last.behind &&
			snapshot.size === last.snapshot.size &&
			[...snapshot].every(([id, status]) => last?.snapshot.get(id) === status);
		const cost = last === undefined ? 0 : requests - last.requests;
		last = { snapshot, requests, behind: outcome.lag.behind };
		// Records in `publishing`, a status no list filter accepts, are read one by one.
		const most = lists + 1 + [...snapshot.values()].filter((s) => s === 'publishing').length;
		if (idle && cost > most) return `an idle poll cost ${cost} requests, not ${most}`;
		return null;
	});
}

/**
 * Content born while the trigger learns an account of `size` finished records at 30 requests a
 * poll: every birth is reported once, by the end of the polls that follow.
 */
export async function runBirthsWhileLearning(
	size: number,
	order: SocialOrder,
	seed: number,
): Promise<string | null> {
	const births: Step[] = [];
	for (let poll = 0; poll < 3; poll++)
		births.push(
			{ t: 'tick', ms: 60_000 },
			{ t: 'create', kind: 'social', status: 'completed', count: 5, skew: 0 },
			{ t: 'poll', failAt: null },
		);
	const settle: Step[] = [];
	const polls = Math.ceil(size / 100 / 30) + 6;
	for (let i = 0; i < polls; i++)
		settle.push({ t: 'tick', ms: 60_000 }, { t: 'poll', failAt: null });
	const script: Script = {
		events: FINISHED_EVENTS,
		seed,
		order,
		strict: false,
		config: { requestBudget: 30 },
		initial: Array.from({ length: size }, (_, i) => [
			'social',
			i % 2 ? 'ready' : 'completed',
			EPOCH - 1000 - i * 1000,
		]),
		steps: [{ t: 'poll', failAt: null }, ...births, ...settle],
	};
	let activation: Set<string> | undefined;
	const reported = new Map<string, number>();
	let learningAtBirth = false;
	let world: World | undefined;
	const problem = await simulate(script, (_step, outcome, w) => {
		world = w;
		activation ??= new Set(w.social.keys());
		if (outcome.lag.learning) learningAtBirth = true;
		for (const item of outcome.items)
			reported.set(item.record.id, (reported.get(item.record.id) ?? 0) + 1);
	});
	if (problem) return problem;
	if (!learningAtBirth)
		return 'the account was learnt in one poll: no birth happened while learning';
	const born = [...(world as World).social.keys()].filter((id) => !activation?.has(id));
	const missing = born.filter((id) => reported.get(id) !== 1);
	if (missing.length > 0) return `${missing.length} of ${born.length} births not reported once`;
	if (reported.size !== born.length) return `${reported.size - born.length} reports of old records`;
	return null;
}
