/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test reads its seed from the environment */
import fc from 'fast-check';

import { REPEATS } from '../../nodes/ContentGenTrigger/tracker/repeats';
import { smallScriptArb, type Script } from './histories';
import { compare } from './model';
import { expectations, simulate, transitionsOf } from './script';
import { numRuns } from '../helpers/runs';

/*
 * At-least-once delivery against the ground-truth model (./model): the items whose eventId a poll
 * reports for the first time are exactly the changes exactly-once delivery reports; every other
 * item repeats one of the last REPEATS committed polls, with its eventId, and no change is
 * reported more than 1 + REPEATS times.
 */

const SEED =
	process.env.CONTENTGEN_PROPERTY_SEED === 'random'
		? undefined
		: Number(process.env.CONTENTGEN_PROPERTY_SEED ?? 20261124);

async function atLeastOnce(script: Script): Promise<string | null> {
	const atLeast: Script = { ...script, config: { ...script.config, delivery: 'atLeastOnce' } };
	const expected = expectations(script);
	/** eventId -> [committed poll that first reported it, times reported]. */
	const reported = new Map<string, [number, number]>();
	let poll = 0;
	return await simulate(atLeast, (_step, outcome, world) => {
		const changes = expected(world);
		const articles = world.snapshot('article');
		const social = world.snapshot('social');
		const ids = outcome.items.map((item) => item.eventId);
		if (new Set(ids).size !== ids.length) return 'one eventId twice in a poll';
		const first = outcome.items.filter((item) => !reported.has(item.eventId));
		// Every change of the last REPEATS polls comes again (unless its record is gone).
		for (const [id, [at]] of reported) {
			const record = id.split(':')[1];
			const exists = articles.has(record) || social.has(record);
			if (at < poll && poll - at <= REPEATS && exists && !ids.includes(id))
				return `${id} (poll ${at}) not repeated at poll ${poll}`;
		}
		for (const item of outcome.items) {
			const seen = reported.get(item.eventId);
			if (!seen) reported.set(item.eventId, [poll, 1]);
			else if (poll - seen[0] > REPEATS) return `${item.eventId} repeated after ${REPEATS} polls`;
			else seen[1]++;
		}
		poll++;
		return compare(transitionsOf(first), changes);
	});
}

describe('at-least-once delivery against a ground-truth model', () => {
	it('reports every change at least once, each repeat with its eventId, within the bound (100 random histories, 300 deep)', async () => {
		await fc.assert(
			fc.asyncProperty(smallScriptArb, async (script) => {
				const problem = await atLeastOnce(script);
				if (problem) throw new Error(problem);
			}),
			{ numRuns: numRuns(100, 300), seed: SEED },
		);
	});
});
