/**
 * Publish > Next Free Slot reading the scheduled list at the HTTP edge: a list that never shows all
 * it counts fails the item with the last read's figures before anything is scheduled, and, read
 * back after scheduling, leaves the post where it is, reported as unchecked with those figures.
 */
import { runWorkflow } from '../helpers/engine';
import { setupNock } from '../helpers/nock';
import { CONTENT_ID, envelope } from './fixtures';
import {
	api,
	emptyQueueThenPost,
	fullQueue,
	QUEUE_NOW as NOW,
	queuedWorkflow as queued,
} from './socialTools';

/** Two records shown, three counted, on every read. */
function shortList(): [number, unknown] {
	const page = fullQueue();
	return [
		200,
		{ ...page, pagination: { ...(page.pagination as object), total: 3, has_more: true } },
	];
}

describe('Publish, Next Free Slot, a list that cannot be read whole', () => {
	setupNock();
	beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
	afterEach(() => jest.restoreAllMocks());

	it('a list that never shows all it counts: the item fails with the figures of the last read, nothing scheduled', async () => {
		let reads = 0;
		api()
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope({ id: CONTENT_ID, platforms: { twitter: 'caption' } }))
			.get('/api/v1/social/content')
			.query(true)
			.times(100)
			.reply(() => {
				reads++;
				return shortList();
			});
		const result = await runWorkflow(queued());
		expect(result.error?.message).toBe(
			'Could not read every scheduled post, so the free slots are unknown [item 0]',
		);
		expect(result.error?.description).toBe(
			'Incomplete list: 2 of the 3 records the service last reported were read, in 17 reads of its pages; 16 reads in a row brought no record not already read. Nothing was scheduled from this read; run the node again.',
		);
		expect(reads).toBe(1 + 16);
	});

	it('read back: the post stays where it is, unchecked, with the figures of the last read', async () => {
		emptyQueueThenPost()
			.post('/api/v1/social/publish')
			.reply(200, envelope({ content_id: CONTENT_ID, status: 'scheduled' }))
			.get('/api/v1/social/content')
			.query(true)
			.times(17)
			.reply(shortList);
		const result = await runWorkflow(queued());
		expect(result.error).toBeUndefined();
		const { json } = result.output('ContentGen')[0];
		expect(json.slot_check).toBe('unchecked');
		expect(json.slot).toMatchObject({ scheduled_at: '2026-11-30T09:00:00.000Z' });
		expect(json.status_note).toBe(
			'Scheduled, but the scheduled list could not be read back, so its slot was not checked against other workflows: Incomplete list: 2 of the 3 records the service last reported were read, in 17 reads of its pages; 16 reads in a row brought no record not already read',
		);
	});
});
