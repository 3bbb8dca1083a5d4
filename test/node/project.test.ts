import nock from 'nock';

import { ContentGen } from '../../nodes/ContentGen/ContentGen.node';
import { searchProjects } from '../../nodes/shared/domain/projects';
import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import { loadOptionsContext } from '../helpers/loadOptions';
import { envelope, page, project, PROJECT_ID, PROJECT_ID_2, simplifiedProject } from './fixtures';
import { setupNock, withoutStrayRequests } from '../helpers/nock';

const api = () => nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });

function projects(from: number, count: number) {
	return Array.from({ length: count }, (_, i) => ({
		...project,
		id: `00000000-0000-4000-9000-${String(from + i).padStart(12, '0')}`,
		business_name: `Business ${from + i}`,
	}));
}

describe('project resource through the engine', () => {
	setupNock();

	describe('get', () => {
		it('takes the project from the list mode of the locator; Raw outputs the full project', async () => {
			const scope = api().get(`/api/v1/projects/${PROJECT_ID}`).reply(200, envelope(project));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'project',
					operation: 'get',
					projectId: {
						__rl: true,
						mode: 'list',
						value: PROJECT_ID,
						cachedResultName: 'Bean There',
					},
					output: 'raw',
				}),
			);
			expect(result.error).toBeUndefined();
			expect(result.output('ContentGen').map((item) => [item.json, item.pairedItem])).toEqual([
				[project, { item: 0 }],
			]);
			expect(scope.isDone()).toBe(true);
		});

		it('id mode with an expression: one request per input item', async () => {
			const scope = api()
				.get(`/api/v1/projects/${PROJECT_ID}`)
				.reply(200, envelope(project))
				.get(`/api/v1/projects/${PROJECT_ID_2}`)
				.reply(200, envelope({ ...project, id: PROJECT_ID_2 }));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'project',
					operation: 'get',
					projectId: { __rl: true, mode: 'id', value: '={{ $json.project }}' },
					output: 'simple',
				}),
				{ input: [{ project: PROJECT_ID }, { project: PROJECT_ID_2.toUpperCase() }] },
			);
			const items = result.output('ContentGen');
			expect(items.map((item) => item.json)).toEqual([
				simplifiedProject(PROJECT_ID),
				simplifiedProject(PROJECT_ID_2),
			]);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			expect(scope.isDone()).toBe(true);
		});

		it('rejects a project that is not a UUID with zero requests; continueOnFail makes it an item', async () => {
			await withoutStrayRequests(async () => {
				const result = await runWorkflow(
					singleNodeWorkflow(
						{
							resource: 'project',
							operation: 'get',
							projectId: { __rl: true, mode: 'id', value: '={{ $json.p }}' },
						},
						{ continueOnFail: true },
					),
					{ input: [{ p: 'Bean There' }] },
				);
				const [item] = result.output('ContentGen');
				expect(item.json.error).toMatch(/^'Project' must be a UUID.* \[item 0\]$/);
				expect(item.json.description).toContain("Change 'Project' for this item");
				expect(item.pairedItem).toEqual({ item: 0 });
			});
		});
	});

	describe('getMany', () => {
		it('sends status and search, limit 20 in one request', async () => {
			const scope = api()
				.get('/api/v1/projects')
				.query({ page: '1', limit: '20', status: 'active', search: 'bean' })
				.reply(200, envelope(projects(1, 20), page(45, 1, 20)));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'project',
					operation: 'getMany',
					limit: 20,
					filters: { status: 'active', search: 'bean' },
				}),
			);
			expect(result.output('ContentGen')).toHaveLength(20);
			expect(scope.isDone()).toBe(true);
		});

		it('returnAll over two pages of 100; Simplified keeps the list fields', async () => {
			const scope = api()
				.get('/api/v1/projects')
				.query({ page: '1', limit: '100' })
				.reply(200, envelope(projects(1, 100), page(150, 1, 100)))
				.get('/api/v1/projects')
				.query({ page: '2', limit: '100' })
				.reply(200, envelope(projects(101, 50), page(150, 2, 100)));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'project',
					operation: 'getMany',
					returnAll: true,
					output: 'simple',
				}),
			);
			const items = result.output('ContentGen');
			expect(items).toHaveLength(150);
			expect(Object.keys(items[149].json)).toEqual([
				'id',
				'business_name',
				'business_website',
				'business_language',
				'location',
				'expert_in',
				'status',
				'created_at',
				'updated_at',
			]);
			expect(scope.isDone()).toBe(true);
		});

		it('rejects a limit below 1 with zero requests', async () => {
			await withoutStrayRequests(async () => {
				const result = await runWorkflow(
					singleNodeWorkflow({ resource: 'project', operation: 'getMany', limit: 0 }),
				);
				expect(result.error?.message).toBe(
					"'Limit' must be a whole number of at least 1, got 0 [item 0]",
				);
			});
		});
	});

	describe('searchProjects (resource locator list)', () => {
		it('is registered on the node', () => {
			expect(new ContentGen().methods.listSearch.searchProjects).toBe(searchProjects);
		});

		it('searches by business name, 100 per page, and hands out the next page token', async () => {
			const scope = api()
				.get('/api/v1/projects')
				.query({ page: '1', limit: '100', search: 'bean' })
				.reply(200, envelope(projects(1, 100), page(120, 1, 100)))
				.get('/api/v1/projects')
				.query({ page: '2', limit: '100', search: 'bean' })
				.reply(200, envelope(projects(101, 20), page(120, 2, 100)));
			const context = loadOptionsContext();
			const first = await searchProjects.call(context, ' bean ');
			expect(first.results).toHaveLength(100);
			expect(first.results[0]).toEqual({
				name: 'Business 1',
				value: '00000000-0000-4000-9000-000000000001',
			});
			expect(first.results[0].url).toBeUndefined();
			expect(first.paginationToken).toBe('2');
			const second = await searchProjects.call(context, 'bean', first.paginationToken as string);
			expect(second.results).toHaveLength(20);
			expect(second.paginationToken).toBeUndefined();
			expect(scope.isDone()).toBe(true);
		});

		it('without a filter sends no search parameter', async () => {
			const scope = api()
				.get('/api/v1/projects')
				.query({ page: '1', limit: '100' })
				.reply(200, envelope([project], page(1, 1, 100)));
			const result = await searchProjects.call(loadOptionsContext());
			expect(result).toEqual({
				results: [{ name: 'Bean There', value: PROJECT_ID }],
				paginationToken: undefined,
			});
			expect(scope.isDone()).toBe(true);
		});

		it('a 403 surfaces as an actionable error naming the projects scope', async () => {
			api()
				.get('/api/v1/projects')
				.query(true)
				.reply(403, { success: false, error: { code: 'FORBIDDEN', message: 'scope' } });
			await expect(searchProjects.call(loadOptionsContext())).rejects.toThrow(
				'The API key may not do this: it needs the "read" permission and the "projects" scope',
			);
		});
	});
});
