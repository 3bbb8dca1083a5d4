import nock from 'nock';

import { binaryBuffer } from '../helpers/binary';
import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import {
	ARTICLE_ID,
	CONTENT_ID,
	envelope,
	finishedSocial,
	generatingSocial,
	IMAGE_HOST,
	page,
	pngBytes,
	PROJECT_ID,
} from './fixtures';
import { setupNock, withoutStrayRequests } from './nockTools';

const api = () => nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });
/** The image host must never see the API key. */
const images = () => nock(IMAGE_HOST, { badheaders: ['authorization'] });
const CONTENT_ID_2 = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

function get(parameters: Record<string, unknown> = {}, extra = {}) {
	return singleNodeWorkflow(
		{ resource: 'socialContent', operation: 'get', contentId: CONTENT_ID, ...parameters },
		extra,
	);
}

async function expectRejected(parameters: Record<string, unknown>, field: string) {
	await withoutStrayRequests(async () => {
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'socialContent', ...parameters }),
		);
		expect(result.error?.message.startsWith(`${field} must`)).toBe(true);
		expect(result.error?.description).toContain(`Invalid value for "${field}"`);
	});
}

/** Records of a list need their own ids: a walk returns each id once. */
const OTHER_ID = '9e9e9e9e-9e9e-4e9e-8e9e-9e9e9e9e9e9e';
const numberedId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('social content resource through the engine', () => {
	setupNock();

	describe('get', () => {
		it('a finished record keeps the raw platforms object and gains platform_names and captions', async () => {
			const scope = api()
				.get(`/api/v1/social/content/${CONTENT_ID}`)
				.reply(200, envelope(finishedSocial));
			const result = await runWorkflow(get());
			expect(result.error).toBeUndefined();
			const items = result.output('ContentGen');
			expect(items).toHaveLength(1);
			expect(items[0].json).toEqual({
				...finishedSocial,
				platform_names: ['instagram', 'linkedin'],
				captions: finishedSocial.platforms,
			});
			expect(items[0].binary).toBeUndefined();
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(scope.isDone()).toBe(true);
		});

		it('a generating record has the same two fields: names from the array, no captions yet', async () => {
			api().get(`/api/v1/social/content/${CONTENT_ID}`).reply(200, envelope(generatingSocial));
			const json = (await runWorkflow(get())).output('ContentGen')[0].json;
			expect(json.platforms).toEqual(['instagram', 'linkedin']);
			expect(json.platform_names).toEqual(['instagram', 'linkedin']);
			expect(json.captions).toEqual({});
		});

		it('simplify gives the same keys whether finished or generating', async () => {
			api()
				.get(`/api/v1/social/content/${CONTENT_ID}`)
				.reply(200, envelope(finishedSocial))
				.get(`/api/v1/social/content/${CONTENT_ID_2}`)
				.reply(200, envelope({ ...generatingSocial, id: CONTENT_ID_2 }));
			const result = await runWorkflow(get({ contentId: '={{ $json.id }}', simplify: true }), {
				input: [{ id: CONTENT_ID }, { id: CONTENT_ID_2 }],
			});
			const [finished, generating] = result.output('ContentGen').map((item) => item.json);
			expect(finished).toEqual({
				id: CONTENT_ID,
				title: 'Ten ways to brew',
				status: 'completed',
				platforms: ['instagram', 'linkedin'],
				platform_names: ['instagram', 'linkedin'],
				captions: finishedSocial.platforms,
				image_urls: finishedSocial.image_urls,
				scheduled_publish_at: null,
				error_message: null,
			});
			expect(Object.keys(generating).sort()).toEqual(Object.keys(finished).sort());
			expect(generating.captions).toEqual({});
			expect(generating.platforms).toEqual(['instagram', 'linkedin']);
		});

		it('split by platform outputs one row per platform, each paired with its input item', async () => {
			api()
				.get(`/api/v1/social/content/${CONTENT_ID}`)
				.reply(200, envelope(finishedSocial))
				.get(`/api/v1/social/content/${CONTENT_ID_2}`)
				.reply(200, envelope({ ...generatingSocial, id: CONTENT_ID_2, platforms: ['threads'] }));
			const result = await runWorkflow(
				get({ contentId: '={{ $json.id }}', options: { splitByPlatform: true } }),
				{ input: [{ id: CONTENT_ID }, { id: CONTENT_ID_2 }] },
			);
			const items = result.output('ContentGen');
			expect(items.map((item) => item.json)).toEqual([
				{
					content_id: CONTENT_ID,
					platform: 'instagram',
					caption: 'Brew better #coffee',
					image_url: `${IMAGE_HOST}/img/instagram.png`,
					video_url: `${IMAGE_HOST}/vid/instagram.mp4`,
					first_comment: 'Link in bio',
					carousel_plan: [{ slide: 1, headline: 'Grind fresh' }],
					title: 'Ten ways to brew',
					status: 'completed',
					scheduled_publish_at: null,
				},
				{
					content_id: CONTENT_ID,
					platform: 'linkedin',
					caption: 'Ten ways to brew better coffee at work',
					image_url: `${IMAGE_HOST}/img/linkedin.jpg`,
					video_url: null,
					first_comment: null,
					carousel_plan: [],
					title: 'Ten ways to brew',
					status: 'completed',
					scheduled_publish_at: null,
				},
				{
					content_id: CONTENT_ID_2,
					platform: 'threads',
					caption: null,
					image_url: null,
					video_url: null,
					first_comment: null,
					carousel_plan: [],
					title: 'Ten ways to brew',
					status: 'generating',
					scheduled_publish_at: null,
				},
			]);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }]);
		});

		it('downloads each platform image into image_<platform>, without the API key', async () => {
			api().get(`/api/v1/social/content/${CONTENT_ID}`).reply(200, envelope(finishedSocial));
			const png = pngBytes(3000);
			const jpg = pngBytes(1200);
			const files = images()
				.get('/img/instagram.png')
				.reply(200, png, { 'Content-Type': 'image/png' })
				.get('/img/linkedin.jpg')
				.reply(200, jpg, { 'Content-Type': 'image/jpeg; charset=binary' });
			const result = await runWorkflow(get({ options: { downloadImages: true } }));
			expect(result.error).toBeUndefined();
			const [item] = result.output('ContentGen');
			expect(Object.keys(item.binary ?? {}).sort()).toEqual(['image_instagram', 'image_linkedin']);
			const instagram = item.binary!.image_instagram;
			expect(instagram.mimeType).toBe('image/png');
			expect(instagram.fileName).toBe('instagram.png');
			expect((await binaryBuffer(instagram)).equals(png)).toBe(true);
			const linkedin = item.binary!.image_linkedin;
			expect(linkedin.mimeType).toBe('image/jpeg');
			expect((await binaryBuffer(linkedin)).length).toBe(1200);
			expect(item.json.platform_names).toEqual(['instagram', 'linkedin']);
			expect(files.isDone()).toBe(true);
		});

		it('split by platform puts each image in the binary property "image" of its row', async () => {
			api().get(`/api/v1/social/content/${CONTENT_ID}`).reply(200, envelope(finishedSocial));
			const png = pngBytes(800);
			images()
				.get('/img/instagram.png')
				.reply(200, png, { 'Content-Type': 'image/png' })
				.get('/img/linkedin.jpg')
				.reply(200, pngBytes(900), { 'Content-Type': 'image/jpeg' });
			const items = (
				await runWorkflow(get({ options: { splitByPlatform: true, downloadImages: true } }))
			).output('ContentGen');
			expect(items.map((item) => Object.keys(item.binary ?? {}))).toEqual([['image'], ['image']]);
			expect((await binaryBuffer(items[0].binary!.image)).equals(png)).toBe(true);
			expect(items[1].binary!.image.mimeType).toBe('image/jpeg');
		});

		it('an image over the size bound fails clearly, whether or not its size is announced', async () => {
			const maxImageSizeMb = 0.1; // 104857 bytes
			for (const announce of [true, false]) {
				api()
					.get(`/api/v1/social/content/${CONTENT_ID}`)
					.reply(
						200,
						envelope({ ...finishedSocial, image_urls: { instagram: `${IMAGE_HOST}/big.png` } }),
					);
				const big = pngBytes(200_000);
				images()
					.get('/big.png')
					.reply(
						200,
						big,
						announce
							? { 'Content-Type': 'image/png', 'Content-Length': String(big.length) }
							: { 'Content-Type': 'image/png' },
					);
				const result = await runWorkflow(
					get({ options: { downloadImages: true, maxImageSizeMb } }),
				);
				expect(result.error?.message).toMatch(
					/^The instagram image from [^ ]+ is larger than the maximum image size \(\d+ KB > 103 KB\)$/,
				);
				expect(result.error?.description).toContain('Max Image Size (MB)');
			}
		});

		it('an image the file server refuses fails with its HTTP status, or becomes an error item', async () => {
			api().get(`/api/v1/social/content/${CONTENT_ID}`).reply(200, envelope(finishedSocial));
			images().get('/img/instagram.png').reply(404, 'gone');
			const result = await runWorkflow(
				get({ options: { downloadImages: true } }, { continueOnFail: true }),
			);
			const [item] = result.output('ContentGen');
			expect(item.json.error).toBe(
				'Could not download the instagram image from images.contentgen.test: it answered HTTP 404',
			);
			expect(item.pairedItem).toEqual({ item: 0 });
		});

		it('rejects a bad content ID and a bad image bound with zero requests', async () => {
			await expectRejected({ operation: 'get', contentId: 'abc' }, 'Content ID');
			await expectRejected(
				{
					operation: 'get',
					contentId: CONTENT_ID,
					options: { downloadImages: true, maxImageSizeMb: -1 },
				},
				'Max Image Size (MB)',
			);
		});
	});

	describe('getMany', () => {
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
				.reply(200, envelope([{ ...generatingSocial, id: OTHER_ID }, finishedSocial], page(2, 1, 50)));
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

		it('returnAll walks two pages; simplify applies to every record', async () => {
			const scope = api()
				.get('/api/v1/social/content')
				.query({ page: '1', limit: '100' })
				.reply(200, envelope(Array.from({ length: 100 }, (_x, i) => ({ ...finishedSocial, id: numberedId(i) })), page(101, 1, 100)))
				.get('/api/v1/social/content')
				.query({ page: '2', limit: '100' })
				.reply(200, envelope([{ ...generatingSocial, id: OTHER_ID }], page(101, 2, 100)));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'getMany',
					returnAll: true,
					simplify: true,
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

	describe('publish', () => {
		it('publish now sends only content_id and keeps the status the service reported', async () => {
			const scope = api()
				.post('/api/v1/social/publish', { content_id: CONTENT_ID })
				.reply(202, envelope({ content_id: CONTENT_ID, status: 'publishing', profiles: 2 }));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'publish',
					contentId: CONTENT_ID,
				}),
			);
			expect(result.error).toBeUndefined();
			const [item] = result.output('ContentGen');
			expect(item.json).toEqual({
				content_id: CONTENT_ID,
				status: 'publishing',
				profiles: 2,
				publish_mode: 'now',
				status_note: expect.stringContaining('not a record status'),
			});
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(scope.isDone()).toBe(true);
		});

		it('schedule sends the platform subset and the time in UTC, read in the workflow time zone', async () => {
			const scope = api()
				.post('/api/v1/social/publish', {
					content_id: CONTENT_ID,
					platforms: ['linkedin', 'instagram'],
					scheduled_at: '2026-12-01T08:00:00.000Z',
				})
				.reply(
					200,
					envelope({
						content_id: CONTENT_ID,
						status: 'scheduled',
						scheduled_at: '2026-12-01T08:00:00Z',
					}),
				)
				.post('/api/v1/social/publish', {
					content_id: CONTENT_ID,
					scheduled_at: '2026-12-01T07:30:00.000Z',
				})
				.reply(
					200,
					envelope({
						content_id: CONTENT_ID,
						status: 'scheduled',
						scheduled_at: '2026-12-01T07:30:00Z',
					}),
				);
			const workflow = singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'publish',
				contentId: CONTENT_ID,
				additionalFields: { platforms: ['linkedin', 'instagram'], scheduledAt: '={{ $json.at }}' },
			});
			workflow.settings = { timezone: 'Europe/Athens' };
			const first = await runWorkflow(workflow, { input: [{ at: '2026-12-01T10:00:00' }] });
			expect(first.error).toBeUndefined();
			expect(first.output('ContentGen')[0].json).toMatchObject({
				status: 'scheduled',
				publish_mode: 'scheduled',
				status_note: 'Scheduled: the service will post at 2026-12-01T08:00:00Z.',
			});
			const explicitOffset = singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'publish',
				contentId: CONTENT_ID,
				additionalFields: { scheduledAt: '2026-12-01T09:30:00+02:00' },
			});
			expect((await runWorkflow(explicitOffset)).error).toBeUndefined();
			expect(scope.isDone()).toBe(true);
		});

		it.each([
			[409, 'CONFLICT', 'The service refused to publish this social content again'],
			[412, 'PRECONDITION_FAILED', 'The social content cannot be published yet'],
		])('a %i explains the publish precondition', async (status, code, message) => {
			api()
				.post('/api/v1/social/publish')
				.reply(status, {
					success: false,
					error: { code, message: 'no' },
					meta: { request_id: 'req_p' },
				});
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'publish',
					contentId: CONTENT_ID,
				}),
			);
			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toContain('req_p');
		});

		it('a 500 on publish is not sent again', async () => {
			const scope = api()
				.post('/api/v1/social/publish')
				.once()
				.reply(500, { success: false, error: { code: 'INTERNAL', message: 'x' } });
			await withoutStrayRequests(async () => {
				const result = await runWorkflow(
					singleNodeWorkflow({
						resource: 'socialContent',
						operation: 'publish',
						contentId: CONTENT_ID,
					}),
				);
				expect(result.error?.message).toBe('The service failed (HTTP 500)');
				expect(scope.isDone()).toBe(true);
			});
		});

		it('publishes one record per input item via an expression', async () => {
			const ids = [CONTENT_ID, CONTENT_ID_2, 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee'];
			const scope = api();
			for (const id of ids) {
				scope
					.post('/api/v1/social/publish', { content_id: id })
					.reply(202, envelope({ content_id: id, status: 'publishing', profiles: 1 }));
			}
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'publish',
					contentId: '={{ $json.id }}',
				}),
				{ input: ids.map((id) => ({ id })) },
			);
			expect(
				result.output('ContentGen').map((item) => [item.json.content_id, item.pairedItem]),
			).toEqual(ids.map((id, item) => [id, { item }]));
			expect(scope.isDone()).toBe(true);
		});

		it('rejects bad input with zero requests', async () => {
			await expectRejected({ operation: 'publish', contentId: 'x' }, 'Content ID');
			await expectRejected(
				{
					operation: 'publish',
					contentId: CONTENT_ID,
					additionalFields: { platforms: ['instagram', 'myspace'] },
				},
				'Platforms',
			);
			await expectRejected(
				{
					operation: 'publish',
					contentId: CONTENT_ID,
					additionalFields: { scheduledAt: '={{ "next tuesday" }}' },
				},
				'Scheduled At',
			);
		});
	});
});
