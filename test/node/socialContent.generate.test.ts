import type { IDataObject } from 'n8n-workflow';

import { PLATFORMS as SPEC_PLATFORMS } from '../../sandbox/constants';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import {
	CONTENT,
	dropConnection,
	nthId,
	ok,
	onePage,
	PROJECT,
	recordedApi,
	socialRecord,
	expectRefusedBeforeSending,
} from './generateTools';
import { setupNock } from '../helpers/nock';

const SOURCE = 'https://blog.example.com/launch';
const THREE = ['instagram', 'linkedin', 'twitter'];

const generate = (extra: IDataObject = {}) => ({
	resource: 'socialContent',
	operation: 'generate',
	sourceUrl: SOURCE,
	platforms: THREE,
	...extra,
});

const generateAndWait = (options: IDataObject = {}, extra: IDataObject = {}) =>
	generate({ waitForCompletion: true, options: { pollInterval: 1, ...options }, ...extra });

function generateResponse(id = CONTENT, platforms = THREE): IDataObject {
	return {
		content_id: id,
		status: 'generating',
		platforms,
		// What a service computing 0.6 * 3 and 10 - 1.8 in binary floating point sends.
		credits_deducted: 0.6 * 3,
		credits_remaining: 10 - 0.6 * 3,
		poll_url: `/api/v1/social/content/${id}`,
	};
}

const generatingList = (ids: string[]) =>
	ok(
		ids.map((id) => socialRecord(id, 'generating')),
		onePage(ids.length),
	);
const LIST = 'GET /social/content?status=generating&page=1&limit=100';

