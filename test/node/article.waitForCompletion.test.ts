/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the cancellation test times the Stop button with setTimeout */
import type { IDataObject } from 'n8n-workflow';

import { Pacer } from '../../nodes/shared/transport/pacer';
import type { RateLimitInfo } from '../../nodes/shared/types';

import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import {
	ARTICLE,
	articleResponse,
	articleStatus,
	fullArticle,
	nthId,
	ok,
	onePage,
	projectRef,
	recordedApi,
} from './generateTools';
import { setupNock, withoutStrayRequests } from '../helpers/nock';

const fast = { pollInterval: 1 };

const generateAndWait = (options: IDataObject = {}, extra: IDataObject = {}) => ({
	resource: 'article',
	operation: 'generate',
	topic: 'Coffee and focus',
	projectId: projectRef,
	waitForCompletion: true,
	options: { ...fast, ...options },
	...extra,
});

const waitFor = (articleId: string, options: IDataObject = {}, extra: IDataObject = {}) => ({
	resource: 'article',
	operation: 'waitForCompletion',
	articleId,
	options: { ...fast, ...options },
	...extra,
});

const statusPath = (id = ARTICLE) => `/api/v1/articles/${id}/status`;
const queuedList = (ids: string[]) =>
	ok(
		ids.map((id) => ({ ...fullArticle(id, 'queued'), content: undefined })),
		onePage(ids.length),
	);

