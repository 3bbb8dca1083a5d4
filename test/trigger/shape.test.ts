import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { LIST_FIELDS } from '../../nodes/ContentGenTrigger/tracker/items';
import type { ListResult, TrackedRecord } from '../../nodes/ContentGenTrigger/tracker/reader';
import { pollHarness, type PollHarness } from '../../harness/trigger/poll';
import type { VirtualService } from '../../harness/trigger/virtual';
import type { World } from '../../harness/trigger/world';
import { freshAccount } from './account';

/*
 * The record an item carries, whichever way the poll met it: a list (a first report, a catch-up)
 * or a read by id (a followed record found out of sight, a repeat under At Least Once). The
 * account answers as the service does: a list gives the list's fields, a read by id the single
 * record's 15 more.
 */

const MINUTE = 60_000;
const STARTS = 'contentGenTriggerStarts';
const EVENT_FIELDS = ['event', 'events', 'eventId', 'previousStatus'];
const LIST_ONLY = {
	article_id: 'a0000000-0000-4000-8000-000000000001',
	project_id: 'b0000000-0000-4000-8000-000000000001',
	source_url: 'https://example.com/post',
	source_type: 'blog',
	language: 'en',
	platforms: { linkedin: 'A caption' },
	image_urls: {},
	video_urls: {},
	scheduled_publish_at: null,
	error_message: null,
};
const SINGLE_ONLY = {
	source_author: 'Ann',
	overlay_urls: {},
	first_comments: { linkedin: 'First!' },
	thread_items: [{ platform: 'twitter', position: 1, text: 'One' }],
	instagram_carousel_plan: [],
	processing_stage: 'completed',
	processing_progress: 100,
	is_published: false,
	scheduler_post_id: null,
};

let world: World;
let service: VirtualService;
let stopClock: () => void;
/** Ids a read by id answers 404 for (gone since the poll met them). */
let gone: Set<string>;

beforeEach(() => {
	({ world, service, stopClock } = freshAccount(5));
	gone = new Set();
	// Two pages of the whole list: a followed record that leaves is read by id, not met in it.
	for (let i = 0; i < 150; i++) world.create('social', 'published');
	const answer = world.answer.bind(world);
	world.answer = (request) => {
		const reply = answer(request);
		if (request.kind === 'socialRecord') {
			if (!reply || gone.has(request.id)) return null;
			return { ...(reply as TrackedRecord), ...LIST_ONLY, ...SINGLE_ONLY };
		}
		if (request.kind === 'socialList') {
			const list = reply as ListResult;
			return { ...list, items: list.items.map((record) => ({ ...record, ...LIST_ONLY })) };
		}
		return reply;
	};
});
afterEach(() => stopClock());

function harness(parameters: IDataObject): PollHarness {
	return pollHarness(parameters, undefined, { http: service.http });
}

const json = (output: INodeExecutionData[][] | null) => (output?.[0] ?? []).map((i) => i.json);
/** An item's fields but `behind` (said only while a poll has work left). */
const keys = (item: IDataObject) =>
	Object.keys(item)
		.filter((key) => key !== 'behind')
		.sort();
const socialRecordReads = () =>
	service.served.filter((s) => s.request.kind === 'socialRecord').length;

/** The four ways a poll meets a social record, each giving its poll's items. */
async function everyWay() {
	const followed = world.create('social', 'generating');
	world.tick(MINUTE);
	const parameters = { events: ['socialFinished'], options: { delivery: 'atLeastOnce' } };
	const trigger = harness(parameters);
	await trigger.poll();
	const start = (trigger.staticData().global as IDataObject)[STARTS];
	world.tick(MINUTE);
	const born = world.create('social', 'completed');
	world.tick(MINUTE);
	const firstFromList = json(await trigger.poll());
	world.tick(MINUTE);
	world.set('social', followed, 'completed');
	world.tick(MINUTE);
	// The new record repeated (read by id), the followed one found out of sight (read by id).
	const outOfSightAndRepeat = json(await trigger.poll());
	const catching = harness(parameters);
	catching.load({ global: { [STARTS]: start } } as IDataObject);
	const catchUp = json(await catching.poll());
	const pick = (items: IDataObject[], id: string) => items.filter((item) => item.id === id);
	return {
		firstFromList: pick(firstFromList, born),
		repeat: pick(outOfSightAndRepeat, born),
		outOfSight: pick(outOfSightAndRepeat, followed),
		catchUp,
		born,
		followed,
	};
}

