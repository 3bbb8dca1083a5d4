import nock from 'nock';

import { binaryBuffer } from '../helpers/binary';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import {
	CONTENT_ID,
	envelope,
	finishedSocial,
	generatingSocial,
	IMAGE_HOST,
	pngBytes,
} from './fixtures';
import { setupNock } from '../helpers/nock';
import { api, CONTENT_ID_2, expectRejected } from './socialTools';

/** The image host must never see the API key. */
const images = () => nock(IMAGE_HOST, { badheaders: ['authorization'] });

function get(parameters: Record<string, unknown> = {}, extra = {}) {
	return singleNodeWorkflow(
		{ resource: 'socialContent', operation: 'get', contentId: CONTENT_ID, ...parameters },
		extra,
	);
}

describe('social content get through the engine', () => {
	setupNock();

	it('a finished record keeps the raw platforms object and gains platform_names and captions', async () => {
		const scope = api()
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope(finishedSocial));
		const result = await runWorkflow(get({ output: 'raw' }));
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

	it('Simplified gives the same keys whether finished or generating', async () => {
		api()
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope(finishedSocial))
			.get(`/api/v1/social/content/${CONTENT_ID_2}`)
			.reply(200, envelope({ ...generatingSocial, id: CONTENT_ID_2 }));
		const result = await runWorkflow(get({ contentId: '={{ $json.id }}', output: 'simple' }), {
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

	it("names a downloaded image by its address's last part, decoded", async () => {
		const social = {
			...finishedSocial,
			image_urls: { instagram: `${IMAGE_HOST}/img/brew%20better.png` },
		};
		api().get(`/api/v1/social/content/${CONTENT_ID}`).reply(200, envelope(social));
		images()
			.get('/img/brew%20better.png')
			.reply(200, pngBytes(500), { 'Content-Type': 'image/png' });
		const result = await runWorkflow(get({ options: { downloadImages: true } }));
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')[0].binary?.image_instagram.fileName).toBe('brew better.png');
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

	it("'Put Output Images in Field' names the images' field, one item per record or split", async () => {
		api().get(`/api/v1/social/content/${CONTENT_ID}`).times(2).reply(200, envelope(finishedSocial));
		images()
			.get('/img/instagram.png')
			.times(2)
			.reply(200, pngBytes(800), { 'Content-Type': 'image/png' })
			.get('/img/linkedin.jpg')
			.times(2)
			.reply(200, pngBytes(900), { 'Content-Type': 'image/jpeg' });
		const options = { downloadImages: true, binaryPropertyName: 'picture' };
		const [one] = (await runWorkflow(get({ options }))).output('ContentGen');
		expect(Object.keys(one.binary ?? {}).sort()).toEqual(['picture_instagram', 'picture_linkedin']);
		const split = (
			await runWorkflow(get({ options: { ...options, splitByPlatform: true } }))
		).output('ContentGen');
		expect(split.map((item) => Object.keys(item.binary ?? {}))).toEqual([['picture'], ['picture']]);
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
			const result = await runWorkflow(get({ options: { downloadImages: true, maxImageSizeMb } }));
			expect(result.error?.message).toMatch(
				/^The instagram image from [^ ]+ is larger than the maximum image size \(\d+ KB > 103 KB\) \[item 0\]$/,
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
			'Could not download the instagram image from images.contentgen.test: it answered HTTP 404 [item 0]',
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
		await expectRejected(
			{
				operation: 'get',
				contentId: CONTENT_ID,
				options: { downloadImages: true, binaryPropertyName: 'my image' },
			},
			'Put Output Images in Field',
		);
	});
});
