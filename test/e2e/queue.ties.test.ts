/**
 * Publish > Next Free Slot against services that keep the spec and differ from the sandbox's
 * defaults: stamps in whole seconds, so posts scheduled in one second tie on `updated_at`.
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
