/**
 * A month of a busy account, many hazards at once (harness/trigger/month): 3,000 articles and
 * 3,000 social records, births moving through their statuses, old records changing, quick
 * regenerations, bursts of 50 to 300 changes, social records deleted, writers' clocks up to two
 * minutes off, polls that fail part-way, run slowly or are thrown away by a restart; 400 polls a
 * minute apart on a virtual clock, under both Deliveries. The oracle (harness/trigger/month-run)
 * holds every item to the account's own timeline: no miss outside the documented limits, no
 * duplicate under Exactly Once, no ghost, requests per poll and the stored state within bounds.
 *
 * One seed in the default run; CONTENTGEN_DEEP=1 runs many (and both social list orders) in child
 * processes, one per core (./month-runs). A failure prints its seed and the smallest history
 * found that still fails.
 */
import { monthOf, MONTH } from '../../harness/trigger/month';
import { runMonth } from '../../harness/trigger/month-run';
import { DEEP, deepRun, holds } from './month-runs';

const QUICK_SEED = 20261127;

describe('a month of a busy account', () => {
	if (DEEP) deepRun();
	else
		it.each([['exactlyOnce'], ['atLeastOnce']] as const)(
			`seed ${QUICK_SEED}, social list in id order, %s: nothing missed, repeated or made up`,
			async (delivery) => {
				await holds(monthOf(QUICK_SEED, 'id'), delivery);
			},
		);

	// Services that read the spec's silences otherwise, on a shorter month: time-ordered ids (a
	// burst's records share their leading 48 bits) and stamps in whole seconds (equal updated_at).
	it.each([
		['v7', 'ms', 'exactlyOnce'],
		['v4', 's', 'atLeastOnce'],
	] as const)(
		`seed ${QUICK_SEED}, 150 minutes, %s ids, stamps in %s, %s: nothing missed, repeated or made up`,
		async (ids, stamps, delivery) => {
			await holds(monthOf(QUICK_SEED, 'id', { ...MONTH, minutes: 150, ids, stamps }), delivery);
		},
		60_000,
	);

	it('can fail: a trigger that forgets the old articles misses their moves, and says where', async () => {
		const history = monthOf(QUICK_SEED, 'id', { ...MONTH, minutes: 120 });
		const forget = (state: Record<string, unknown>) => {
			(state.articles as Record<string, unknown>).finished = {};
		};
		const result = await runMonth(history, 'exactlyOnce', 120, forget);
		expect(
			result.problems.some((p) => /missed article .* (cms|needs_editing|failed|archived)>/.test(p)),
		).toBe(true);
		// The same history without the fault holds.
		expect((await runMonth(history, 'exactlyOnce', 120)).problems).toEqual([]);
	}, 60_000);
});
