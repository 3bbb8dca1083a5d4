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

/*
 * Ground truth (./model): the statuses at the last poll that committed against the statuses
 * now. The tracker must report exactly the documented transitions of those changes, one item
 * each, whatever happened in between (several steps, failed polls, restarts, equal timestamps,
 * any social list order, writers' clocks that differ).
 */

/*
 * One seed for every property, so a run is reproducible; CONTENTGEN_PROPERTY_SEED=random (or a
 * number) explores other histories. A counterexample that random seeds found and the tracker
 * still fails is kept below as a failing replay until it is fixed.
 */
const SEED =
	process.env.CONTENTGEN_PROPERTY_SEED === 'random'
		? undefined
		: Number(process.env.CONTENTGEN_PROPERTY_SEED ?? 20261124);
fc.configureGlobal({ seed: SEED });

function holds(runs: number, arb: fc.Arbitrary<Script>): void {
	fc.assert(
		fc.property(arb, (script) => {
			const problem = runScript(script);
			if (problem) throw new Error(problem);
		}),
		{ numRuns: runs },
	);
}

describe('tracker against a ground-truth model', () => {
	it('reports every change of a small account exactly once (1,000 random histories)', () => {
		holds(1000, smallScriptArb);
	});

	it('reports exactly once on accounts of thousands of records, with bursts in flight', () => {
		holds(25, largeScriptArb({ skew: false, ahead: false }));
	});

	it('reports exactly once when writers stamp records with clocks that differ', () => {
		holds(25, largeScriptArb({ skew: true, ahead: true }));
	});

	// The properties must be able to fail: trackers that forget or misjudge are caught.
	type Part = Record<string, unknown>;
	const articles =
		(change: (a: Part) => Part): Mutant =>
		(s) =>
			s.a ? { ...s, a: change(s.a as Part) } : s;
	const social =
		(change: (p: Part) => Part): Mutant =>
		(s) =>
			s.s ? { ...s, s: change(s.s as Part) } : s;
	it.each<[string, Mutant, fc.Arbitrary<Script>]>([
		['forgets the articles in flight', articles((a) => ({ ...a, i: {} })), smallScriptArb],
		[
			'forgets what it read within the look-back',
			articles((a) => ({ ...a, s: [] })),
			smallScriptArb,
		],
		[
			'has no look-back',
			articles((a) => ({ ...a, f: a.c })),
			largeScriptArb({ skew: true, ahead: false }),
		],
		['forgets the followed social records', social((p) => ({ ...p, m: {} })), smallScriptArb],
		[
			'forgets the newest creation time it learnt',
			social((p) => ({ ...p, h: 0 })),
			largeScriptArb({ skew: false, ahead: false }),
		],
		[
			'forgets the recent social records it knows',
			social((p) => ({ ...p, o: [] })),
			largeScriptArb({ skew: true, ahead: false }),
		],
	])('catches a tracker that %s', (_name, mutant, arb) => {
		const result = fc.check(
			fc.property(arb, (script) => runScript(script, mutant) === null),
			{ numRuns: 300 },
		);
		expect(result.failed).toBe(true);
	});

	// Known defect: after a poll cut short by the request budget, a social record that finished is
	// reported a second time (previous null). Seed -2077154222, path 3, of the property below.
	it.failing(
		'within a request budget, reports a record that finished once (known double report)',
		() => {
			const arb = fc.tuple(
				largeScriptArb({ skew: true, ahead: false, orders: ['id', 'newest', 'oldest'] }),
				fc.constantFrom(10, 30),
			);
			fc.assert(
				fc.property(arb, ([script, budget]) => {
					const problem = runLate(script, budget);
					if (problem) throw new Error(problem);
				}),
				{ seed: -2077154222, path: '3', numRuns: 1, endOnFailure: true },
			);
		},
	);

	it('within a request budget per poll, is late but never silent, never wrong, and catches up', () => {
		const arb = fc.tuple(
			largeScriptArb({ skew: true, ahead: false, orders: ['id', 'newest', 'oldest'] }),
			fc.constantFrom(10, 30),
		);
		fc.assert(
			fc.property(arb, ([script, budget]) => {
				const problem = runLate(script, budget);
				if (problem) throw new Error(problem);
			}),
			{ numRuns: 12 },
		);
	});
});
