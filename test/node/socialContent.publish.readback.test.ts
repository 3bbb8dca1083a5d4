/**
 * Publish > Next Free Slot, what the queue reads at the HTTP edge: the list once, narrowed to the
 * one platform the queued posts hold; after scheduling, the list's count and, by id, the posts
 * another execution may still move, instead of the whole list again; the whole list when one of
 * them changed; and the price of a list served in a new order on every request, said in a hint.
 */
import type { IDataObject } from 'n8n-workflow';
import type nock from 'nock';

import { at } from '../../harness/clock';
import { runWorkflow } from '../helpers/engine';
import { countUnmatched, setupNock } from '../helpers/nock';
import { CONTENT_ID, envelope, page } from './fixtures';
import { api, CONTENT_ID_2, QUEUE_NOW as NOW, queuedWorkflow as queued } from './socialTools';

const LIST = '/api/v1/social/content';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

interface Post {
	id: string;
	at: string;
	updated: string;
}

/** `n` X posts scheduled at 10:30 on days after the queue's Monday slots, last changed in October. */
const others = (n: number): Post[] =>
	Array.from({ length: n }, (_x, i) => ({
		id: id(i + 1),
		at: new Date(Date.parse('2026-12-01T10:30:00Z') + i * 86_400_000).toISOString(),
		updated: '2026-10-01T00:00:00Z',
	}));

const record = (post: Post): IDataObject => ({
	id: post.id,
	status: 'scheduled',
	platforms: { twitter: 'caption' },
	scheduled_publish_at: post.at,
	updated_at: post.updated,
});

/** Page `n` (100 a page) of `posts`, counting `total`. */
const listPage = (posts: Post[], n: number, total = posts.length) =>
	envelope(posts.slice((n - 1) * 100, n * 100).map(record), page(total, n, 100));

const query = (n: number) => ({ status: 'scheduled', platform: 'twitter', page: n, limit: 100 });

/** A post another execution scheduled half an hour before the run. */
const RECENT: Post = { id: id(999), at: '2026-12-25T10:45:00Z', updated: '2026-11-27T11:30:00Z' };

/** A list in a new order on every call, the same orders on every run (a linear congruential generator). */
function shuffler(seed: number): (posts: Post[]) => Post[] {
	let state = seed;
	return (posts) => {
		const out = [...posts];
		for (let i = out.length - 1; i > 0; i--) {
			state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
			const j = state % (i + 1);
			[out[i], out[j]] = [out[j], out[i]];
		}
		return out;
	};
}

/**
 * The scheduled list served in a new order on every request (`seed`): `posts` as they are, told
 * whether our publish has come; `heard` hears each page asked. Our publish is accepted.
 */
function reshuffledList(
	seed: number,
	times: number,
	posts: (published: boolean) => Post[],
	heard: (page: number, published: boolean) => void,
): { published: boolean } {
	const shuffled = shuffler(seed);
	const state = { published: false };
	ourRecord()
		.get(LIST)
		.query(true)
		.times(times)
		.reply((uri) => {
			const n = Number(new URL(uri, 'https://x').searchParams.get('page'));
			heard(n, state.published);
			return [200, listPage(shuffled(posts(state.published)), n)];
		})
		.post('/api/v1/social/publish')
		.reply(() => {
			state.published = true;
			return [200, envelope({ content_id: CONTENT_ID, status: 'scheduled' })];
		});
	return state;
}

/** Our post's publish into `at`, accepted. */
const publishInto = (scope: nock.Scope, at: string) =>
	scope
		.post('/api/v1/social/publish', { content_id: CONTENT_ID, scheduled_at: at })
		.reply(200, envelope({ content_id: CONTENT_ID, status: 'scheduled' }));

/** The X post to queue, read by id before the list. */
const ourRecord = () =>
	api()
		.get(`${LIST}/${CONTENT_ID}`)
		.reply(200, envelope({ id: CONTENT_ID, platforms: { twitter: 'caption' } }));

