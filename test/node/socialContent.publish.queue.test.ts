/**
 * Publish > Next Free Slot at the HTTP edge: the requests it sends, the horizon error, and a post
 * another workflow reached first that cannot be moved, reported on the item and as a hint.
 */
import type { INodeProperties } from 'n8n-workflow';

import { queueProperties } from '../../nodes/ContentGen/resources/socialContent/queue/properties';
import { QUEUE } from '../../nodes/ContentGen/resources/socialContent/queue/settings';
import { runWorkflow } from '../helpers/engine';
import { setupNock } from '../helpers/nock';
import { CONTENT_ID, envelope } from './fixtures';
import {
	api,
	emptyQueueThenPost,
	fullQueue,
	OTHER_ID as OTHER,
	QUEUE_NOW as NOW,
	queuedWorkflow as queued,
	scheduledList as list,
} from './socialTools';

describe('Publish, Next Free Slot', () => {
	setupNock();
	beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
	afterEach(() => jest.restoreAllMocks());

	it('reads the record, the scheduled list of its one platform, schedules the first free slot, reads back', async () => {
		const scope = api()
			.get('/api/v1/social/content')
			.query({ status: 'scheduled', platform: 'twitter', page: 1, limit: 100 })
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
			.query({ status: 'scheduled', platform: 'twitter', page: 1, limit: 100 })
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
			.reply(200, fullQueue())
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
		emptyQueueThenPost()
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

	it('after the last read, every post of the run in a slot over Posts per Slot is reported, the one that keeps it too', async () => {
		const second = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
		const scope = emptyQueueThenPost()
			.get(`/api/v1/social/content/${second}`)
			.reply(200, envelope({ id: second, platforms: { twitter: 'caption' } }))
			.post('/api/v1/social/publish')
			.times(7)
			.reply(200, envelope({ status: 'scheduled' }))
			// Others' posts in both slots, never moved by whoever placed them: item 1 is crowded on
			// every read (it moves 5 times), item 0 keeps its slot with a later post beside it.
			.get('/api/v1/social/content')
			.query(true)
			.times(6)
			.reply(
				200,
				list([
					{ id: CONTENT_ID, at: '2026-11-30T09:00:00Z', updated: '2026-11-27T12:00:00Z' },
					{ id: OTHER, at: '2026-11-30T09:00:00Z', updated: '2026-11-27T12:00:01Z' },
					{
						id: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
						at: '2026-12-07T09:00:00Z',
						updated: '2026-11-01T00:00:00Z',
					},
					{ id: second, at: '2026-12-07T09:00:00Z', updated: '2026-11-27T12:00:02Z' },
				]),
			);
		const result = await runWorkflow(queued({}, true), {
			input: [{ id: CONTENT_ID }, { id: second }],
		});
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen').map((item) => item.json.slot_conflict)).toEqual([
			"2026-11-30 09:00 (UTC) holds 2 posts on twitter, over 'Posts per Slot' (1); this post was scheduled first and stays",
			'1 other post was scheduled first in 2026-12-21 09:00 (UTC) on twitter, and the slot still held too many after 5 moves',
		]);
		expect(scope.isDone()).toBe(true);
	});

	it('a tie the ids broke in its favour, still there on the next read: the post leaves the slot to the other', async () => {
		const slot = '2026-11-30T09:00:00Z';
		const tie = [
			{ id: CONTENT_ID, at: slot, updated: '2026-11-27T12:00:00Z' },
			{ id: OTHER, at: slot, updated: '2026-11-27T12:00:00Z' },
		];
		const scope = emptyQueueThenPost()
			.post('/api/v1/social/publish', {
				content_id: CONTENT_ID,
				scheduled_at: '2026-11-30T09:00:00.000Z',
			})
			.reply(200, envelope({ status: 'scheduled' }))
			.get('/api/v1/social/content')
			.query(true)
			.twice()
			.reply(200, list(tie))
			.post('/api/v1/social/publish', {
				content_id: CONTENT_ID,
				scheduled_at: '2026-12-07T09:00:00.000Z',
			})
			.reply(200, envelope({ status: 'scheduled' }))
			.get('/api/v1/social/content')
			.query(true)
			.reply(
				200,
				list([
					tie[1],
					{ id: CONTENT_ID, at: '2026-12-07T09:00:00Z', updated: '2026-11-27T12:00:01Z' },
				]),
			);
		const result = await runWorkflow(queued());
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')[0].json).toMatchObject({
			slot: { scheduled_at: '2026-12-07T09:00:00.000Z' },
			slot_check: 'moved',
			moved_from: ['2026-11-30 09:00'],
		});
		expect(scope.isDone()).toBe(true);
	});

	it('a read back that fails leaves the post where it is, reported as unchecked, not as a conflict', async () => {
		emptyQueueThenPost()
			.post('/api/v1/social/publish')
			.reply(
				200,
				envelope({
					content_id: CONTENT_ID,
					status: 'scheduled',
					scheduled_at: '2026-11-30T09:00:00Z',
				}),
			)
			.get('/api/v1/social/content')
			.query(true)
			.reply(403, { success: false, error: { code: 'FORBIDDEN', message: 'No read permission' } });
		const result = await runWorkflow(queued());
		expect(result.error).toBeUndefined();
		const [item] = result.output('ContentGen');
		expect(item.json.slot_check).toBe('unchecked');
		expect(item.json.slot_conflict).toBeUndefined();
		expect((item.json.slot as { scheduled_at: string }).scheduled_at).toBe(
			'2026-11-30T09:00:00.000Z',
		);
		expect(item.json.status_note).toMatch(
			/^Scheduled, but the scheduled list could not be read back, so its slot was not checked against other workflows: /,
		);
		const task = result.run.data.resultData.runData.ContentGen[0];
		expect(task.hints?.map((hint) => hint.message)).toEqual([
			'1 queued post was scheduled but not checked against other workflows: the scheduled list could not be read back (item 0).',
		]);
	});

	it('a record of another status served despite ?status=scheduled takes no slot', async () => {
		api()
			.get('/api/v1/social/content')
			.query(true)
			.twice()
			.reply(
				200,
				envelope(
					[
						{
							id: OTHER,
							status: 'published',
							platforms: { twitter: 'caption' },
							scheduled_publish_at: '2026-11-30T09:00:00Z',
							updated_at: '2026-11-01T00:00:00Z',
						},
					],
					{ total: 1, page: 1, limit: 100, total_pages: 1, has_more: false },
				),
			)
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope({ id: CONTENT_ID, platforms: { twitter: 'caption' } }))
			.post('/api/v1/social/publish', {
				content_id: CONTENT_ID,
				scheduled_at: '2026-11-30T09:00:00.000Z',
			})
			.reply(200, envelope({ content_id: CONTENT_ID, status: 'scheduled' }));
		const result = await runWorkflow(queued());
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')[0].json.slot).toMatchObject({
			scheduled_at: '2026-11-30T09:00:00.000Z',
		});
	});

	it("keeps the spelling of the Time Zone given (Asia/Kolkata, not Intl's Asia/Calcutta)", async () => {
		emptyQueueThenPost()
			.get('/api/v1/social/content')
			.query(true)
			.reply(
				200,
				list([{ id: CONTENT_ID, at: '2026-11-30T03:30:00Z', updated: '2026-11-27T12:00:00Z' }]),
			)
			.post('/api/v1/social/publish')
			.reply(200, envelope({ content_id: CONTENT_ID, status: 'scheduled' }));
		const result = await runWorkflow(queued({ timeZone: 'Asia/Kolkata' }));
		expect(result.error).toBeUndefined();
		const { json } = result.output('ContentGen')[0];
		expect(json.slot).toMatchObject({
			scheduled_at: '2026-11-30T03:30:00.000Z',
			local_time: '2026-11-30 09:00',
			time_zone: 'Asia/Kolkata',
		});
		expect(json.status_note).toBe(
			'Queued: the service will post at 2026-11-30T03:30:00.000Z (2026-11-30 09:00 Asia/Kolkata).',
		);
	});

	it('a full queue for a LinkedIn + X post names only the platform that was full', async () => {
		api()
			.get('/api/v1/social/content')
			.query(true)
			.reply(200, fullQueue())
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(
				200,
				envelope({ id: CONTENT_ID, platforms: { linkedin: 'caption', twitter: 'caption' } }),
			);
		const result = await runWorkflow(queued({ horizonDays: 14 }));
		expect(result.error?.description).toBe(
			"All 2 slots of the posting times up to the horizon are full on twitter ('Posts per Slot': 1). Widen 'Horizon (Days)', raise 'Posts per Slot' or add 'Posting Times'. Nothing was scheduled for this item.",
		);
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
