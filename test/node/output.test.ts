/**
 * The 'Output' parameter on record reads (Simplified, Raw, Selected Fields with
 * the ID always kept), an agent-style run whose arguments come from the input item as n8n hands a
 * tool its model's arguments, and the Sort collection.
 */
import nock from 'nock';

import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import { setupNock } from '../helpers/nock';
import {
	article,
	ARTICLE_ID,
	articleListItem,
	CONTENT_ID,
	envelope,
	finishedSocial,
	page,
	project,
	PROJECT_ID,
	simplifiedProject,
} from './fixtures';
import {
	ARTICLE,
	articleResponse,
	articleStatus,
	fullArticle,
	ok,
	projectRef,
	recordedApi,
} from './generateTools';

const api = () => nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });

async function getArticle(extra: Record<string, unknown>) {
	api().get(`/api/v1/articles/${ARTICLE_ID}`).reply(200, envelope(article));
	const result = await runWorkflow(
		singleNodeWorkflow({ resource: 'article', operation: 'get', articleId: ARTICLE_ID, ...extra }),
	);
	expect(result.error).toBeUndefined();
	return result.output('ContentGen').map((item) => item.json);
}

describe('Output and Sort', () => {
	setupNock();

	it('is Simplified unless set: an article keeps its HTML body whole', async () => {
		const [json] = await getArticle({});
		expect(Object.keys(json)).toEqual([
			'id',
			'title',
			'slug',
			'status',
			'meta_description',
			'content',
			'project_id',
			'created_at',
			'updated_at',
		]);
		expect(json.content).toBe(article.content);
	});

	it('Wait for Completion and a Generate that waits output the body at their defaults', async () => {
		const { scope } = recordedApi();
		scope
			.get(`/api/v1/articles/${ARTICLE}/status`)
			.reply(200, ok(articleStatus(ARTICLE, 'cms', 100)))
			.get(`/api/v1/articles/${ARTICLE}`)
			.reply(200, ok(fullArticle()))
			.post('/api/v1/articles/generate')
			.reply(202, ok(articleResponse()))
			.get(`/api/v1/articles/${ARTICLE}/status`)
			.reply(200, ok(articleStatus(ARTICLE, 'cms', 100)))
			.get(`/api/v1/articles/${ARTICLE}`)
			.reply(200, ok(fullArticle()));
		const operations = [
			{ operation: 'waitForCompletion', articleId: ARTICLE },
			{ operation: 'generate', topic: 'Coffee', projectId: projectRef, waitForCompletion: true },
		];
		for (const parameters of operations) {
			const result = await runWorkflow(
				singleNodeWorkflow({ resource: 'article', ...parameters, options: { pollInterval: 1 } }),
			);
			expect(result.error).toBeUndefined();
			expect(result.output('ContentGen')[0].json.content).toBe(fullArticle().content);
		}
		expect(scope.isDone()).toBe(true);
	});

	it("is Simplified unless set: a project's Get keeps its location and business fields", async () => {
		api().get(`/api/v1/projects/${PROJECT_ID}`).reply(200, envelope(project));
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'project',
				operation: 'get',
				projectId: { __rl: true, mode: 'id', value: PROJECT_ID },
			}),
		);
		expect(result.output('ContentGen').map((item) => item.json)).toEqual([simplifiedProject()]);
	});

	it('is Simplified unless set: a list of articles stays small (no body)', async () => {
		api()
			.get('/api/v1/articles')
			.query({ page: '1', limit: '1' })
			.reply(200, envelope([article], page(1, 1, 1)));
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'article', operation: 'getMany', limit: 1 }),
		);
		expect(result.output('ContentGen').map((item) => Object.keys(item.json))).toEqual([
			[
				'id',
				'title',
				'slug',
				'status',
				'meta_description',
				'project_id',
				'created_at',
				'updated_at',
			],
		]);
	});

	it('Raw gives every field', async () => {
		expect(await getArticle({ output: 'raw' })).toEqual([article]);
	});

	it('Selected Fields gives those fields and the ID, nothing else', async () => {
		expect(await getArticle({ output: 'fields', fields: ['status', 'title'] })).toEqual([
			{ id: ARTICLE_ID, status: 'cms', title: 'Article 1' },
		]);
	});

	it('an agent-style run with Selected Fields returns only the fields it asked for', async () => {
		api().get(`/api/v1/articles/${ARTICLE_ID}`).reply(200, envelope(article));
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'article',
				operation: 'get',
				articleId: {
					__rl: true,
					mode: 'id',
					value: "={{ $fromAI('articleId', 'ID of the article to read', 'string') }}",
				},
				output: 'fields',
				fields: "={{ $fromAI('fields', 'Fields to return, separated by commas', 'string') }}",
			}),
			{ input: [{ articleId: ARTICLE_ID, fields: 'title, meta_description' }] },
		);
		expect(result.error).toBeUndefined();
		const [json] = result.output('ContentGen').map((item) => item.json);
		expect(json).toEqual({ id: ARTICLE_ID, title: 'Article 1', meta_description: 'About 1' });
		expect(JSON.stringify(json)).not.toContain('<h1>');
	});

	it('Selected Fields on a social record may pick the fields the node adds (captions)', async () => {
		api().get(`/api/v1/social/content/${CONTENT_ID}`).reply(200, envelope(finishedSocial));
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'get',
				contentId: { __rl: true, mode: 'list', value: CONTENT_ID },
				output: 'fields',
				fields: ['captions'],
			}),
		);
		expect(result.output('ContentGen').map((item) => item.json)).toEqual([
			{
				id: CONTENT_ID,
				captions: {
					instagram: 'Brew better #coffee',
					linkedin: 'Ten ways to brew better coffee at work',
				},
			},
		]);
	});

	it('Selected Fields on Project Get and on each record of a Get Many', async () => {
		api()
			.get(`/api/v1/projects/${PROJECT_ID}`)
			.reply(200, envelope(project))
			.get('/api/v1/articles')
			.query({ page: '1', limit: '2' })
			.reply(200, envelope([articleListItem(1), articleListItem(2)], page(2, 1, 2)));
		const one = await runWorkflow(
			singleNodeWorkflow({
				resource: 'project',
				operation: 'get',
				projectId: { __rl: true, mode: 'id', value: PROJECT_ID },
				output: 'fields',
				fields: ['business_name'],
			}),
		);
		expect(one.output('ContentGen').map((item) => item.json)).toEqual([
			{ id: PROJECT_ID, business_name: 'Bean There' },
		]);
		const many = await runWorkflow(
			singleNodeWorkflow({
				resource: 'article',
				operation: 'getMany',
				limit: 2,
				output: 'fields',
				fields: ['slug'],
			}),
		);
		expect(many.output('ContentGen').map((item) => item.json)).toEqual([
			{ id: articleListItem(1).id, slug: 'article-1' },
			{ id: articleListItem(2).id, slug: 'article-2' },
		]);
	});

	describe('Sort', () => {
		it('Sort By and Order come from their own collection', async () => {
			const scope = api()
				.get('/api/v1/articles')
				.query((q) => q.sort === 'title' && q.order === 'asc' && q.status === 'draft')
				.reply(200, envelope([articleListItem(1)], page(1, 1, 1)));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'article',
					operation: 'getMany',
					limit: 1,
					filters: { status: 'draft' },
					sort: { sortBy: 'title', order: 'asc' },
					output: 'raw',
				}),
			);
			expect(result.error).toBeUndefined();
			expect(scope.isDone()).toBe(true);
		});
	});
});
