/**
 * Publish > Next Free Slot against the sandbox over real HTTP: slots in item order from the
 * posting times, what is already scheduled counted, and ten executions at once on one account
 * never leaving a slot over Posts per Slot without saying so on the item.
 */
import type { IDataObject } from 'n8n-workflow';

import { at } from '../../harness/clock';
import { startSandbox, type Sandbox } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';

let sb: Sandbox;

beforeAll(async () => {
	sb = await startSandbox({
		seed: 40,
		speed: 1000,
		latencyMs: 15,
		jitterMs: 10,
		quiet: true,
		socialListOrder: 'created_desc',
	});
});
afterAll(async () => await sb.close());

const EVERY_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

function queue(times: Array<[string, string]>, options: IDataObject = {}) {
	return {
		resource: 'socialContent',
		operation: 'publish',
		contentId: '={{ $json.id }}',
		timing: 'nextFreeSlot',
		postingTimes: { time: times.map(([weekday, timeOfDay]) => ({ weekday, timeOfDay })) },
		queueOptions: { timeZone: 'Europe/Berlin', ...options },
	};
}

async function scheduled(): Promise<Array<{ id: string; at: string; platforms: string[] }>> {
	const out: Array<{ id: string; at: string; platforms: string[] }> = [];
	for (let page = 1; ; page++) {
		const answer = await fetch(
			`${sb.url}/api/v1/social/content?status=scheduled&limit=100&page=${page}`,
			{ headers: { authorization: `Bearer ${sb.apiKey}` } },
		);
		const body = (await answer.json()) as {
			data: Array<{ id: string; scheduled_publish_at: string; platforms: object }>;
			pagination: { has_more: boolean };
		};
		for (const r of body.data) {
			out.push({ id: r.id, at: r.scheduled_publish_at, platforms: Object.keys(r.platforms) });
		}
		if (!body.pagination.has_more) return out;
	}
}

const berlin = (iso: string) =>
	new Intl.DateTimeFormat('en-GB', {
		timeZone: 'Europe/Berlin',
		weekday: 'long',
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	}).format(new Date(iso));