describe('social content generate through the engine', () => {
	setupNock();

	it('sends source_url and platforms, and shows credits as exact decimals (1.8, not 1.7999999999999998)', async () => {
		expect(0.6 * 3).toBe(1.7999999999999998);
		const { scope, bodies } = recordedApi();
		scope.post('/api/v1/social/generate').reply(202, ok(generateResponse()));
		const result = await runWorkflow(singleNodeWorkflow(generate()));
		expect(result.error).toBeUndefined();
		expect(bodies).toEqual([{ source_url: SOURCE, platforms: THREE }]);
		const [item] = result.output('ContentGen');
		expect(item.json).toEqual({
			...generateResponse(),
			credits_deducted: 1.8,
			credits_remaining: 8.2,
			credits_spent: 1.8,
		});
		expect(JSON.stringify(item.json)).not.toContain('1.7999');
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('sends every additional field, with the project picked by the locator', async () => {
		const { scope, bodies } = recordedApi();
		scope.post('/api/v1/social/generate').reply(202, ok(generateResponse()));
		await runWorkflow(
			singleNodeWorkflow(
				generate({
					additionalFields: {
						sourceType: 'youtube',
						angle: 'Focus on the price cut',
						title: 'Launch week',
						projectId: { __rl: true, mode: 'id', value: PROJECT },
					},
				}),
			),
		);
		expect(bodies).toEqual([
			{
				source_url: SOURCE,
				platforms: THREE,
				source_type: 'youtube',
				angle: 'Focus on the price cut',
				title: 'Launch week',
				project_id: PROJECT,
			},
		]);
	});

	it('10 platforms cost 6 credits; duplicates are sent (and charged) once', async () => {
		const ten = SPEC_PLATFORMS.slice(0, 10);
		const { scope, bodies } = recordedApi();
		scope
			.post('/api/v1/social/generate')
			.reply(202, ok({ ...generateResponse(CONTENT, ten), credits_deducted: 6.000000000000001 }));
		const result = await runWorkflow(
			singleNodeWorkflow(
				generate({ platforms: `={{ ${JSON.stringify([...ten, 'instagram'])} }}` }),
			),
		);
		expect((bodies[0] as IDataObject).platforms).toEqual(ten);
		expect(result.output('ContentGen')[0].json).toMatchObject({
			credits_deducted: 6,
			credits_spent: 6,
		});
	});

	describe('rejects every out-of-bounds value before sending anything', () => {
		const eleven = SPEC_PLATFORMS.slice(0, 11);
		const cases: Array<[string, IDataObject, string]> = [
			['no platform', { platforms: '={{ [] }}' }, 'Platforms'],
			['11 platforms', { platforms: `={{ ${JSON.stringify(eleven)} }}` }, 'Platforms'],
			['unknown platform', { platforms: "={{ ['myspace'] }}" }, 'Platforms'],
			['a non-http URL', { sourceUrl: 'ftp://example.com/file' }, 'Source URL'],
			['not a URL', { sourceUrl: 'example dot com' }, 'Source URL'],
			['angle of 501 characters', { additionalFields: { angle: 'a'.repeat(501) } }, 'Angle'],
			['title of 201 characters', { additionalFields: { title: 't'.repeat(201) } }, 'Title'],
			['unknown source type', { additionalFields: { sourceType: 'podcast' } }, 'Source Type'],
			['project not a UUID', { additionalFields: { projectId: '={{ "brand" }}' } }, 'Project'],
			[
				'negative minimum balance',
				{ options: { minimumBalance: -0.5 } },
				'Minimum Balance to Keep',
			],
			[
				'bad On Timeout',
				{ waitForCompletion: true, options: { onTimeout: 'retry' } },
				'On Timeout',
			],
		];
		it.each(cases)('%s', async (_name, parameters, field) => {
			await expectRefusedBeforeSending(singleNodeWorkflow(generate(parameters)), field);
		});

		it('accepts an angle of 500 and a title of 200 characters', async () => {
			const { scope, bodies } = recordedApi();
			scope.post('/api/v1/social/generate').reply(202, ok(generateResponse()));
			await runWorkflow(
				singleNodeWorkflow(
					generate({ additionalFields: { angle: 'a'.repeat(500), title: 't'.repeat(200) } }),
				),
			);
			expect(bodies).toHaveLength(1);
		});
	});

	it('the minimum balance floor refuses 3 platforms (1.8) on a balance of 2.5 with a floor of 1', async () => {
		const { scope, log } = recordedApi();
		scope.get('/api/v1/user/credits').reply(200, ok({ available_credits: 2.5 }));
		const result = await runWorkflow(
			singleNodeWorkflow(generate({ options: { minimumBalance: 1 } })),
		);
		expect(log).toEqual(['GET /user/credits']);
		expect(result.error?.message).toBe(
			"'Minimum Balance to Keep': this social content generation costs 1.8 credits, the balance is 2.5 credits and the floor is 1 credit [item 0]",
		);
	});

	it('a balance that cannot be read refuses (and says how to skip the check)', async () => {
		const { scope, log } = recordedApi();
		scope
			.get('/api/v1/user/credits')
			.reply(403, { success: false, error: { code: 'FORBIDDEN', message: 'scope' } });
		const result = await runWorkflow(
			singleNodeWorkflow(generate({ options: { minimumBalance: 1 } })),
		);
		expect(log).toEqual(['GET /user/credits']);
		expect(result.error?.message).toContain(
			"'Minimum Balance to Keep': could not read the credit balance",
		);
	});

	it.each([
		['a 500', 500],
		['a dropped connection', 0],
	])('%s answer to generate is not sent again', async (_name, status) => {
		const { scope, log } = recordedApi();
		const interceptor = scope.post('/api/v1/social/generate').times(3);
		if (status)
			interceptor.reply(status, { success: false, error: { code: 'INTERNAL', message: 'boom' } });
		else interceptor.reply(dropConnection);
		const result = await runWorkflow(singleNodeWorkflow(generate()));
		expect(log).toEqual(['POST /social/generate']);
		expect(result.error).toBeDefined();
	});

	describe('wait for completion', () => {
		it('polls the record until it leaves generating and outputs it (captions normalised)', async () => {
			const { scope, log } = recordedApi();
			scope
				.post('/api/v1/social/generate')
				.reply(202, ok(generateResponse()))
				.get(`/api/v1/social/content/${CONTENT}`)
				.reply(200, ok(socialRecord(CONTENT, 'generating')))
				.get(`/api/v1/social/content/${CONTENT}`)
				.reply(200, ok(socialRecord(CONTENT, 'completed')));
			const result = await runWorkflow(singleNodeWorkflow(generateAndWait()));
			expect(result.error).toBeUndefined();
			expect(log).toEqual([
				'POST /social/generate',
				`GET /social/content/${CONTENT}`,
				`GET /social/content/${CONTENT}`,
			]);
			const [item] = result.output('ContentGen');
			expect(item.json).toMatchObject({
				id: CONTENT,
				status: 'completed',
				platform_names: THREE,
				captions: { instagram: 'Insta caption', linkedin: 'LinkedIn caption', twitter: 'Tweet' },
			});
		});

		it('split by platform gives one item per platform, all paired with the input item', async () => {
			const { scope } = recordedApi();
			scope
				.post('/api/v1/social/generate')
				.reply(202, ok(generateResponse()))
				.get(`/api/v1/social/content/${CONTENT}`)
				.reply(200, ok(socialRecord(CONTENT, 'ready')));
			const result = await runWorkflow(
				singleNodeWorkflow(generateAndWait({ splitByPlatform: true })),
			);
			const items = result.output('ContentGen');
			expect(items.map((item) => [item.json.platform, item.json.caption])).toEqual([
				['instagram', 'Insta caption'],
				['linkedin', 'LinkedIn caption'],
				['twitter', 'Tweet'],
			]);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
		});

		it('a failed generation is an error with the service error_message', async () => {
			const { scope } = recordedApi();
			scope
				.post('/api/v1/social/generate')
				.reply(202, ok(generateResponse()))
				.get(`/api/v1/social/content/${CONTENT}`)
				.reply(
					200,
					ok(socialRecord(CONTENT, 'failed', { error_message: 'Source page unreachable' })),
				);
			const result = await runWorkflow(singleNodeWorkflow(generateAndWait()));
			expect(result.error?.message).toBe(
				`The service could not generate the social content (content_id ${CONTENT}): Source page unreachable [item 0]`,
			);
		});

		it('on timeout, Return Last outputs the content_id with its last status', async () => {
			const { scope } = recordedApi();
			scope
				.post('/api/v1/social/generate')
				.reply(202, ok(generateResponse()))
				.get(`/api/v1/social/content/${CONTENT}`)
				.times(3)
				.reply(200, ok(socialRecord(CONTENT, 'generating')));
			const result = await runWorkflow(singleNodeWorkflow(generateAndWait({ timeout: 1 })));
			expect(result.output('ContentGen').map((item) => item.json)).toEqual([
				{ content_id: CONTENT, status: 'generating', progress: 40, timed_out: true },
			]);
		});

		it('3 items: 3 POSTs, one list request per round while it is the cheaper look, each finished record fetched once', async () => {
			const ids = [nthId(1, 'abab'), nthId(2, 'abab'), nthId(3, 'abab')];
			const { scope, log } = recordedApi();
			for (const id of ids)
				scope.post('/api/v1/social/generate').reply(202, ok(generateResponse(id)));
			const list = (pending: string[]) =>
				scope
					.get('/api/v1/social/content')
					.query({ status: 'generating', page: 1, limit: 100 })
					.reply(200, generatingList(pending));
			list(ids);
			list([ids[1]]);
			// ids[0] moved to queued (hidden by the filter): fetched, still pending, kept waiting.
			scope.get(`/api/v1/social/content/${ids[0]}`).reply(200, ok(socialRecord(ids[0], 'queued')));
			scope
				.get(`/api/v1/social/content/${ids[2]}`)
				.reply(200, ok(socialRecord(ids[2], 'completed')));
			// ids[0] is queued, which the list does not show; for ids[1] alone one read by id is no dearer.
			scope
				.get(`/api/v1/social/content/${ids[0]}`)
				.reply(200, ok(socialRecord(ids[0], 'completed')));
			scope.get(`/api/v1/social/content/${ids[1]}`).reply(200, ok(socialRecord(ids[1], 'ready')));
			const result = await runWorkflow(singleNodeWorkflow(generateAndWait()), {
				input: [{}, {}, {}],
			});
			expect(result.error).toBeUndefined();
			expect(log).toEqual([
				'POST /social/generate',
				'POST /social/generate',
				'POST /social/generate',
				LIST,
				LIST,
				`GET /social/content/${ids[0]}`,
				`GET /social/content/${ids[2]}`,
				`GET /social/content/${ids[0]}`,
				`GET /social/content/${ids[1]}`,
			]);
			const items = result.output('ContentGen');
			expect(items.map((item) => [item.json.id, item.json.status])).toEqual([
				[ids[0], 'completed'],
				[ids[1], 'ready'],
				[ids[2], 'completed'],
			]);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		});
	});

	describe('Wait for Completion operation', () => {
		it('waits on an existing content id, simplified', async () => {
			const { scope } = recordedApi();
			scope
				.get(`/api/v1/social/content/${CONTENT}`)
				.reply(200, ok(socialRecord(CONTENT, 'generating')))
				.get(`/api/v1/social/content/${CONTENT}`)
				.reply(200, ok(socialRecord(CONTENT, 'completed')));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'waitForCompletion',
					contentId: CONTENT,
					output: 'simple',
					options: { pollInterval: 1, timeout: 30 },
				}),
			);
			expect(result.error).toBeUndefined();
			const [item] = result.output('ContentGen');
			expect(item.json).toMatchObject({ id: CONTENT, status: 'completed', platforms: THREE });
			expect(item.json).not.toHaveProperty('source_url');
		});

		it('on timeout with Fail, the error names the id and the last status', async () => {
			const { scope } = recordedApi();
			scope
				.get(`/api/v1/social/content/${CONTENT}`)
				.times(3)
				.reply(200, ok(socialRecord(CONTENT, 'generating')));
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'waitForCompletion',
					contentId: CONTENT,
					options: { pollInterval: 1, timeout: 1, onTimeout: 'fail' },
				}),
			);
			expect(result.error?.message).toBe(
				`The social content ${CONTENT} did not finish within 1 second (last status: generating, 40%) [item 0]`,
			);
			expect(result.error?.description).toContain(`Content ID ${CONTENT}`);
		});
	});
});
