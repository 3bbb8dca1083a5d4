import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import {
	ARTICLE_ID,
	envelope,
	finishedSocial,
	generatingSocial,
	page,
	PROJECT_ID,
} from './fixtures';
import { setupNock } from '../helpers/nock';
import { api, expectRejected } from './socialTools';

/** Records of a list need their own ids: a walk returns each id once. */
const OTHER_ID = '9e9e9e9e-9e9e-4e9e-8e9e-9e9e9e9e9e9e';
const numberedId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('social content getMany through the engine', () => {
	setupNock();

	it('maps the filters to platform, status, article_id and project_id', async () => {
		const scope = api()
			.get('/api/v1/social/content')
			.query({
				page: '1',
				limit: '50',
				platform: 'google-business',
				status: 'scheduled',
				article_id: ARTICLE_ID,
				project_id: PROJECT_ID,
			})
			.reply(
				200,
				envelope([{ ...generatingSocial, id: OTHER_ID }, finishedSocial], page(2, 1, 50)),
			);
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'getMany',
				filters: {
					platform: 'google-business',
					status: 'scheduled',
					articleId: ARTICLE_ID,
					projectId: { __rl: true, mode: 'list', value: PROJECT_ID },
				},
			}),
		);
		expect(result.error).toBeUndefined();
		const items = result.output('ContentGen');
		expect(items.map((item) => [item.json.platform_names, item.json.captions])).toEqual([
			[['instagram', 'linkedin'], {}],
			[['instagram', 'linkedin'], finishedSocial.platforms],
		]);
		expect(scope.isDone()).toBe(true);
	});

	it('returnAll walks two pages; Simplified applies to every record', async () => {
		const scope = api()
			.get('/api/v1/social/content')
			.query({ page: '1', limit: '100' })
			.reply(
				200,
				envelope(
					Array.from({ length: 100 }, (_x, i) => ({ ...finishedSocial, id: numberedId(i) })),
					page(101, 1, 100),
				),
			)
			.get('/api/v1/social/content')
			.query({ page: '2', limit: '100' })
			.reply(200, envelope([{ ...generatingSocial, id: OTHER_ID }], page(101, 2, 100)));
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'getMany',
				returnAll: true,
				output: 'simple',
			}),
		);
		const items = result.output('ContentGen');
		expect(items).toHaveLength(101);
		expect(items[100].json.platforms).toEqual(['instagram', 'linkedin']);
		expect(items[0].json.source_url).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	it('rejects bad filters with zero requests', async () => {
		await expectRejected({ operation: 'getMany', filters: { platform: 'myspace' } }, 'Platform');
		await expectRejected({ operation: 'getMany', filters: { status: 'publishing' } }, 'Status');
		await expectRejected({ operation: 'getMany', filters: { articleId: 'nope' } }, 'Article ID');
		await expectRejected({ operation: 'getMany', limit: -3 }, 'Limit');
	});
});
