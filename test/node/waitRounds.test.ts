import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { Tracked } from '../../nodes/ContentGen/jobs/look';
import { pagesCost } from '../../nodes/ContentGen/jobs/round';
import * as http from '../../nodes/shared/transport/http';

import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import {
	ARTICLE,
	articleResponse,
	articleStatus,
	CONTENT,
	fullArticle,
	nthId,
	ok,
	onePage,
	projectRef,
	recordedApi,
	socialRecord,
} from './generateTools';
import { setupNock } from '../helpers/nock';

const LIST = 'GET /articles?status=queued&page=1&limit=100';

/** Page `page` of a queued list of `pages` pages: the given ids first, other accounts' work after. */
function queuedPage(page: number, ids: string[], pages: number): IDataObject {
	const others = Array.from({ length: 100 - ids.length }, (_, n) => nthId(page * 100 + n, 'dddd'));
	const records = [...ids, ...others].map((id) => ({
		...fullArticle(id, 'queued'),
		content: undefined,
	}));
	return ok(records, { ...onePage(pages * 100), page, total_pages: pages, has_more: true });
}

/** Wait for Completion on these articles, one item each, polled every second. */
async function waitForArticles(ids: string[]) {
	return await runWorkflow(
		singleNodeWorkflow({
			resource: 'article',
			operation: 'waitForCompletion',
			articleId: '={{ $json.id }}',
			options: { pollInterval: 1 },
		}),
		{ input: ids.map((id) => ({ id })) },
	);
}

setupNock();

describe('a round reads what is cheapest', () => {
	it('an article gone from page 1 of a 13-page queued list is read by id; no other page is read', async () => {
		const [a, b, c] = [nthId(1, 'aaaa'), nthId(2, 'aaaa'), nthId(3, 'aaaa')];
		const { scope, log } = recordedApi();
		const page1 = (ids: string[]) =>
			scope
				.get('/api/v1/articles')
				.query({ status: 'queued', page: 1, limit: 100 })
				.reply(200, queuedPage(1, ids, 13));
		page1([a, b, c]);
		page1([a, b]);
		scope.get(`/api/v1/articles/${c}`).reply(200, ok(fullArticle(c)));
		page1([]);
		scope.get(`/api/v1/articles/${a}`).reply(200, ok(fullArticle(a)));
		scope.get(`/api/v1/articles/${b}`).reply(200, ok(fullArticle(b, 'needs_editing')));
		const result = await waitForArticles([a, b, c]);
		expect(result.error).toBeUndefined();
		expect(log).toEqual([
			LIST,
			LIST,
			`GET /articles/${c}`,
			LIST,
			`GET /articles/${a}`,
			`GET /articles/${b}`,
		]);
		expect(result.output('ContentGen').map((item) => item.json.status)).toEqual([
			'cms',
			'needs_editing',
			'cms',
		]);
		expect(scope.isDone()).toBe(true);
	});

	it('articles pushed to page 2 by newer queued work are looked for there, not read one by one', async () => {
		const [a, b, c] = [nthId(1, 'bbbb'), nthId(2, 'bbbb'), nthId(3, 'bbbb')];
		const { scope, log } = recordedApi();
		const page = (n: number, ids: string[]) =>
			scope
				.get('/api/v1/articles')
				.query({ status: 'queued', page: n, limit: 100 })
				.reply(200, queuedPage(n, ids, 13));
		page(1, [a]);
		for (const id of [b, c])
			scope.get(`/api/v1/articles/${id}`).reply(200, ok(fullArticle(id, 'queued')));
		page(1, []);
		page(2, [a, b, c]);
		page(1, []);
		page(2, []);
		for (const id of [a, b, c]) scope.get(`/api/v1/articles/${id}`).reply(200, ok(fullArticle(id)));
		const result = await waitForArticles([a, b, c]);
		expect(result.error).toBeUndefined();
		const page2 = 'GET /articles?status=queued&page=2&limit=100';
		expect(log).toEqual([
			LIST,
			`GET /articles/${b}`,
			`GET /articles/${c}`,
			LIST,
			page2,
			LIST,
			page2,
			`GET /articles/${a}`,
			`GET /articles/${b}`,
			`GET /articles/${c}`,
		]);
		expect(scope.isDone()).toBe(true);
	});
});

