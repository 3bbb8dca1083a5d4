/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test reads its seed from the environment */
import fc from 'fast-check';

import { smallScriptArb } from './histories';
import { runTimed, type Run, type Timing } from './timed';
import { numRuns } from '../helpers/runs';

/*
 * The small histories of ./histories, played through the node's poll against a service on a
 * virtual clock (./timed): every change reported exactly once, every poll ended by its deadline,
 * and a poll that stores nothing says so. CONTENTGEN_PROPERTY_NO_SHRINK=1 reports the first
 * failing history as found (shrinking a long one takes minutes).
 */
const SEED =
	process.env.CONTENTGEN_PROPERTY_SEED === 'random'
		? undefined
		: Number(process.env.CONTENTGEN_PROPERTY_SEED ?? 20261125);

const timingArb = (
	runs: fc.Arbitrary<Run[]>,
	options: Partial<Record<keyof Timing, unknown>> = {},
) =>
	fc.record({
		latency: options.latency
			? fc.constant(options.latency as Timing['latency'])
			: fc.constantFrom<Timing['latency']>('fast', 'slow', 'hanging'),
		reset: fc.constantFrom<Timing['reset']>('minute', 'hour', 'day', 'week'),
		budgetMs: fc.constantFrom(undefined, 36_000),
		everyMinutes: fc.constantFrom(1, 5),
		runs,
		aheadAt: fc.option(fc.nat(40), { nil: undefined }),
		seed: fc.nat(),
	});

async function holds(runs: number, timing: fc.Arbitrary<Timing>): Promise<void> {
	await fc.assert(
		fc.asyncProperty(smallScriptArb, timing, async (script, t) => {
			const problem = await runTimed(script, t);
			if (problem) throw new Error(problem);
		}),
		{ numRuns: runs, seed: SEED, endOnFailure: process.env.CONTENTGEN_PROPERTY_NO_SHRINK === '1' },
	);
}

describe('the trigger on a virtual clock, against a ground-truth model', () => {
	it('with answers fast, slow (12-15 s) or hanging, reset headers of a minute to a week, one writer 45 minutes ahead, and a 36 s budget or none', async () => {
		await holds(numRuns(50, 150), timingArb(fc.constant<Run[]>(['once'])));
	}, 300_000);

	// n8n's durable scheduler may run one poll twice from the same stored state and keep one result.
	it.each<[string, Run]>([
		[
			'an abandoned poll: the next run starts from the old state 45 s in, either result kept',
			'abandoned',
		],
		['an expired lease: the poll is run again from the old state, the second result kept', 'lease'],
		['a poll that overruns its budget while the next starts (abandoned past 45 s)', 'overrun'],
		['a poll that emits nothing but advances, its state kept or dropped', 'emptyDropped'],
	])(
		'zero duplicates and zero losses with %s',
		async (_name, run) => {
			const runs = fc.array(fc.constantFrom<Run>(run, run, 'once'), { minLength: 1, maxLength: 6 });
			await holds(
				numRuns(20, 60),
				timingArb(runs, run === 'overrun' ? { latency: 'hanging' } : {}),
			);
		},
		300_000,
	);
});
