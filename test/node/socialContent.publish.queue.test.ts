/**
 * Publish > Next Free Slot at the HTTP edge: the requests it sends, the horizon error, and a post
 * another workflow reached first that cannot be moved, reported on the item and as a hint.
 */
import type { INodeProperties } from 'n8n-workflow';

import { queueProperties } from '../../nodes/ContentGen/resources/socialContent/queue/properties';
import { QUEUE } from '../../nodes/shared/queue/settings';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import { setupNock } from '../helpers/nock';
import { CONTENT_ID, envelope } from './fixtures';
import { api } from './socialTools';

// Friday 27 November 2026, 12:00 UTC: the next Monday 09:00 UTC is 30 November.
const NOW = Date.parse('2026-11-27T12:00:00Z');
const OTHER = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';

const queued = (options: Record<string, unknown> = {}) =>
	singleNodeWorkflow({
		resource: 'socialContent',
		operation: 'publish',
		contentId: CONTENT_ID,
		timing: 'nextFreeSlot',
		postingTimes: { time: [{ weekday: 'monday', timeOfDay: '09:00' }] },
		queueOptions: { timeZone: 'UTC', ...options },
	});

const list = (records: Array<{ id: string; at: string; updated: string }>) =>
	envelope(
		records.map((r) => ({
			id: r.id,
			status: 'scheduled',
			platforms: { twitter: 'caption' },
			scheduled_publish_at: r.at,
			updated_at: r.updated,
		})),
		{ total: records.length, page: 1, limit: 100, total_pages: 1, has_more: false },
	);

describe('Publish, Next Free Slot', () => {
	setupNock();
	beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
	afterEach(() => jest.restoreAllMocks());

	it('reads the scheduled list and the record, schedules the first free slot, reads back', async () => {
		const scope = api()
			.get('/api/v1/social/content')
			.query({ status: 'scheduled', page: 1, limit: 100 })
			.reply(
				200,
				list([{ id: OTHER, at: '2026-11-30T09:00:00Z', updated: '2026-11-01T00:00:00Z' }]),
			)
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope({ id: CONTENT_ID, platforms: { twitter: 'caption' } }))
			.post('/api/v1/social/publish', {
				content_id: CONTENT_ID,
				scheduled_at: '2026-12-07T09:00:00.000Z',
			})
			.reply(
				200,
				envelope({
					content_id: CONTENT_ID,
					status: 'scheduled',
					scheduled_at: '2026-12-07T09:00:00Z',
				}),
			)
			.get('/api/v1/social/content')
			.query({ status: 'scheduled', page: 1, limit: 100 })
			.reply(
				200,
				list([
					{ id: OTHER, at: '2026-11-30T09:00:00Z', updated: '2026-11-01T00:00:00Z' },
					{ id: CONTENT_ID, at: '2026-12-07T09:00:00Z', updated: '2026-11-27T12:00:01Z' },
				]),
			);
		const result = await runWorkflow(queued());
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')[0].json).toMatchObject({
			content_id: CONTENT_ID,
			status: 'scheduled',
			publish_mode: 'queued',
			slot: {
				scheduled_at: '2026-12-07T09:00:00.000Z',
				local_time: '2026-12-07 09:00',
				posting_time: 'Monday 09:00',
				time_zone: 'UTC',
				platforms: ['twitter'],
			},
			slot_check: 'kept',
		});
		expect(scope.isDone()).toBe(true);
	});

	it('past the horizon: names it and how many slots were full, and posts nothing', async () => {
		api()
			.get('/api/v1/social/content')
			.query(true)
			.reply(
				200,
				list([
					{ id: OTHER, at: '2026-11-30T09:00:00Z', updated: '2026-11-01T00:00:00Z' },
					{
						id: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
						at: '2026-12-07T09:00:00Z',
						updated: '2026-11-01T00:00:00Z',
					},
				]),
			)
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope({ id: CONTENT_ID, platforms: { twitter: 'caption' } }));
		const result = await runWorkflow(queued({ horizonDays: 14 }));
		expect(result.error?.message).toBe(
			"No free slot before the horizon, 2026-12-11T12:00:00.000Z ('Horizon (Days)': 14) [item 0]",
		);
		expect(result.error?.description).toBe(
			"All 2 slots of the posting times up to the horizon are full on twitter ('Posts per Slot': 1). Widen 'Horizon (Days)', raise 'Posts per Slot' or add 'Posting Times'. Nothing was scheduled for this item.",
		);
	});

	it('a slot another post reached first, and a move the service refuses: reported on the item and as a hint', async () => {
		const slot = '2026-11-30T09:00:00Z';
		api()
			.get('/api/v1/social/content')
			.query(true)
			.reply(200, list([]))
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope({ id: CONTENT_ID, platforms: { twitter: 'caption' } }))
			.post('/api/v1/social/publish', {
				content_id: CONTENT_ID,
				scheduled_at: '2026-11-30T09:00:00.000Z',
			})
			.reply(200, envelope({ content_id: CONTENT_ID, status: 'scheduled', scheduled_at: slot }))
			.get('/api/v1/social/content')
			.query(true)
			.reply(
				200,
				list([
					{ id: OTHER, at: slot, updated: '2026-11-27T12:00:00Z' },
					{ id: CONTENT_ID, at: slot, updated: '2026-11-27T12:00:01Z' },
				]),
			)
			.post('/api/v1/social/publish', {
				content_id: CONTENT_ID,
				scheduled_at: '2026-12-07T09:00:00.000Z',
			})
			.reply(409, { success: false, error: { code: 'CONFLICT', message: 'Already scheduled' } });
		const result = await runWorkflow(queued());
		expect(result.error).toBeUndefined();
		const [item] = result.output('ContentGen');
		expect(item.json.slot_check).toBe('conflict');
		expect(item.json.slot_conflict).toMatch(
			/^another post was scheduled first in its slot, and moving it failed: The service refused to publish this social content again/,
		);
		const task = result.run.data.resultData.runData.ContentGen[0];
		expect(task.hints?.map((hint) => hint.message)).toEqual([
			"1 queued post may share a slot over 'Posts per Slot' with posts scheduled elsewhere (item 0): see slot_conflict on the item.",
		]);
	});

	it('the editor shows the defaults an unset option means (lead 10 minutes, horizon 30 days, 1 a slot)', () => {
		const options = queueProperties.find((p) => p.name === 'queueOptions')
			?.options as INodeProperties[];
		const shown = Object.fromEntries(options.map((o) => [o.name, o.default]));
		expect(shown).toEqual({ horizonDays: 30, leadMinutes: 10, postsPerSlot: 1, timeZone: '' });
		expect([
			QUEUE.horizonDays.default,
			QUEUE.leadMinutes.default,
			QUEUE.postsPerSlot.default,
		]).toEqual([30, 10, 1]);
		expect(queueProperties.find((p) => p.name === 'timing')?.default).toBe('asSet');
	});
});
