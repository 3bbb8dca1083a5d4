/**
 * Publish > Next Free Slot against services that keep the spec and differ from the sandbox's
 * defaults: stamps in whole seconds, so posts scheduled in one second tie on `updated_at`; a list
 * reshuffled on every request while other executions schedule; a loose status filter.
 */
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';

// Friday 27 November 2026, 12:00:00.250 UTC: every stamp of the run falls in this second.
const NOW = Date.parse('2026-11-27T12:00:00.250Z');

const queue = (times: Array<[string, string]>) => ({
	resource: 'socialContent',
	operation: 'publish',
	contentId: '={{ $json.id }}',
	timing: 'nextFreeSlot',
	postingTimes: { time: times.map(([weekday, timeOfDay]) => ({ weekday, timeOfDay })) },
	queueOptions: { timeZone: 'UTC', horizonDays: 14 },
});

describe('Next Free Slot, stamps in whole seconds', () => {
	let sb: Sandbox;
	beforeEach(async () => {
		// The clock stands still: the two executions' publishes share one updated_at.
		jest.spyOn(Date, 'now').mockReturnValue(NOW);
		sb = await startSandbox({
			seed: 45,
			speed: 1000,
			stamps: 's',
			socialListOrder: 'created_desc',
		});
	});
	afterEach(async () => {
		await sb.close();
		jest.restoreAllMocks();
	});

	it('two executions tie in a slot of one: exactly one moves, once, to the next free slot', async () => {
		const ids = sb.control.seedSocial(2, { status: 'completed', platforms: ['linkedin'] });
		sb.control.resetRequests();
		const results = await Promise.all(
			ids.map(
				async (id) =>
					await runWorkflow(
						singleNodeWorkflow(
							queue([
								['monday', '09:00'],
								['wednesday', '09:00'],
							]),
						),
						{ credentials: { apiKey: sb.apiKey, baseUrl: sb.url }, input: [{ id }] },
					),
			),
		);
		const items = results.map((r) => {
			expect(r.error).toBeUndefined();
			return r.output('ContentGen')[0].json;
		});
		const slots = items.map((i) => (i.slot as IDataObject).scheduled_at).sort();
		expect(slots).toEqual(['2026-11-30T09:00:00.000Z', '2026-12-02T09:00:00.000Z']);
		expect(items.map((i) => i.slot_check).sort()).toEqual(['kept', 'moved']);
		const moved = items.find((i) => i.slot_check === 'moved');
		expect(moved?.moved_from).toEqual(['2026-11-30 09:00']);
		const publishes = sb.control.requests().filter((r) => r.path === '/api/v1/social/publish');
		expect(publishes.map((r) => (r.body as IDataObject).scheduled_at).sort()).toEqual([
			'2026-11-30T09:00:00.000Z',
			'2026-11-30T09:00:00.000Z',
			'2026-12-02T09:00:00.000Z',
		]);
	});
});

const EVERY_DAY = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const TIMES = EVERY_DAY.flatMap((day) => [
	[day, '09:00'],
	[day, '13:00'],
	[day, '18:00'],
]) as Array<[string, string]>;
const DAY = 86_400_000;

/** Ten executions of five posts at once on an account with 250 posts already scheduled. */
async function crowd(sb: Sandbox) {
	const today = Math.floor(sb.control.now().getTime() / DAY) * DAY;
	sb.control.seedSocial(250, {
		status: 'scheduled',
		platforms: ['linkedin', 'twitter'],
		scheduledAt: (i) =>
			i < 60
				? today + (1 + Math.floor(i / 3)) * DAY + [9, 13, 18][i % 3] * 3_600_000
				: today + (21 + i) * DAY + 10.5 * 3_600_000,
	});
	const runs = Array.from({ length: 10 }, () =>
		sb.control
			.seedSocial(5, { status: 'completed', platforms: ['linkedin', 'twitter'] })
			.map((id) => ({ id })),
	);
	return await Promise.all(
		runs.map(
			async (input) =>
				await runWorkflow(
					singleNodeWorkflow({
						...queue(TIMES),
						queueOptions: { timeZone: 'UTC', horizonDays: 120 },
					}),
					{
						credentials: { apiKey: sb.apiKey, baseUrl: sb.url },
						input,
					},
				),
		),
	);
}

describe('Next Free Slot on a list reshuffled on every request, ten executions at once', () => {
	it.each([
		['ms', 46, false],
		['s', 47, true],
	] as const)(
		'stamps in %s (loose status filter: %s): no execution fails, every post over Posts per Slot reported',
		async (stamps, seed, looseStatusFilter) => {
			// Enterprise: the key's budget is not what is measured here (bench/queue.ts counts requests).
			const sb = await startSandbox({
				seed,
				speed: 1000,
				latencyMs: 15,
				jitterMs: 10,
				stamps,
				looseStatusFilter,
				plan: 'Enterprise',
			});
			try {
				const results = await crowd(sb);
				expect(results.map((r) => r.error?.message ?? 'ok')).toEqual(Array(10).fill('ok'));
				const items = results.flatMap((r) => r.output('ContentGen').map((i) => i.json));
				expect(items).toHaveLength(50);
				const reported = new Set(
					items.filter((i) => i.slot_check === 'conflict').map((i) => i.content_id as string),
				);
				// The posts as the service holds them at the end, each slot's in the service's order.
				const perSlot = new Map<string, Array<{ id: string; updated: string }>>();
				for (const i of items) {
					const answer = await fetch(`${sb.url}/api/v1/social/content/${String(i.content_id)}`, {
						headers: { authorization: `Bearer ${sb.apiKey}` },
					});
					const { data } = (await answer.json()) as { data: Record<string, string> };
					const key = data.scheduled_publish_at;
					perSlot.set(key, [
						...(perSlot.get(key) ?? []),
						{ id: data.id, updated: data.updated_at },
					]);
				}
				// In a slot over Posts per Slot (1), every post but one says so on its item: the one that
				// may not is a post whose execution finished before the others arrived, which in a tie of
				// whole seconds the ids may place first or last.
				const silent = [...perSlot.values()].flatMap((posts) =>
					posts
						.filter((post) => !reported.has(post.id))
						.slice(1)
						.map((post) => post.id),
				);
				expect(silent).toEqual([]);
			} finally {
				await sb.close();
			}
		},
		120_000,
	);
});