describe('trigger items', () => {
	it('have the list fields whichever way the poll met the record, with the previous status a poll knows', async () => {
		const ways = await everyWay();
		const expected = [...LIST_FIELDS.social, ...EVENT_FIELDS].sort();
		for (const [way, items] of Object.entries(ways)) {
			if (typeof items === 'string') continue;
			expect([way, items.length > 0]).toEqual([way, true]);
			for (const item of items) expect([way, keys(item)]).toEqual([way, expected]);
		}
		expect(ways.firstFromList.map((item) => item.previousStatus)).toEqual([null]);
		expect(ways.repeat.map((item) => item.previousStatus)).toEqual([null]);
		expect(ways.outOfSight.map((item) => item.previousStatus)).toEqual(['generating']);
		// A catch-up knows only what was created since the start it catches up from.
		expect(ways.catchUp.map((item) => [item.id, item.previousStatus]).sort()).toEqual(
			[
				[ways.born, null],
				[ways.followed, null],
			].sort(),
		);
	});

	it('articles too: a first report, a repeat and a catch-up give the same fields', async () => {
		const id = world.create('article', 'queued');
		world.tick(MINUTE);
		const parameters = { events: ['articleCompleted'], options: { delivery: 'atLeastOnce' } };
		const trigger = harness(parameters);
		await trigger.poll();
		const start = (trigger.staticData().global as IDataObject)[STARTS];
		world.set('article', id, 'cms');
		world.tick(MINUTE);
		const first = json(await trigger.poll());
		world.tick(MINUTE);
		const repeat = json(await trigger.poll());
		const catching = harness(parameters);
		catching.load({ global: { [STARTS]: start } } as IDataObject);
		const catchUp = json(await catching.poll());
		const expected = [...LIST_FIELDS.article, ...EVENT_FIELDS].sort();
		for (const items of [first, repeat, catchUp]) {
			expect(items.map((item) => [item.id, keys(item)])).toEqual([[id, expected]]);
		}
		expect([first, repeat].map(([item]) => item.previousStatus)).toEqual(['queued', 'queued']);
	});

	it('Full Record: the single record on every social item, 1 request an item', async () => {
		const born = [world.create('social', 'generating'), world.create('social', 'generating')];
		world.tick(MINUTE);
		const plain = harness({ events: ['socialFinished'] });
		const full = harness({ events: ['socialFinished'], options: { fullRecord: true } });
		await plain.poll();
		await full.poll();
		for (const id of born) world.set('social', id, 'completed');
		world.tick(MINUTE);
		const before = socialRecordReads();
		const plainItems = json(await plain.poll());
		const plainReads = socialRecordReads() - before;
		const fullItems = json(await full.poll());
		const fullReads = socialRecordReads() - before - plainReads;
		expect(fullItems).toHaveLength(2);
		expect(fullReads - plainReads).toBe(fullItems.length);
		for (const item of fullItems) {
			expect(item).toMatchObject({ ...SINGLE_ONLY, previousStatus: 'generating' });
		}
		for (const item of plainItems) expect(item).not.toHaveProperty('thread_items');
	});

	it("Full Record: a record gone since the poll met it keeps the list's fields, and the log says so", async () => {
		const id = world.create('social', 'generating');
		world.tick(MINUTE);
		const trigger = harness({ events: ['socialFinished'], options: { fullRecord: true } });
		await trigger.poll();
		world.set('social', id, 'completed');
		world.tick(MINUTE);
		const answer = world.answer.bind(world);
		// Found out of sight by id, then gone before Full Record reads it.
		let reads = 0;
		world.answer = (request) => {
			if (request.kind === 'socialRecord' && ++reads === 2) gone.add(request.id);
			return answer(request);
		};
		const [item] = json(await trigger.poll());
		expect(keys(item)).toEqual([...LIST_FIELDS.social, ...EVENT_FIELDS].sort());
		expect(trigger.warnings()).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/1 social record\(s\) no longer exist, so 'Full Record' could not/),
			]),
		);
	});

	it('Fetch Test Event gives the list fields too, and the full record with Full Record', async () => {
		const [listed] = json(await harness({ events: ['socialPublished'] }).poll('manual'));
		expect(keys(listed)).toEqual([...LIST_FIELDS.social, ...EVENT_FIELDS].sort());
		const before = socialRecordReads();
		const full = harness({ events: ['socialPublished'], options: { fullRecord: true } });
		const [record] = json(await full.poll('manual'));
		expect(record).toMatchObject(SINGLE_ONLY);
		expect(socialRecordReads() - before).toBe(1);
	});
});