describe('Publish, Next Free Slot: what it reads', () => {
	setupNock();

	it('a list of two pages that nobody changed is read back by its count, one request', async () => {
		const base = others(150);
		const unmatched = countUnmatched();
		const scope = ourRecord();
		for (const n of [1, 2]) scope.get(LIST).query(query(n)).reply(200, listPage(base, n));
		publishInto(scope, '2026-11-30T09:00:00.000Z');
		// Page 1 counts the post just scheduled with the 150 read.
		scope
			.get(LIST)
			.query(query(1))
			.reply(200, listPage(base, 1, 151));
		const result = await at(NOW, async () => await runWorkflow(queued()));
		unmatched.stop();
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')[0].json).toMatchObject({
			slot: { scheduled_at: '2026-11-30T09:00:00.000Z' },
			slot_check: 'kept',
		});
		expect(scope.isDone()).toBe(true);
		expect(unmatched.count()).toBe(0);
	});

	it('a post another execution scheduled within the hour is read by id; moved into our slot first, it makes the whole list read, and our post moves', async () => {
		const base = [...others(250), RECENT];
		const ours = (at: string, updated: string): Post => ({ id: CONTENT_ID, at, updated });
		// It moved into Monday 30 November before our post was scheduled there.
		const moved: Post = { ...RECENT, at: '2026-11-30T09:00:00Z', updated: '2026-11-27T12:00:00Z' };
		const after = [...others(250), moved, ours('2026-11-30T09:00:00Z', '2026-11-27T12:00:01Z')];
		const settled = [...others(250), moved, ours('2026-12-07T09:00:00Z', '2026-11-27T12:00:02Z')];
		const pages = (posts: Post[], ...numbers: number[]) => {
			for (const n of numbers) scope.get(LIST).query(query(n)).reply(200, listPage(posts, n));
		};
		const unmatched = countUnmatched();
		const scope = ourRecord();
		pages(base, 1, 2, 3);
		publishInto(scope, '2026-11-30T09:00:00.000Z');
		// Page 1 counts 251 + ours, as expected; the recent post, read by id, moved.
		pages(after, 1);
		scope.get(`${LIST}/${RECENT.id}`).reply(200, envelope(record(moved)));
		// Page 1 serves the whole read that follows.
		pages(after, 2, 3);
		publishInto(scope, '2026-12-07T09:00:00.000Z');
		pages(settled, 1, 2, 3);
		const result = await at(NOW, async () => await runWorkflow(queued()));
		unmatched.stop();
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')[0].json).toMatchObject({
			slot: { scheduled_at: '2026-12-07T09:00:00.000Z' },
			slot_check: 'moved',
			moved_from: ['2026-11-30 09:00'],
		});
		expect(scope.pendingMocks()).toEqual([]);
		expect(unmatched.count()).toBe(0);
	});

	it('a post another execution scheduled within the hour, read by id where it was: the read back stops there', async () => {
		const base = [...others(250), RECENT];
		const scope = ourRecord();
		for (const n of [1, 2, 3]) scope.get(LIST).query(query(n)).reply(200, listPage(base, n));
		scope
			.post('/api/v1/social/publish')
			.reply(200, envelope({ content_id: CONTENT_ID, status: 'scheduled' }))
			.get(LIST)
			.query(query(1))
			.reply(200, listPage(base, 1, 252))
			.get(`${LIST}/${RECENT.id}`)
			.reply(200, envelope(record(RECENT)));
		const unmatched = countUnmatched();
		const result = await at(NOW, async () => await runWorkflow(queued()));
		unmatched.stop();
		expect(result.output('ContentGen')[0].json.slot_check).toBe('kept');
		expect(scope.pendingMocks()).toEqual([]);
		expect(unmatched.count()).toBe(0);
	});

	it('a post due within the hour is read by id: published meanwhile, it left the list, and the list is read whole', async () => {
		// Due at 12:30, half an hour into the run: its leaving hides a post scheduled meanwhile.
		const due: Post = { id: id(998), at: '2026-11-27T12:30:00Z', updated: '2026-10-01T00:00:00Z' };
		const arrived: Post = {
			id: id(997),
			at: '2026-11-30T09:00:00Z',
			updated: '2026-11-27T12:00:00Z',
		};
		const ours: Post = {
			id: CONTENT_ID,
			at: '2026-11-30T09:00:00Z',
			updated: '2026-11-27T12:00:01Z',
		};
		const base = [...others(250), due];
		const after = [...others(250), arrived, ours];
		const scope = ourRecord();
		for (const n of [1, 2, 3]) scope.get(LIST).query(query(n)).reply(200, listPage(base, n));
		publishInto(scope, '2026-11-30T09:00:00.000Z')
			.get(LIST)
			.query(query(1))
			.reply(200, listPage(after, 1))
			.get(`${LIST}/${due.id}`)
			.reply(200, envelope({ ...record(due), status: 'published' }));
		for (const n of [2, 3]) scope.get(LIST).query(query(n)).reply(200, listPage(after, n));
		publishInto(scope, '2026-12-07T09:00:00.000Z');
		const settled = [...others(250), arrived, { ...ours, at: '2026-12-07T09:00:00Z' }];
		for (const n of [1, 2, 3]) scope.get(LIST).query(query(n)).reply(200, listPage(settled, n));
		const result = await at(NOW, async () => await runWorkflow(queued()));
		expect(result.output('ContentGen')[0].json).toMatchObject({
			slot: { scheduled_at: '2026-12-07T09:00:00.000Z' },
			slot_check: 'moved',
		});
		expect(scope.pendingMocks()).toEqual([]);
	});

	it('posts on two platforms: the whole list is read right after the first record, the others at their turns', async () => {
		const order: string[] = [];
		const scope = api()
			.get(`${LIST}/${CONTENT_ID}`)
			.reply(
				200,
				envelope({ id: CONTENT_ID, platforms: { linkedin: 'caption', twitter: 'caption' } }),
			)
			.get(`${LIST}/${CONTENT_ID_2}`)
			.reply(200, envelope({ id: CONTENT_ID_2, platforms: { twitter: 'caption' } }))
			.get(LIST)
			.query({ status: 'scheduled', page: 1, limit: 100 })
			.twice()
			.reply(200, envelope([], page(0, 1, 100)))
			.post('/api/v1/social/publish')
			.twice()
			.reply(200, envelope({ status: 'scheduled' }));
		scope.on('request', (request: { method: string; path: string }) =>
			order.push(`${request.method} ${request.path.split('?')[0].replace(LIST, 'list')}`),
		);
		const result = await at(
			NOW,
			async () =>
				await runWorkflow(queued({}, true), { input: [{ id: CONTENT_ID }, { id: CONTENT_ID_2 }] }),
		);
		expect(result.error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
		// The list as soon as a filter cannot serve: executions at once read it as close together as before.
		expect(order).toEqual([
			`GET list/${CONTENT_ID}`,
			'GET list',
			'POST /api/v1/social/publish',
			`GET list/${CONTENT_ID_2}`,
			'POST /api/v1/social/publish',
			'GET list',
		]);
	});

	it('a list in a new order on every request: read until every post is seen, the price said in a hint, read back by its count', async () => {
		const base = others(150);
		const ours: Post = {
			id: CONTENT_ID,
			at: '2026-11-30T09:00:00Z',
			updated: '2026-11-27T12:00:00Z',
		};
		let reads = 0;
		reshuffledList(
			7,
			40,
			(published) => (published ? [...base, ours] : base),
			() => reads++,
		);
		const result = await at(NOW, async () => await runWorkflow(queued()));
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')[0].json.slot_check).toBe('kept');
		const firstRead = reads - 1;
		expect(firstRead).toBeGreaterThan(2);
		const task = result.run.data.resultData.runData.ContentGen[0];
		expect(task.hints?.map((hint) => hint.message)).toEqual([
			`Reading the scheduled list took ${firstRead} requests, where its 150 posts fill 2 pages: the service served it in another order on each request, so its pages were read again until every post was seen. Each run of the queue pays about this (item 0).`,
		]);
	});

	it('a list in a new order on every request: no page past the last, and a short last page read once in 4 rounds', async () => {
		// 250 posts: two full pages and one of 50, which a read shows as much as half a full page.
		const base = others(250);
		const asked: number[] = [];
		const list = reshuffledList(
			11,
			200,
			() => base,
			(n, published) => {
				if (!published) asked.push(n);
			},
		);
		const result = await at(NOW, async () => await runWorkflow(queued()));
		expect(result.error).toBeUndefined();
		expect(list.published).toBe(true);
		expect(asked.length).toBeGreaterThan(12);
		expect(Math.max(...asked)).toBe(3);
		// Pages 1, 2 and 3, then rounds of 1 and 2, page 3 after every fourth.
		const later = asked.slice(3);
		expect(later.filter((n) => n === 3).length).toBeLessThanOrEqual(Math.ceil(later.length / 9));
	});
});