/** The article's status route says queued until look number `look`, which finds it complete. */
function finishesAtLook(scope: nock.Scope, look: number): void {
	const status = `/api/v1/articles/${ARTICLE}/status`;
	scope
		.get(status)
		.times(look - 1)
		.reply(200, ok(articleStatus(ARTICLE, 'queued', 40)));
	scope.get(status).reply(200, ok(articleStatus(ARTICLE, 'cms', 100)));
	scope.get(`/api/v1/articles/${ARTICLE}`).reply(200, ok(fullArticle()));
}

describe('the first look comes early, then the spec cadence', () => {
	let pauses: number[];
	beforeEach(() => {
		pauses = [];
		jest.spyOn(http, 'pause').mockImplementation(async (_context, ms) => {
			pauses.push(ms);
		});
	});
	afterEach(() => jest.restoreAllMocks());

	it('article generate + wait with the default interval looks after 5 s, then every 15 s', async () => {
		const { scope } = recordedApi();
		scope.post('/api/v1/articles/generate').reply(202, ok(articleResponse()));
		finishesAtLook(scope, 3);
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'article',
				operation: 'generate',
				topic: 'Coffee and focus',
				projectId: projectRef,
				waitForCompletion: true,
			}),
		);
		expect(result.error).toBeUndefined();
		expect(pauses).toEqual([5000, 15000, 15000]);
	});

	it('a poll interval shorter than the first look is kept from the start', async () => {
		const { scope } = recordedApi();
		const generating = { content_id: CONTENT, status: 'generating', platforms: ['instagram'] };
		scope.post('/api/v1/social/generate').reply(202, ok(generating));
		for (const status of ['generating', 'completed'])
			scope.get(`/api/v1/social/content/${CONTENT}`).reply(200, ok(socialRecord(CONTENT, status)));
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'generate',
				sourceUrl: 'https://blog.example.com/post',
				platforms: ['instagram'],
				waitForCompletion: true,
				options: { pollInterval: 2 },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(pauses).toEqual([2000, 2000]);
	});

	it('Wait for Completion on an existing id looks at once', async () => {
		finishesAtLook(recordedApi().scope, 2);
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'article',
				operation: 'waitForCompletion',
				articleId: ARTICLE,
			}),
		);
		expect(result.error).toBeUndefined();
		expect(pauses).toEqual([15000]);
	});
});

describe('pagesCost: requests expected to account for the jobs by reading on', () => {
	const on = (...pages: Array<number | undefined>) =>
		pages.map((page, n) => ({ id: nthId(n), page }) as unknown as Tracked);

	it('an unordered list costs the rest of its pages, whatever the jobs were seen on', () => {
		expect(pagesCost(on(1, 1, 1), 0, 13, false)).toBe(13);
		expect(pagesCost(on(1, 1, 1), 4, 13, false)).toBe(9);
	});

	it('an ordered list costs the pages up to where the jobs were, plus one read per job elsewhere', () => {
		expect(pagesCost(on(1, 1, 1), 0, 13, true)).toBe(1);
		expect(pagesCost(on(1, 2, undefined), 0, 13, true)).toBe(3);
		expect(pagesCost(on(5, 5, 1), 0, 50, true)).toBe(3);
		expect(pagesCost(on(5, 5, 5, 1), 0, 50, true)).toBe(4);
		// A job not where it was last seen has no known place.
		expect(pagesCost(on(1, 1), 1, 13, true)).toBe(12);
	});

	it('a list never read counts as one page', () => {
		expect(pagesCost(on(undefined, undefined), 0, undefined, true)).toBe(1);
	});
});