describe('Next Free Slot', () => {
	it('gives items distinct slots in item order, after what is already scheduled', async () => {
		const taken = sb.control.seedSocial(1, { status: 'completed', platforms: ['linkedin'] });
		const first = await runWorkflow(singleNodeWorkflow(queue([['monday', '09:00']])), {
			credentials: { apiKey: sb.apiKey, baseUrl: sb.url },
			input: taken.map((id) => ({ id })),
		});
		expect(first.error).toBeUndefined();
		const firstSlot = first.output('ContentGen')[0].json.slot as IDataObject;
		const ids = sb.control.seedSocial(3, { status: 'completed', platforms: ['linkedin'] });
		const result = await runWorkflow(
			singleNodeWorkflow(
				queue([
					['monday', '09:00'],
					['wednesday', '17:30'],
				]),
			),
			{ credentials: { apiKey: sb.apiKey, baseUrl: sb.url }, input: ids.map((id) => ({ id })) },
		);
		expect(result.error).toBeUndefined();
		const items = result.output('ContentGen');
		expect(items.map((i) => i.json.content_id)).toEqual(ids);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const slots = items.map((i) => i.json.slot as IDataObject);
		const times = slots.map((s) => Date.parse(s.scheduled_at as string));
		expect([...times].sort((a, b) => a - b)).toEqual(times);
		expect(new Set(times).size).toBe(3);
		expect(times).not.toContain(Date.parse(firstSlot.scheduled_at as string));
		for (const s of slots) {
			expect(['Monday 09:00', 'Wednesday 17:30']).toContain(berlin(s.scheduled_at as string));
			expect(s.time_zone).toBe('Europe/Berlin');
			expect(s.platforms).toEqual(['linkedin']);
		}
		expect(items.map((i) => i.json.slot_check)).toEqual(['kept', 'kept', 'kept']);
		const listed = await scheduled();
		for (const [n, id] of ids.entries()) {
			expect(listed.find((r) => r.id === id)?.at).toBe(slots[n].scheduled_at);
		}
	});

	it('refuses bad settings before any request, naming the field and the bound', async () => {
		sb.control.resetRequests();
		const result = await runWorkflow(
			singleNodeWorkflow(queue([['monday', '9:00']], { postsPerSlot: 0 })),
			{
				credentials: { apiKey: sb.apiKey, baseUrl: sb.url },
				input: [{ id: sb.control.seedSocial(1, { status: 'completed' })[0] }],
			},
		);
		expect(result.error?.message).toBe("'Posts per Slot' must be from 1 to 100, got 0 [item 0]");
		expect(sb.control.requests()).toHaveLength(0);
	});

	it('ten executions of five posts at once: no slot over Posts per Slot per platform, or the item says so', async () => {
		const times = EVERY_DAY.flatMap((day) => [
			[day, '09:00'],
			[day, '13:00'],
			[day, '18:00'],
		]) as Array<[string, string]>;
		const runs = Array.from({ length: 10 }, (_run, n) =>
			sb.control
				.seedSocial(5, {
					status: 'completed',
					platforms: n % 2 ? ['linkedin', 'twitter'] : ['twitter', 'instagram'],
				})
				.map((id) => ({ id })),
		);
		const before = new Set((await scheduled()).map((r) => r.id));
		sb.control.resetRequests();
		const results = await Promise.all(
			runs.map(
				async (input) =>
					await runWorkflow(singleNodeWorkflow(queue(times, { horizonDays: 60 })), {
						credentials: { apiKey: sb.apiKey, baseUrl: sb.url },
						input,
					}),
			),
		);
		const items = results.flatMap((r) => {
			expect(r.error).toBeUndefined();
			return r.output('ContentGen').map((i) => i.json);
		});
		expect(items).toHaveLength(50);
		const conflicted = new Set(
			items.filter((i) => i.slot_check === 'conflict').map((i) => i.content_id as string),
		);
		const perSlot = new Map<string, string[]>();
		for (const r of await scheduled()) {
			if (before.has(r.id)) continue;
			for (const p of r.platforms) {
				const key = `${r.at} ${p}`;
				perSlot.set(key, [...(perSlot.get(key) ?? []), r.id]);
			}
		}
		for (const [key, ids] of perSlot) {
			// The post scheduled first keeps the slot; every other one there says so on its item.
			const silent = ids.filter((id) => !conflicted.has(id));
			expect({ key, silent: silent.length <= 1 ? 'at most one' : silent }).toEqual({
				key,
				silent: 'at most one',
			});
		}
		// Every post went to a posting time; the figures of the run for the note.
		for (const i of items) {
			expect(berlin((i.slot as IDataObject).scheduled_at as string)).toMatch(/ (09|13|18):00$/);
		}
		// Nothing shared silently; the bench (bench/queue.ts) prints the moves and requests.
		expect(items.filter((i) => i.slot_check === 'conflict' && !i.slot_conflict)).toEqual([]);
	}, 120_000);
});

