import nock from 'nock';

import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import { withoutStrayRequests } from '../helpers/nock';
import { CONTENT_ID, envelope } from './fixtures';

/** The service, answering only requests that carry the test key. */
export const api = () =>
	nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });
export const CONTENT_ID_2 = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

/** Runs the social content resource with `parameters` and expects `field` refused, nothing sent. */
export async function expectRejected(parameters: Record<string, unknown>, field: string) {
	await withoutStrayRequests(async () => {
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'socialContent', ...parameters }),
		);
		expect(result.error?.message.startsWith(`'${field}' must`)).toBe(true);
		expect(result.error?.description).toContain(`Change '${field}' for this item`);
	});
}

// Publish > Next Free Slot at the HTTP edge. Friday 27 November 2026, 12:00 UTC: the next Monday
// 09:00 UTC is 30 November.
export const QUEUE_NOW = Date.parse('2026-11-27T12:00:00Z');
export const OTHER_ID = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';

/** Publish > Next Free Slot of CONTENT_ID, or of each input item's `id` with `perItem`. */
export const queuedWorkflow = (options: Record<string, unknown> = {}, perItem = false) =>
	singleNodeWorkflow({
		resource: 'socialContent',
		operation: 'publish',
		contentId: perItem ? '={{ $json.id }}' : CONTENT_ID,
		timing: 'nextFreeSlot',
		postingTimes: { time: [{ weekday: 'monday', timeOfDay: '09:00' }] },
		queueOptions: { timeZone: 'UTC', ...options },
	});

/** A scheduled list of one page: twitter posts at their times, last changed at `updated`. */
export const scheduledList = (records: Array<{ id: string; at: string; updated: string }>) =>
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

/** Both Monday slots before a 14-day horizon, each taken by another post. */
export const fullQueue = () =>
	scheduledList([
		{ id: OTHER_ID, at: '2026-11-30T09:00:00Z', updated: '2026-11-01T00:00:00Z' },
		{
			id: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
			at: '2026-12-07T09:00:00Z',
			updated: '2026-11-01T00:00:00Z',
		},
	]);

/** An empty queue and the X post to schedule: the two reads before its publish. */
export const emptyQueueThenPost = () =>
	api()
		.get('/api/v1/social/content')
		.query(true)
		.reply(200, scheduledList([]))
		.get(`/api/v1/social/content/${CONTENT_ID}`)
		.reply(200, envelope({ id: CONTENT_ID, platforms: { twitter: 'caption' } }));
