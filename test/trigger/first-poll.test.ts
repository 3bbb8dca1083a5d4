/**
 * Social records created while the trigger's first poll reads the whole list to learn the account,
 * then n8n stopped for a few minutes: they were created after activation, so they are new, and a
 * record born in a status no list the trigger follows shows (`failed`, `published`) is found by
 * the count and the search, once, under either Delivery.
 */
import { runPoll, type TriggerEvent } from '../../nodes/ContentGenTrigger/tracker';
import type { Delivery } from '../../nodes/ContentGenTrigger/tracker/repeats';
import { prng, World, type SocialOrder } from '../../harness/trigger/world';

const MINUTE = 60_000;
const DAY = 86_400_000;
const EVENTS: TriggerEvent[] = ['socialFinished', 'socialFailed', 'socialPublished'];

/** 3,000 social records of the last 40 days; births land after `at` requests of the first poll. */
async function firstPollThenStop(
	order: SocialOrder,
	delivery: Delivery,
	at: number,
): Promise<{ born: string[]; reported: string[]; notes: string[] }> {
	const world = new World(prng(5), { socialOrder: order });
	for (let i = 0; i < 3000; i++) {
		const status = i % 20 === 19 ? 'completed' : 'published';
		world.create('social', status, { created: world.now - 40 * DAY + i * 1_150_000 });
	}
	let stored: unknown = {};
	const born: string[] = [];
	const reported: string[] = [];
	const notes: string[] = [];
	for (let poll = 0; poll < 8; poll++) {
		// n8n stopped for three minutes after the first poll.
		world.tick(poll === 1 ? 4 * MINUTE : MINUTE);
		let requests = 0;
		const outcome = await runPoll(
			stored,
			{ events: EVENTS, scope: 'all', now: world.now, delivery },
			(request) => {
				if (poll === 0 && ++requests === at) {
					for (const status of ['failed', 'published']) {
						world.tick(1_000);
						born.push(world.create('social', status));
					}
				}
				return world.answer(request);
			},
		);
		stored = JSON.parse(JSON.stringify(outcome.state));
		for (const item of outcome.items) reported.push(`${item.record.id} ${item.event}`);
		for (const note of outcome.lag.notes) notes.push(`poll ${poll}: ${note}`);
	}
	return { born, reported, notes };
}

describe('social records created while the first poll reads the whole list', () => {
	it.each<[SocialOrder, Delivery, number]>([
		['id', 'exactlyOnce', 15],
		['id', 'exactlyOnce', 25],
		['newest', 'exactlyOnce', 15],
		['id', 'atLeastOnce', 20],
	])(
		'are new: reported after the restart (%s order, %s, born after %i requests)',
		async (order, delivery, at) => {
			const { born, reported, notes } = await firstPollThenStop(order, delivery, at);
			const once = [...new Set(reported)];
			expect({ reported: once, notes }).toEqual({
				reported: [`${born[0]} socialFailed`, `${born[1]} socialPublished`],
				notes: [],
			});
		},
	);
});

describe('on an account of 10,000 social records, learnt over several polls', () => {
	it.each<[SocialOrder, Delivery, number]>([
		['id', 'exactlyOnce', 12],
		['id', 'atLeastOnce', 30],
		['newest', 'exactlyOnce', 20],
	])(
		'a record born failed while the first poll learns is found, and its next move has the status it left (%s order, %s, born after %i requests)',
		async (order, delivery, at) => {
			const world = new World(prng(9), { socialOrder: order });
			for (let i = 0; i < 10_000; i++) {
				const status = i % 20 === 19 ? 'completed' : 'published';
				world.create('social', status, { created: world.now - 40 * DAY + i * 345_000 });
			}
			const events: TriggerEvent[] = [...EVENTS, 'socialStatusChanged'];
			let stored: unknown = {};
			let born = '';
			const reported: string[] = [];
			for (let poll = 0; poll < 16; poll++) {
				world.tick(MINUTE);
				if (poll === 10) world.set('social', born, 'generating');
				let requests = 0;
				const outcome = await runPoll(
					stored,
					{ events, scope: 'all', now: world.now, delivery },
					(request) => {
						if (poll === 0 && ++requests === at) {
							world.tick(30_000);
							born = world.create('social', 'failed');
						}
						return world.answer(request);
					},
				);
				stored = JSON.parse(JSON.stringify(outcome.state));
				for (const item of outcome.items)
					reported.push(`${item.record.id} ${item.previousStatus}>${item.record.status}`);
			}
			expect([...new Set(reported)]).toEqual([`${born} null>failed`, `${born} failed>generating`]);
		},
		60_000,
	);
});
