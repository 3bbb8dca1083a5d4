/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test reads its seed from the environment */
import fc from 'fast-check';

import { lifecycleScriptArb, runBirthsWhileLearning, runLifecycle } from './lifecycle';
import { numRuns } from '../helpers/runs';

/*
 * The social trigger on accounts of 10,000 records whose statuses move forward, whose terminal
 * lists keep growing and which lose records: every change reported exactly once (./model), idle
 * polls at one request per followed list plus one, and content born while the account is being
 * learnt reported once. Same seed rule as ./tracker.property.test.ts.
 */
const SEED =
	process.env.CONTENTGEN_PROPERTY_SEED === 'random'
		? undefined
		: Number(process.env.CONTENTGEN_PROPERTY_SEED ?? 20261125);
fc.configureGlobal({ seed: SEED });

describe('social trigger on agency accounts', () => {
	it('reports exactly once, with idle polls that do not grow, as published grows and records are lost', async () => {
		await fc.assert(
			fc.asyncProperty(lifecycleScriptArb, async (script) => {
				const problem = await runLifecycle(script);
				if (problem) throw new Error(problem);
			}),
			{ numRuns: numRuns(5, 15) },
		);
	});

	it.each([
		[10_000, 'id' as const],
		[10_000, 'newest' as const],
		[10_000, 'oldest' as const],
	])('reports every birth while it learns %d finished records (%s order)', async (size, order) => {
		expect(await runBirthsWhileLearning(size, order, 5)).toBeNull();
	});
});