describe('Next Free Slot on a service that reorders its list on every request', () => {
	let shuffled: Sandbox;
	beforeAll(async () => {
		// The spec promises no order: the sandbox's default reshuffles the list on every request.
		shuffled = await startSandbox({ seed: 41, speed: 1000, quiet: true });
	});
	afterAll(async () => await shuffled.close());

	it('reads the pages again until every scheduled post is seen, then takes the first free slot', async () => {
		const day = Math.floor(shuffled.control.now().getTime() / 86_400_000) * 86_400_000;
		const hours = [9, 13, 18];
		const slotAt = (i: number) =>
			day + (1 + Math.floor(i / 3)) * 86_400_000 + hours[i % 3] * 3_600_000;
		// 250 posts, one in each of the first 250 slots: a post missed leaves its slot looking free.
		shuffled.control.seedSocial(250, {
			status: 'scheduled',
			platforms: ['linkedin'],
			scheduledAt: slotAt,
		});
		const [id] = shuffled.control.seedSocial(1, { status: 'completed', platforms: ['linkedin'] });
		shuffled.control.resetRequests();
		const result = await runWorkflow(
			singleNodeWorkflow({
				...queue(
					EVERY_DAY.flatMap((d) => [
						[d, '09:00'],
						[d, '13:00'],
						[d, '18:00'],
					]) as Array<[string, string]>,
					{ timeZone: 'UTC', horizonDays: 365 },
				),
			}),
			{ credentials: { apiKey: shuffled.apiKey, baseUrl: shuffled.url }, input: [{ id }] },
		);
		expect(result.error).toBeUndefined();
		const [item] = result.output('ContentGen');
		// Slots before the seeded ones (earlier today) may be free too: the first free one is
		// today's, else the one after the 250th.
		const at = Date.parse(String((item.json.slot as IDataObject).scheduled_at));
		const taken = new Set(Array.from({ length: 250 }, (_x, i) => slotAt(i)));
		expect(taken.has(at)).toBe(false);
		expect(at < slotAt(0) || at === slotAt(250)).toBe(true);
		const lists = shuffled.control.requests().filter((r) => r.path === '/api/v1/social/content');
		expect(lists.length).toBeLessThanOrEqual(2 * (4 + 3 * 10));
	});
});

describe('Next Free Slot on 500 scheduled posts listed in a new order on every request', () => {
	it('reads the list once as a coupon collector would, then its count: 5 posts for at most 50 requests', async () => {
		// Friday 27 November 2026, 10:00 UTC: the 500 posts are scheduled a minute apart before it,
		// then the run starts at 12:00.
		const log = await at('2026-11-27T10:00:00.000Z', async (clock) => {
			const account = await startSandbox({
				seed: 49,
				speed: 1000,
				quiet: true,
				plan: 'Enterprise',
			});
			try {
				const day = Math.floor(Date.now() / 86_400_000) * 86_400_000;
				const answer = await fetch(
					`${account.url}/api/v1/social/content?status=scheduled&limit=1`,
					{
						headers: { authorization: `Bearer ${account.apiKey}` },
					},
				);
				const own = ((await answer.json()) as { pagination: { total: number } }).pagination.total;
				account.control.seedSocial(500 - own, {
					status: 'scheduled',
					platforms: ['linkedin', 'twitter'],
					spacingMs: 60_000,
					scheduledAt: (i) =>
						day + (1 + Math.floor(i / 3)) * 86_400_000 + [9, 13, 18][i % 3] * 3_600_000,
				});
				clock.advance(2 * 3_600_000);
				const input = account.control
					.seedSocial(5, { status: 'completed', platforms: ['linkedin', 'twitter'] })
					.map((id) => ({ id }));
				account.control.resetRequests();
				const result = await runWorkflow(
					singleNodeWorkflow(
						queue(
							EVERY_DAY.flatMap((d) => [
								[d, '09:00'],
								[d, '13:00'],
								[d, '18:00'],
							]) as Array<[string, string]>,
							{ timeZone: 'UTC', horizonDays: 60, postsPerSlot: 2 },
						),
					),
					{ credentials: { apiKey: account.apiKey, baseUrl: account.url }, input },
				);
				expect(result.error).toBeUndefined();
				expect(result.output('ContentGen').map((i) => i.json.slot_check)).toEqual(
					Array(5).fill('kept'),
				);
				return account.control.requests();
			} finally {
				await account.close();
			}
		});
		const firstPost = log.findIndex((r) => r.method === 'POST');
		const lists = log.filter((r) => r.path === '/api/v1/social/content');
		expect(lists.filter((r) => log.indexOf(r) > firstPost)).toHaveLength(1);
		expect(log.length).toBeLessThanOrEqual(50);
	});
});
