import nock from 'nock';

import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import {
	article,
	ARTICLE_ID,
	ARTICLE_ID_2,
	ARTICLE_ID_3,
	articleListItem,
	envelope,
	page,
	PROJECT_ID,
} from './fixtures';
import { setupNock, withoutStrayRequests } from '../helpers/nock';

const api = () => nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });

function list(from: number, count: number) {
	return Array.from({ length: count }, (_, i) => articleListItem(from + i));
}

describe('article resource through the engine', () => {
	setupNock();

	describe('get', () => {
		it('sends GET /articles/:id and outputs the full article', async () => {
			const scope = api().get(`/api/v1/articles/${ARTICLE_ID}`).reply(200, envelope(article));
			const result = await runWorkflow(
				singleNodeWorkflow({ resource: 'article', operation: 'get', articleId: ARTICLE_ID }),
			);
			expect(result.error).toBeUndefined();
			const items = result.output('ContentGen');
			expect(items).toHaveLength(1);
			expect(items[0].json).toEqual(article);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(scope.isDone()).toBe(true);
		});

		it('resolves an expression per input item: 3 items, 3 requests, paired in order', async () => {
			const ids = [ARTICLE_ID, ARTICLE_ID_2, ARTICLE_ID_3];
			const scope = api();
			for (const id of ids)
				scope.get(`/api/v1/articles/${id}`).reply(200, envelope({ ...article, id }));
			const result = await runWorkflow(
				singleNodeWorkflow({ resource: 'article', operation: 'get', articleId: '={{ $json.id }}' }),
				{ input: ids.map((id) => ({ id })) },
			);
			const items = result.output('ContentGen');
			expect(items.map((item) => item.json.id)).toEqual(ids);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(scope.isDone()).toBe(true);
		});

		it("a 404 says the article is missing or not this account's, and continueOnFail keeps going", async () => {
			api()
				.get(`/api/v1/articles/${ARTICLE_ID}`)
				.reply(404, {
					success: false,
					error: { code: 'NOT_FOUND', message: 'Article not found' },
					meta: { request_id: 'req_404' },
				})
				.get(`/api/v1/articles/${ARTICLE_ID_2}`)
				.reply(200, envelope({ ...article, id: ARTICLE_ID_2 }));
			const result = await runWorkflow(
				singleNodeWorkflow(
					{ resource: 'article', operation: 'get', articleId: '={{ $json.id }}' },
					{ continueOnFail: true },
				),
				{ input: [{ id: ARTICLE_ID }, { id: ARTICLE_ID_2 }] },
			);
			const items = result.output('ContentGen');
			expect(items[0].json.error).toBe(
				"Article not found: it does not exist or does not belong to this API key's account [item 0]",
			);
			expect(items[0].json.description).toContain('req_404');
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(items[1].json.id).toBe(ARTICLE_ID_2);
			expect(items[1].pairedItem).toEqual({ item: 1 });
		});

		it.each([['not-a-uuid'], ['={{ "" }}'], ['../user/credits'], [`${ARTICLE_ID}/status`]])(
			'rejects the article ID %p before sending anything',
			async (articleId) => {
				await withoutStrayRequests(async () => {
					const result = await runWorkflow(
						singleNodeWorkflow({ resource: 'article', operation: 'get', articleId }),
					);
					expect(result.error?.message).toMatch(/^'Article ID' must be a UUID.* \[item 0\]$/);
					expect(result.error?.description).toContain("Change 'Article ID' for this item");
				});
			},
		);
	});

	describe('getStatus', () => {
		it('sends GET /articles/:id/status and outputs the status record', async () => {
			const status = {
				article_id: ARTICLE_ID,
				status: 'queued',
				title: 'T',
				slug: 't',
				progress: 40,
				is_complete: false,
				created_at: '2026-11-01T10:00:00.000Z',
				updated_at: '2026-11-01T10:01:00.000Z',
			};
			const scope = api().get(`/api/v1/articles/${ARTICLE_ID}/status`).reply(200, envelope(status));
			const result = await runWorkflow(
				singleNodeWorkflow({ resource: 'article', operation: 'getStatus', articleId: ARTICLE_ID }),
			);
			expect(result.output('ContentGen').map((item) => item.json)).toEqual([status]);
			expect(scope.isDone()).toBe(true);
		});

		it('rejects a bad ID with zero requests', async () => {
			await withoutStrayRequests(async () => {
				const result = await runWorkflow(
					singleNodeWorkflow({ resource: 'article', operation: 'getStatus', articleId: '42' }),
				);
				expect(result.error?.message).toMatch(/^'Article ID' must be a UUID.* \[item 0\]$/);
			});
		});
	});

	describe('getMany', () => {
		it('maps every filter to its query parameter', async () => {
			const scope = api()
				.get('/api/v1/articles')
				.query({
					page: '1',
					limit: '20',
					status: 'needs_editing',
					project_id: PROJECT_ID,
					search: 'coffee',
					sort: 'title',
					order: 'asc',
				})
				.reply(200, envelope(list(1, 2), page(2, 1, 20)));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'article',
					operation: 'getMany',
					returnAll: false,
					limit: 20,
					filters: {
						status: 'needs_editing',
						projectId: {
							__rl: true,
							mode: 'list',
							value: PROJECT_ID,
							cachedResultName: 'Bean There',
						},
						search: 'coffee',
					},
					sort: { sortBy: 'title', order: 'asc' },
				}),
			);
			expect(result.error).toBeUndefined();
			expect(result.output('ContentGen').map((item) => item.json)).toEqual(list(1, 2));
			expect(scope.isDone()).toBe(true);
		});

		it('takes a project ID typed as plain text in the filter', async () => {
			const scope = api()
				.get('/api/v1/articles')
				.query({ page: '1', limit: '50', project_id: PROJECT_ID })
				.reply(200, envelope([], page(0, 1, 50)));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'article',
					operation: 'getMany',
					filters: { projectId: { __rl: true, mode: 'id', value: ` ${PROJECT_ID} ` } },
				}),
			);
			expect(result.error).toBeUndefined();
			expect(result.output('ContentGen')).toEqual([]);
			expect(scope.isDone()).toBe(true);
		});

		it('limit 20 is one request with limit=20', async () => {
			const scope = api()
				.get('/api/v1/articles')
				.query({ page: '1', limit: '20' })
				.reply(200, envelope(list(1, 20), page(300, 1, 20)));
			const result = await runWorkflow(
				singleNodeWorkflow({ resource: 'article', operation: 'getMany', limit: 20 }),
			);
			expect(result.output('ContentGen')).toHaveLength(20);
			expect(scope.isDone()).toBe(true);
		});

		it('limit 250 takes 3 requests of 100 and outputs exactly 250 items, paired', async () => {
			const scope = api();
			for (const n of [1, 2, 3]) {
				scope
					.get('/api/v1/articles')
					.query({ page: String(n), limit: '100' })
					.reply(200, envelope(list((n - 1) * 100 + 1, 100), page(1000, n, 100)));
			}
			const result = await runWorkflow(
				singleNodeWorkflow({ resource: 'article', operation: 'getMany', limit: 250 }),
			);
			const items = result.output('ContentGen');
			expect(items).toHaveLength(250);
			expect(items[249].json.title).toBe('Article 250');
			expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
			expect(scope.isDone()).toBe(true);
		});

		it('returnAll walks pages of 100 until has_more is false', async () => {
			const scope = api()
				.get('/api/v1/articles')
				.query({ page: '1', limit: '100' })
				.reply(200, envelope(list(1, 100), page(130, 1, 100)))
				.get('/api/v1/articles')
				.query({ page: '2', limit: '100' })
				.reply(200, envelope(list(101, 30), page(130, 2, 100)));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'article',
					operation: 'getMany',
					returnAll: true,
					limit: 5,
				}),
			);
			expect(result.output('ContentGen')).toHaveLength(130);
			expect(scope.isDone()).toBe(true);
		});

		it('Simplified on a list keeps the list fields only', async () => {
			api()
				.get('/api/v1/articles')
				.query(true)
				.reply(200, envelope([{ ...articleListItem(1), extra: 'x' }], page(1, 1, 50)));
			const result = await runWorkflow(
				singleNodeWorkflow({ resource: 'article', operation: 'getMany', output: 'simple' }),
			);
			expect(result.output('ContentGen')[0].json).toEqual(articleListItem(1));
		});

		it.each([
			[{ limit: 0 }, 'Limit'],
			[{ limit: 2.5 }, 'Limit'],
			[{ filters: { status: 'published' } }, 'Status'],
			[{ sort: { sortBy: 'views' } }, 'Sort By'],
			[{ sort: { order: 'up' } }, 'Order'],
			[{ filters: { projectId: { __rl: true, mode: 'id', value: 'my-project' } } }, 'Project'],
		])('rejects %p with zero requests, naming %s', async (parameters, field) => {
			await withoutStrayRequests(async () => {
				const result = await runWorkflow(
					singleNodeWorkflow({ resource: 'article', operation: 'getMany', ...parameters }),
				);
				expect(result.error?.message.startsWith(`'${field}' must`)).toBe(true);
				expect(result.error?.description).toContain(`Change '${field}' for this item`);
			});
		});
	});
});
