import fc from 'fast-check';

import { largeScriptArb, runScript, smallScriptArb, type Script } from './histories';

/*
 * Ground truth (./model): the statuses at the last poll that committed against the statuses
 * now. The tracker must report exactly the documented transitions of those changes, one item
 * each, whatever happened in between (several steps, failed polls, restarts, equal timestamps,
 * any social list order, writers' clocks that differ).
 */

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
});
