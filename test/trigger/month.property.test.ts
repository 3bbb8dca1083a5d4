/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test reads its depth from the environment */
/**
 * A month of a busy account, many hazards at once (harness/trigger/month): 3,000 articles and
 * 3,000 social records, births moving through their statuses, old records changing, quick
 * regenerations, bursts of 50 to 300 changes, social records deleted, writers' clocks up to two
 * minutes off, polls that fail part-way, run slowly or are thrown away by a restart; 400 polls a
 * minute apart on a virtual clock, under both Deliveries. The oracle (harness/trigger/month-run)
 * holds every item to the account's own timeline: no miss outside the documented limits, no
 * duplicate under Exactly Once, no ghost, requests per poll and the stored state within bounds.
 *
 * One seed in the default run; CONTENTGEN_DEEP=1 runs many (and both social list orders). A
 * failure prints its seed and the smallest history found that still fails.
 */
import { monthOf, MONTH, type History } from '../../harness/trigger/month';
import { runMonth, type Delivery } from '../../harness/trigger/month-run';
import { describe as describeHistory, shrink } from '../../harness/trigger/month-shrink';
import type { SocialOrder } from '../../harness/trigger/world';

const DEEP = process.env.CONTENTGEN_DEEP === '1';
const QUICK_SEED = 20261127;
const DEEP_SEEDS = Array.from({ length: 24 }, (_, i) => i + 1);

async function holds(history: History, delivery: Delivery): Promise<void> {
	const result = await runMonth(history, delivery);
	if (result.problems.length === 0) {
		// The run did what a month does: polls after the warm-up, each within its bounds.
		expect(result.requests.length).toBeGreaterThan(history.minutes * 0.8);
		expect(result.largestState).toBeLessThanOrEqual(65_000);
		return;
	}
	const shrunk = await shrink(history, delivery, result.firstBad, DEEP ? 60 : 12);
	throw new Error(
		`${result.problems.length} problem(s), first: ${result.problems[0]}\n` +
			`replay: monthOf(${history.seed}, '${history.order}') under ${delivery}\n` +
			describeHistory(shrunk, delivery),
	);
}

describe('a month of a busy account', () => {
	const runs: Array<[number, SocialOrder, Delivery]> = DEEP
		? DEEP_SEEDS.flatMap((seed) =>
				(['id', 'newest'] as const).flatMap((order) =>
					(['exactlyOnce', 'atLeastOnce'] as const).map(
						(delivery): [number, SocialOrder, Delivery] => [seed, order, delivery],
					),
				),
			)
		: [
				[QUICK_SEED, 'id', 'exactlyOnce'],
				[QUICK_SEED, 'id', 'atLeastOnce'],
			];

	it.each(runs)(
		'seed %i, social list in %s order, %s: nothing missed, repeated or made up',
		async (seed, order, delivery) => {
			await holds(monthOf(seed, order), delivery);
		},
		DEEP ? 600_000 : 60_000,
	);

	it('can fail: a trigger that forgets the old articles misses their moves, and says where', async () => {
		const history = monthOf(QUICK_SEED, 'id', { ...MONTH, minutes: 120 });
		const forget = (state: Record<string, unknown>) => {
			delete (state.a as Record<string, unknown>).o;
		};
		const result = await runMonth(history, 'exactlyOnce', 120, forget);
		expect(
			result.problems.some((p) => /missed article .* (cms|needs_editing|failed|archived)>/.test(p)),
		).toBe(true);
		// The same history without the fault holds.
		expect((await runMonth(history, 'exactlyOnce', 120)).problems).toEqual([]);
	}, 60_000);
});
