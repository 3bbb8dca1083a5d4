/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test reads its seed from the environment */
import fc from 'fast-check';

import {
	largeScriptArb,
	runLate,
	runScript,
	smallScriptArb,
	type Mutant,
	type Script,
} from './histories';
import { numRuns } from '../helpers/runs';

/*
 * Ground truth (./model): the statuses at the last poll that committed against the statuses
 * now. The tracker must report exactly the documented transitions of those changes, one item
 * each, whatever happened in between (several steps, failed polls, restarts, equal timestamps,
 * any social list order, writers' clocks that differ).
 */

/*
 * One seed for every property, so a run is reproducible; CONTENTGEN_PROPERTY_SEED=random (or a
 * number) explores other histories. Counterexamples that random seeds found are replayed below.
 */
const SEED =
	process.env.CONTENTGEN_PROPERTY_SEED === 'random'
		? undefined
		: Number(process.env.CONTENTGEN_PROPERTY_SEED ?? 20261124);
fc.configureGlobal({ seed: SEED });

async function holds(runs: number, arb: fc.Arbitrary<Script>): Promise<void> {
	await fc.assert(
		fc.asyncProperty(arb, async (script) => {
			const problem = await runScript(script);
			if (problem) throw new Error(problem);
		}),
		{ numRuns: runs },
	);
}

describe('tracker against a ground-truth model', () => {
	it('reports every change of a small account exactly once (200 random histories, 1,000 deep)', async () => {
		await holds(numRuns(200, 1000), smallScriptArb);
	});

	it('reports exactly once on accounts of thousands of records, with bursts in flight', async () => {
		await holds(numRuns(8, 25), largeScriptArb({ skew: false, ahead: false }));
	});

	it('reports exactly once when writers stamp records with clocks that differ', async () => {
		await holds(numRuns(8, 25), largeScriptArb({ skew: true, ahead: true }));
	});

	// The properties must be able to fail: trackers that forget or misjudge are caught.
	type Part = Record<string, unknown>;
	const articles =
		(change: (a: Part) => Part): Mutant =>
		(s) =>
			s.articles ? { ...s, articles: change(s.articles as Part) } : s;
	const social =
		(change: (p: Part) => Part): Mutant =>
		(s) =>
			s.social ? { ...s, social: change(s.social as Part) } : s;
	it.each<[string, Mutant, fc.Arbitrary<Script>]>([
		['forgets the articles in flight', articles((a) => ({ ...a, pending: {} })), smallScriptArb],
		[
			'forgets what it read within the look-back',
			articles((a) => ({ ...a, finished: {} })),
			smallScriptArb,
		],
		[
			'has no look-back',
			articles((a) => ({ ...a, floor: a.cursor })),
			largeScriptArb({ skew: true, ahead: false }),
		],
		[
			'forgets the followed social records',
			social((p) => ({ ...p, followed: {} })),
			smallScriptArb,
		],
		[
			'forgets the newest creation time it learnt',
			social((p) => ({ ...p, newRecords: { ...(p.newRecords as Part), newestCreated: 0 } })),
			largeScriptArb({ skew: false, ahead: false }),
		],
		[
			'forgets the recent social records it knows',
			social((p) => ({ ...p, newRecords: { ...(p.newRecords as Part), recent: {} } })),
			largeScriptArb({ skew: true, ahead: false }),
		],
	])('catches a tracker that %s', async (_name, mutant, arb) => {
		const result = await fc.check(
			fc.asyncProperty(arb, async (script) => (await runScript(script, mutant)) === null),
			// the first failure is the answer: shrinking it would only take time
			{ numRuns: 300, endOnFailure: true },
		);
		expect(result.failed).toBe(true);
	});

	const lateArb = fc.tuple(
		largeScriptArb({ skew: true, ahead: false, orders: ['id', 'newest', 'oldest'] }),
		fc.constantFrom(10, 30),
	);
	const lateHolds = (parameters: fc.Parameters<[[Script, number]]>) =>
		fc.assert(
			fc.asyncProperty(lateArb, async ([script, budget]) => {
				const problem = await runLate(script, budget);
				if (problem) throw new Error(problem);
			}),
			parameters,
		);

	// Histories random seeds found. While the births of a burst were still searched for over polls,
	// the stored state held them twice and overflowed; what was forgotten to make room was then
	// reported twice (a finished social record) or not at all (an article in flight). A search of a
	// newest-first list read page 2 again in the same poll, took the list for one whose order moves,
	// and searched it for a hundred polls.
	it.each([
		[-2077154222, '3', 'reported a finished social record twice'],
		[831208816, '2', 'lost an article completion'],
		[8229203, '7', 'was still behind after 26 idle polls'],
	])(
		'within a request budget, holds on the history of seed %d path %s (it once %s)',
		async (seed, path) => {
			await lateHolds({ seed, path, numRuns: 1, endOnFailure: true });
		},
	);

	it('within a request budget per poll, is late but never silent, never wrong, and catches up', async () => {
		await lateHolds({ numRuns: numRuns(4, 12) });
	});
});