describe('article wait for completion through the engine', () => {
	setupNock();

	it('generate + wait follows progress (10% -> 60% -> cms) and outputs the full article', async () => {
		const { scope, log } = recordedApi();
		scope
			.post('/api/v1/articles/generate')
			.reply(202, ok(articleResponse()))
			.get(statusPath())
			.reply(200, ok(articleStatus(ARTICLE, 'queued', 10)))
			.get(statusPath())
			.reply(200, ok(articleStatus(ARTICLE, 'queued', 60)))
			.get(statusPath())
			.reply(200, ok(articleStatus(ARTICLE, 'cms', 100)))
			.get(`/api/v1/articles/${ARTICLE}`)
			.reply(200, ok(fullArticle()));
		const result = await runWorkflow(singleNodeWorkflow(generateAndWait()));
		expect(result.error).toBeUndefined();
		expect(log).toEqual([
			'POST /articles/generate',
			`GET /articles/${ARTICLE}/status`,
			`GET /articles/${ARTICLE}/status`,
			`GET /articles/${ARTICLE}/status`,
			`GET /articles/${ARTICLE}`,
		]);
		const items = result.output('ContentGen');
		expect(items.map((item) => item.json)).toEqual([fullArticle()]);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('rides out a 429 in the middle of the wait (Retry-After: 1) and gives Simplified when asked', async () => {
		const { scope, log } = recordedApi();
		scope
			.get(statusPath())
			.reply(200, ok(articleStatus(ARTICLE, 'queued', 10)))
			.get(statusPath())
			.reply(
				429,
				{ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down' } },
				{ 'Retry-After': '1' },
			)
			.get(statusPath())
			.reply(200, ok(articleStatus(ARTICLE, 'needs_editing', 100)))
			.get(`/api/v1/articles/${ARTICLE}`)
			.reply(200, ok(fullArticle(ARTICLE, 'needs_editing')));
		const result = await runWorkflow(
			singleNodeWorkflow(waitFor(ARTICLE, {}, { output: 'simple' })),
		);
		expect(result.error).toBeUndefined();
		expect(log).toEqual([
			`GET /articles/${ARTICLE}/status`,
			`GET /articles/${ARTICLE}/status`,
			`GET /articles/${ARTICLE}/status`,
			`GET /articles/${ARTICLE}`,
		]);
		const [item] = result.output('ContentGen');
		expect(item.json.status).toBe('needs_editing');
		expect(item.json.content).toBe('<h1>Coffee</h1><p>It helps.</p>');
	});

	it('a finished article is output at once by Wait for Completion (no first sleep)', async () => {
		const { scope, log } = recordedApi();
		scope
			.get(statusPath())
			.reply(200, ok(articleStatus(ARTICLE, 'cms', 100)))
			.get(`/api/v1/articles/${ARTICLE}`)
			.reply(200, ok(fullArticle()));
		const result = await runWorkflow(singleNodeWorkflow(waitFor(ARTICLE, { pollInterval: 600 })));
		expect(result.output('ContentGen')[0].json).toEqual(fullArticle());
		expect(log).toHaveLength(2);
	});

	describe('failure', () => {
		it('a failed generation is an error naming the article id', async () => {
			const { scope } = recordedApi();
			scope.get(statusPath()).reply(200, ok(articleStatus(ARTICLE, 'failed', 30)));
			const result = await runWorkflow(singleNodeWorkflow(waitFor(ARTICLE)));
			expect(result.error?.message).toBe(
				`The service could not generate the article (article_id ${ARTICLE}) [item 0]`,
			);
		});

		it('under Continue On Fail it is an error item with the id and status, paired with its input', async () => {
			const { scope } = recordedApi();
			scope.get(statusPath()).reply(200, ok(articleStatus(ARTICLE, 'failed', 30)));
			const result = await runWorkflow(
				singleNodeWorkflow(waitFor(ARTICLE), { continueOnFail: true }),
			);
			const [item] = result.output('ContentGen');
			expect(item.json).toMatchObject({
				error: `The service could not generate the article (article_id ${ARTICLE}) [item 0]`,
				article_id: ARTICLE,
				status: 'failed',
			});
			expect(item.pairedItem).toEqual({ item: 0 });
		});

		it('a 404 for the id fails the item and says how to continue', async () => {
			const { scope } = recordedApi();
			scope
				.get(statusPath())
				.reply(404, { success: false, error: { code: 'NOT_FOUND', message: 'Article not found' } });
			const result = await runWorkflow(singleNodeWorkflow(waitFor(ARTICLE)));
			expect(result.error?.message).toContain(`Could not check on article ${ARTICLE}`);
		});

		it('rejects an id that is not a UUID with zero requests', async () => {
			const result = await withoutStrayRequests(
				async () => await runWorkflow(singleNodeWorkflow(waitFor('../user/credits'))),
			);
			expect(result.error?.message).toContain('Article ID');
		});
	});

	describe('timeout', () => {
		it('Return Last gives the id, its last status and timed_out: true', async () => {
			const { scope, log } = recordedApi();
			scope
				.get(statusPath())
				.times(5)
				.reply(200, ok(articleStatus(ARTICLE, 'queued', 40)));
			const result = await runWorkflow(singleNodeWorkflow(waitFor(ARTICLE, { timeout: 2 })));
			expect(result.error).toBeUndefined();
			expect(result.output('ContentGen').map((item) => item.json)).toEqual([
				{ article_id: ARTICLE, status: 'queued', progress: 40, timed_out: true },
			]);
			// Looks at 0 s, 1 s and 2 s (the deadline).
			expect(log).toHaveLength(3);
		});

		it('Fail raises an error that still names the id and the last status', async () => {
			const { scope } = recordedApi();
			scope
				.get(statusPath())
				.times(5)
				.reply(200, ok(articleStatus(ARTICLE, 'queued', 40)));
			const result = await runWorkflow(
				singleNodeWorkflow(waitFor(ARTICLE, { timeout: 1, onTimeout: 'fail' })),
			);
			expect(result.error?.message).toBe(
				`The article ${ARTICLE} did not finish within 1 second (last status: queued, 40%) [item 0]`,
			);
			expect(result.error?.description).toContain(`Article ID ${ARTICLE}`);
		});
	});

	describe('many items', () => {
		it('20 items: 20 POSTs, then one list request per round, then one GET per finished article', async () => {
			const ids = Array.from({ length: 20 }, (_, n) => nthId(n, 'aaaa'));
			const { scope, log } = recordedApi();
			for (const id of ids)
				scope.post('/api/v1/articles/generate').reply(202, ok(articleResponse(id)));
			const list = (pending: string[]) =>
				scope
					.get('/api/v1/articles')
					.query({ status: 'queued', page: 1, limit: 100 })
					.reply(200, queuedList(pending));
			list(ids);
			list(ids.slice(10));
			list([]);
			ids.forEach((id, n) =>
				scope
					.get(`/api/v1/articles/${id}`)
					.reply(200, ok(fullArticle(id, n % 2 ? 'needs_editing' : 'cms'))),
			);
			const result = await runWorkflow(
				singleNodeWorkflow(generateAndWait({}, { topic: '={{ $json.topic }}' })),
				{
					input: ids.map((_, n) => ({ topic: `Topic number ${n}` })),
				},
			);
			expect(result.error).toBeUndefined();
			const listRequest = 'GET /articles?status=queued&page=1&limit=100';
			expect(log).toEqual([
				...ids.map(() => 'POST /articles/generate'),
				listRequest,
				listRequest,
				...ids.slice(0, 10).map((id) => `GET /articles/${id}`),
				listRequest,
				...ids.slice(10).map((id) => `GET /articles/${id}`),
			]);
			const items = result.output('ContentGen');
			expect(items.map((item) => item.json.id)).toEqual(ids);
			expect(items.map((item) => item.json.status)).toEqual(
				ids.map((_, n) => (n % 2 ? 'needs_editing' : 'cms')),
			);
			expect(items.map((item) => item.pairedItem)).toEqual(ids.map((_, n) => ({ item: n })));
			expect(scope.isDone()).toBe(true);
		});

		it('an article gone from the queued list but still queued when fetched is kept waiting', async () => {
			const [a, b] = [nthId(1, 'bbbb'), nthId(2, 'bbbb')];
			const { scope, log } = recordedApi();
			const list = (pending: string[]) =>
				scope
					.get('/api/v1/articles')
					.query({ status: 'queued', page: 1, limit: 100 })
					.reply(200, queuedList(pending));
			list([]);
			scope.get(`/api/v1/articles/${a}`).reply(200, ok(fullArticle(a)));
			scope.get(`/api/v1/articles/${b}`).reply(200, ok(fullArticle(b, 'queued')));
			scope.get(statusPath(b)).reply(200, ok(articleStatus(b, 'cms', 100)));
			scope.get(`/api/v1/articles/${b}`).reply(200, ok(fullArticle(b)));
			const result = await runWorkflow(singleNodeWorkflow(waitFor('={{ $json.id }}')), {
				input: [{ id: a }, { id: b }],
			});
			expect(result.error).toBeUndefined();
			// Round 2 has one job left: it uses the status route, which says complete; then the full article.
			expect(log).toEqual([
				'GET /articles?status=queued&page=1&limit=100',
				`GET /articles/${a}`,
				`GET /articles/${b}`,
				`GET /articles/${b}/status`,
				`GET /articles/${b}`,
			]);
			expect(result.output('ContentGen').map((item) => item.json.id)).toEqual([a, b]);
		});

		it('pages through the queued list only until every pending id is seen, then reads by id where pages cost as much', async () => {
			const mine = [nthId(1, 'cccc'), nthId(2, 'cccc')];
			const others = Array.from({ length: 100 }, (_, n) => nthId(n + 10, 'dddd'));
			const { scope, log } = recordedApi();
			scope
				.get('/api/v1/articles')
				.query({ status: 'queued', page: 1, limit: 100 })
				.reply(
					200,
					ok([...(queuedList(others).data as IDataObject[])], {
						...onePage(103),
						total_pages: 2,
						has_more: true,
					}),
				)
				.get('/api/v1/articles')
				.query({ status: 'queued', page: 2, limit: 100 })
				.reply(200, queuedList(mine));
			for (const id of mine) scope.get(`/api/v1/articles/${id}`).reply(200, ok(fullArticle(id)));
			const result = await runWorkflow(singleNodeWorkflow(waitFor('={{ $json.id }}')), {
				input: mine.map((id) => ({ id })),
			});
			expect(result.error).toBeUndefined();
			expect(log).toEqual([
				'GET /articles?status=queued&page=1&limit=100',
				'GET /articles?status=queued&page=2&limit=100',
				// Both were on page 2: two pages again would cost as much as reading each by id.
				`GET /articles/${mine[0]}`,
				`GET /articles/${mine[1]}`,
			]);
			expect(scope.isDone()).toBe(true);
		});

		it('without Continue On Fail, a failed item stops the node and the error keeps the other ids', async () => {
			const ids = [nthId(1, 'eeee'), nthId(2, 'eeee'), nthId(3, 'eeee')];
			const { scope } = recordedApi();
			for (const id of ids)
				scope.post('/api/v1/articles/generate').reply(202, ok(articleResponse(id)));
			scope
				.get('/api/v1/articles')
				.query({ status: 'queued', page: 1, limit: 100 })
				.reply(200, queuedList([ids[0], ids[2]]));
			scope.get(`/api/v1/articles/${ids[1]}`).reply(200, ok(fullArticle(ids[1], 'failed')));
			const result = await runWorkflow(singleNodeWorkflow(generateAndWait()), {
				input: [{}, {}, {}],
			});
			expect(result.error?.message).toBe(
				`The service could not generate the article (article_id ${ids[1]}) [item 1]`,
			);
			expect(result.error?.description).toContain(`item 0: article_id ${ids[0]} (queued)`);
			expect(result.error?.description).toContain(`item 2: article_id ${ids[2]} (queued)`);
			expect(scope.isDone()).toBe(true);
		});

		it('under Continue On Fail, only the failed item is an error; the others finish', async () => {
			const ids = [nthId(1, 'ffff'), nthId(2, 'ffff')];
			const { scope } = recordedApi();
			scope
				.get('/api/v1/articles')
				.query({ status: 'queued', page: 1, limit: 100 })
				.reply(200, queuedList([]));
			scope.get(`/api/v1/articles/${ids[0]}`).reply(200, ok(fullArticle(ids[0], 'failed')));
			scope.get(`/api/v1/articles/${ids[1]}`).reply(200, ok(fullArticle(ids[1])));
			const result = await runWorkflow(
				singleNodeWorkflow(waitFor('={{ $json.id }}'), { continueOnFail: true }),
				{
					input: ids.map((id) => ({ id })),
				},
			);
			const items = result.output('ContentGen');
			expect(items.map((item) => item.json.error ?? item.json.id)).toEqual([
				`The service could not generate the article (article_id ${ids[0]}) [item 0]`,
				ids[1],
			]);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		});
	});

	it('cancelling the execution stops the wait', async () => {
		const { scope, log } = recordedApi();
		scope
			.get(statusPath())
			.times(60)
			.reply(200, ok(articleStatus(ARTICLE, 'queued', 10)));
		let cancelAt = 0;
		const outcome = await runWorkflow(singleNodeWorkflow(waitFor(ARTICLE, { timeout: 60 })), {
			onStart: (cancel) => {
				const timer = setTimeout(() => {
					cancelAt = log.length;
					cancel();
				}, 1500);
				timer.unref();
			},
		}).catch((error: Error) => error);
		expect(cancelAt).toBeGreaterThanOrEqual(1);
		const seenAtEnd = log.length;
		await new Promise((resolve) => setTimeout(resolve, 1500));
		// No look after the cancel settles: the wait ended instead of polling on for 60 s.
		expect(log.length).toBe(seenAtEnd);
		expect(seenAtEnd).toBeLessThanOrEqual(cancelAt + 1);
		expect(outcome).toBeDefined();
	});
});

describe('pacing waits by the key budget', () => {
	const now = 1_800_000_000_000;
	const reset = now / 1000 + 50;
	/** The spacing a wait's pacer asks for after answers reporting these budgets, one request each. */
	function spacingAfter(...answers: RateLimitInfo[]): number {
		const pacer = new Pacer(1);
		for (const answer of answers) {
			pacer.start();
			pacer.settle(answer, now);
		}
		return pacer.spacingMs(now);
	}
	it('stays out of the way while the budget is ample', () => {
		// 99 requests left for the next 50 s and no one else drawing on them: half a second apart.
		expect(spacingAfter({ remaining: 100, reset }, { remaining: 99, reset })).toBe(500);
	});
	it('spreads what is left over the rest of the window as it runs low', () => {
		expect(spacingAfter({ remaining: 4, reset })).toBe(10_000);
		expect(spacingAfter({ remaining: 0, reset: now / 1000 + 30 })).toBe(30_000);
	});
	it('takes only its share when other executions drain the same budget', () => {
		// 10 requests gone since this wait's last one, nine of them others': 49 left for 50 s, a
		// tenth of them this wait's.
		expect(spacingAfter({ remaining: 59, reset }, { remaining: 49, reset })).toBe(10_000);
	});
	it('asks for nothing without headers, or once the window has reset', () => {
		expect(spacingAfter()).toBe(0);
		expect(spacingAfter({ remaining: 3 })).toBe(0);
		expect(spacingAfter({ remaining: 3, reset: now / 1000 - 1 })).toBe(0);
	});
});
