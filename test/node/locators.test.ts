/**
 * The record pickers (Article ID, Content ID): their list searches as n8n's editor calls them,
 * and each mode (From list, By URL, ID) through the engine.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { ContentGen } from '../../nodes/ContentGen/ContentGen.node';
import {
	searchArticles,
	searchSocialContent,
	SOCIAL_SEARCH_PAGES,
} from '../../nodes/shared/domain/records';
import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import { loadOptionsContext } from '../helpers/loadOptions';
import { setupNock, withoutStrayRequests } from '../helpers/nock';
import {
	article,
	ARTICLE_ID,
	articleListItem,
	CONTENT_ID,
	envelope,
	finishedSocial,
	page,
} from './fixtures';

const api = () => nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });

function articles(from: number, count: number) {
	return Array.from({ length: count }, (_, i) => articleListItem(from + i));
}

function socialRecords(from: number, count: number, title = (i: number) => `Post ${i}`) {
	return Array.from({ length: count }, (_, i) => ({
		...finishedSocial,
		id: `00000000-0000-4000-a000-${String(from + i).padStart(12, '0')}`,
		title: title(from + i),
		status: (from + i) % 2 === 0 ? 'scheduled' : 'completed',
	}));
}

const refusal = { success: false, error: { code: 'UNAUTHORIZED', message: 'revoked' } };
const slowDown = { success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow down' } };

describe('record pickers', () => {
	setupNock();

	it('the node offers both list searches', () => {
		const { listSearch } = new ContentGen().methods;
		expect(listSearch.searchArticles).toBe(searchArticles);
		expect(listSearch.searchSocialContent).toBe(searchSocialContent);
	});

	describe('searchArticles', () => {
		it('lists titles with their status, 100 a page, and hands out the next page', async () => {
			const scope = api()
				.get('/api/v1/articles')
				.query({ page: '1', limit: '100' })
				.reply(200, envelope(articles(1, 100), page(130, 1, 100)))
				.get('/api/v1/articles')
				.query({ page: '2', limit: '100' })
				.reply(200, envelope(articles(101, 30), page(130, 2, 100)));
			const context = loadOptionsContext();
			const first = await searchArticles.call(context);
			expect(first.results).toHaveLength(100);
			expect(first.results[0]).toEqual({
				name: 'Article 1 (CMS)',
				value: '00000000-0000-4000-8000-000000000001',
			});
			expect(first.paginationToken).toBe('2');
			const second = await searchArticles.call(context, undefined, first.paginationToken as string);
			expect(second.results.map((r) => r.name).slice(-1)).toEqual(['Article 130 (CMS)']);
			expect(second.paginationToken).toBeUndefined();
			expect(scope.isDone()).toBe(true);
		});

		it('sends the search text to the service (its title search)', async () => {
			const scope = api()
				.get('/api/v1/articles')
				.query({ page: '1', limit: '100', search: 'coffee' })
				.reply(200, envelope([{ ...article, status: 'needs_editing' }], page(1, 1, 100)));
			const result = await searchArticles.call(loadOptionsContext(), '  coffee ');
			expect(result).toEqual({
				results: [{ name: 'Article 1 (Needs Editing)', value: ARTICLE_ID }],
				paginationToken: undefined,
			});
			expect(scope.isDone()).toBe(true);
		});

		it('an empty account gives an empty list', async () => {
			api()
				.get('/api/v1/articles')
				.query(true)
				.reply(200, envelope([], page(0, 1, 100)));
			expect(await searchArticles.call(loadOptionsContext())).toEqual({
				results: [],
				paginationToken: undefined,
			});
		});

		it('a 401 says the key was not accepted', async () => {
			api().get('/api/v1/articles').query(true).reply(401, refusal);
			await expect(searchArticles.call(loadOptionsContext())).rejects.toThrow(
				'The API key was not accepted (missing, invalid, expired or revoked)',
			);
		});

		it('a 429 is waited out (Retry-After: 1) and the list still comes', async () => {
			const scope = api()
				.get('/api/v1/articles')
				.query(true)
				.reply(429, slowDown, { 'Retry-After': '1' })
				.get('/api/v1/articles')
				.query(true)
				.reply(200, envelope(articles(1, 2), page(2, 1, 100)));
			const result = await searchArticles.call(loadOptionsContext());
			expect(result.results.map((r) => r.name)).toEqual(['Article 1 (CMS)', 'Article 2 (CMS)']);
			expect(scope.isDone()).toBe(true);
		});

		it('a 429 longer than the wait allows says when to try again', async () => {
			api().get('/api/v1/articles').query(true).reply(429, slowDown, { 'Retry-After': '3600' });
			await expect(searchArticles.call(loadOptionsContext())).rejects.toThrow(
				'Rate limit reached: retry in 3600 s',
			);
		});
	});

	describe('searchSocialContent', () => {
		it('lists titles with their status, a page at a time', async () => {
			const scope = api()
				.get('/api/v1/social/content')
				.query({ page: '1', limit: '100' })
				.reply(200, envelope(socialRecords(1, 100), page(101, 1, 100)))
				.get('/api/v1/social/content')
				.query({ page: '2', limit: '100' })
				.reply(200, envelope(socialRecords(101, 1), page(101, 2, 100)));
			const context = loadOptionsContext();
			const first = await searchSocialContent.call(context);
			expect(first.results.slice(0, 2)).toEqual([
				{ name: 'Post 1 (Completed)', value: '00000000-0000-4000-a000-000000000001' },
				{ name: 'Post 2 (Scheduled)', value: '00000000-0000-4000-a000-000000000002' },
			]);
			expect(first.paginationToken).toBe('2');
			const second = await searchSocialContent.call(context, '', first.paginationToken as string);
			expect(second).toEqual({
				results: [{ name: 'Post 101 (Completed)', value: '00000000-0000-4000-a000-000000000101' }],
			});
			expect(scope.isDone()).toBe(true);
		});

		it('matches the search text on titles, reading on until a page matches', async () => {
			const title = (i: number) => (i === 150 ? 'Brewing Guide' : `Post ${i}`);
			const scope = api()
				.get('/api/v1/social/content')
				.query({ page: '1', limit: '100' })
				.reply(200, envelope(socialRecords(1, 100, title), page(250, 1, 100)))
				.get('/api/v1/social/content')
				.query({ page: '2', limit: '100' })
				.reply(200, envelope(socialRecords(101, 100, title), page(250, 2, 100)));
			const result = await searchSocialContent.call(loadOptionsContext(), 'brewing');
			expect(result).toEqual({
				results: [
					{ name: 'Brewing Guide (Scheduled)', value: '00000000-0000-4000-a000-000000000150' },
				],
				paginationToken: '3',
			});
			expect(scope.isDone()).toBe(true);
		});

		it(`reads at most ${SOCIAL_SEARCH_PAGES} pages for one search without a match, then offers the next`, async () => {
			const scope = api();
			for (let n = 1; n <= SOCIAL_SEARCH_PAGES; n++) {
				scope
					.get('/api/v1/social/content')
					.query({ page: String(n), limit: '100' })
					.reply(200, envelope(socialRecords(n * 100 - 99, 100), page(1000, n, 100)));
			}
			await withoutStrayRequests(async () => {
				const result = await searchSocialContent.call(loadOptionsContext(), 'nothing like this');
				expect(result).toEqual({ results: [], paginationToken: String(SOCIAL_SEARCH_PAGES + 1) });
			});
			expect(scope.isDone()).toBe(true);
		});

		it('an empty account gives an empty list', async () => {
			api()
				.get('/api/v1/social/content')
				.query(true)
				.reply(200, envelope([], page(0, 1, 100)));
			expect(await searchSocialContent.call(loadOptionsContext(), 'x')).toEqual({ results: [] });
		});

		it('a 401 says the key was not accepted', async () => {
			api().get('/api/v1/social/content').query(true).reply(401, refusal);
			await expect(searchSocialContent.call(loadOptionsContext())).rejects.toThrow(
				'The API key was not accepted (missing, invalid, expired or revoked)',
			);
		});

		it('a 429 is waited out (Retry-After: 1)', async () => {
			const scope = api()
				.get('/api/v1/social/content')
				.query(true)
				.reply(429, slowDown, { 'Retry-After': '1' })
				.get('/api/v1/social/content')
				.query(true)
				.reply(200, envelope(socialRecords(1, 1), page(1, 1, 100)));
			const result = await searchSocialContent.call(loadOptionsContext());
			expect(result.results).toHaveLength(1);
			expect(scope.isDone()).toBe(true);
		});
	});

	describe('each mode through the engine', () => {
		const modes: Array<[string, IDataObject]> = [
			['From list', { __rl: true, mode: 'list', value: ARTICLE_ID, cachedResultName: 'Article 1' }],
			[
				'ID (spaces and capitals allowed)',
				{ __rl: true, mode: 'id', value: ` ${ARTICLE_ID.toUpperCase()} ` },
			],
			[
				'By URL (the poll URL a Generate returned)',
				{
					__rl: true,
					mode: 'url',
					value: `https://api.example.com/api/v1/articles/${ARTICLE_ID}/status`,
				},
			],
			[
				'By URL (a relative path)',
				{ __rl: true, mode: 'url', value: `/api/v1/articles/${ARTICLE_ID}` },
			],
		];

		it.each(modes)('Article ID %s: Get reads that article', async (_mode, articleId) => {
			const scope = api().get(`/api/v1/articles/${ARTICLE_ID}`).reply(200, envelope(article));
			const result = await runWorkflow(
				singleNodeWorkflow({ resource: 'article', operation: 'get', articleId, output: 'raw' }),
			);
			expect(result.error).toBeUndefined();
			expect(result.output('ContentGen').map((item) => item.json)).toEqual([article]);
			expect(scope.isDone()).toBe(true);
		});

		it('Content ID By URL: Get reads that record', async () => {
			const scope = api()
				.get(`/api/v1/social/content/${CONTENT_ID}`)
				.reply(200, envelope(finishedSocial));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'get',
					contentId: { __rl: true, mode: 'url', value: `/api/v1/social/content/${CONTENT_ID}` },
					output: 'fields',
					fields: ['status'],
				}),
			);
			expect(result.error).toBeUndefined();
			expect(result.output('ContentGen').map((item) => item.json)).toEqual([
				{ id: CONTENT_ID, status: 'completed' },
			]);
			expect(scope.isDone()).toBe(true);
		});

		it('a typed URL or ID the picker cannot use stops the run before it starts (n8n checks it)', async () => {
			const run = (parameters: IDataObject) =>
				withoutStrayRequests(async () => await runWorkflow(singleNodeWorkflow(parameters)));
			await expect(
				run({
					resource: 'article',
					operation: 'getStatus',
					articleId: { __rl: true, mode: 'url', value: `https://example.com/posts/${ARTICLE_ID}` },
				}),
			).rejects.toThrow("Not a URL containing /articles/ and the article's ID");
			await expect(
				run({
					resource: 'socialContent',
					operation: 'publish',
					contentId: { __rl: true, mode: 'id', value: 'not-an-id' },
				}),
			).rejects.toThrow('Not a valid social content ID (a UUID)');
		});

		it('a URL from an expression without an article path is refused by its label, before any request', async () => {
			await withoutStrayRequests(async () => {
				const result = await runWorkflow(
					singleNodeWorkflow({
						resource: 'article',
						operation: 'getStatus',
						articleId: { __rl: true, mode: 'url', value: '={{ $json.url }}' },
					}),
					{ input: [{ url: `https://example.com/posts/${ARTICLE_ID}` }] },
				);
				expect(result.error?.message).toBe(
					'\'Article ID\' holds no article ID in its URL, got "https://example.com/posts/11111111-1111-…": the address must contain /articles/ followed by the ID [item 0]',
				);
			});
		});

		it('an ID from an expression that is not a UUID is refused as before', async () => {
			await withoutStrayRequests(async () => {
				const result = await runWorkflow(
					singleNodeWorkflow({
						resource: 'socialContent',
						operation: 'publish',
						contentId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
					}),
					{ input: [{ id: 'not-an-id' }] },
				);
				expect(result.error?.message).toMatch(
					/^'Content ID' must be a UUID such as .*, got "not-an-id" \[item 0\]$/,
				);
			});
		});

		it('the social Get Many filter takes an article picked from the list', async () => {
			const scope = api()
				.get('/api/v1/social/content')
				.query({ page: '1', limit: '100', article_id: ARTICLE_ID })
				.reply(200, envelope([finishedSocial], page(1, 1, 100)));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'getMany',
					returnAll: true,
					filters: { articleId: { __rl: true, mode: 'list', value: ARTICLE_ID } },
					output: 'fields',
					fields: ['article_id'],
				}),
			);
			expect(result.error).toBeUndefined();
			expect(result.output('ContentGen').map((item) => item.json)).toEqual([
				{ id: CONTENT_ID, article_id: ARTICLE_ID },
			]);
			expect(scope.isDone()).toBe(true);
		});
	});

	describe('the parameters', () => {
		const described = new ContentGen().description;
		const byName = (name: string) => described.properties.filter((p) => p.name === name);

		it.each(['articleId', 'contentId'])('%s is a picker, From list first', (name) => {
			const [picker, ...others] = byName(name).filter((p) =>
				p.displayOptions?.show?.operation?.includes('get'),
			);
			expect(others).toEqual([]);
			expect(picker.type).toBe('resourceLocator');
			expect(picker.default).toEqual({ mode: 'list', value: '' });
			expect(picker.modes?.map((mode) => mode.name)).toEqual(['list', 'url', 'id']);
		});

		it('the node has one version, 2', () => {
			expect(described.version).toBe(2);
			expect(described.defaultVersion).toBeUndefined();
		});
	});
});
