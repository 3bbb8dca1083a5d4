import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import {
	ARTICLE,
	articleGenerate,
	articleResponse,
	dropConnection,
	PROJECT,
	recordedApi,
	expectRefusedBeforeSending,
} from './generateTools';
import { setupNock, withoutStrayRequests } from '../helpers/nock';

const generate = articleGenerate;

describe('article generate through the engine', () => {
	setupNock();

	it('sends only topic and project_id when no additional field is set', async () => {
		const { scope, bodies } = recordedApi();
		scope.post('/api/v1/articles/generate').reply(202, { success: true, data: articleResponse() });
		const result = await runWorkflow(singleNodeWorkflow(generate()));
		expect(result.error).toBeUndefined();
		expect(bodies).toEqual([{ topic: 'Coffee and focus', project_id: PROJECT }]);
		expect(scope.isDone()).toBe(true);
	});

	it('sends every additional field, and never presents article counts as credits', async () => {
		const { scope, bodies } = recordedApi();
		scope.post('/api/v1/articles/generate').reply(202, { success: true, data: articleResponse() });
		const result = await runWorkflow(
			singleNodeWorkflow(
				generate({
					additionalFields: {
						keywords: 'coffee, focus , ,deep work',
						tone: 'casual',
						wordCount: 1200,
					},
				}),
			),
		);
		expect(bodies).toEqual([
			{
				topic: 'Coffee and focus',
				project_id: PROJECT,
				keywords: ['coffee', 'focus', 'deep work'],
				tone: 'casual',
				word_count: 1200,
			},
		]);
		const [item] = result.output('ContentGen');
		const rest = articleResponse();
		delete rest.credits_deducted;
		delete rest.credits_remaining;
		expect(item.json).toEqual({
			...rest,
			articles_billed: 1,
			articles_remaining: 41,
			credits_spent: 1.5,
		});
		expect(item.json).not.toHaveProperty('credits_deducted');
		expect(item.json).not.toHaveProperty('credits_remaining');
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('takes keywords as a list from an expression and the project as a bare id', async () => {
		const { scope, bodies } = recordedApi();
		scope.post('/api/v1/articles/generate').reply(202, { success: true, data: articleResponse() });
		await runWorkflow(
			singleNodeWorkflow(
				generate({ projectId: PROJECT, additionalFields: { keywords: "={{ ['a', 'b'] }}" } }),
			),
		);
		expect(bodies).toEqual([
			{ topic: 'Coffee and focus', project_id: PROJECT, keywords: ['a', 'b'] },
		]);
	});

	describe('rejects every out-of-bounds value before sending anything', () => {
		const cases: Array<[string, IDataObject, string]> = [
			['topic too short', { topic: 'ab' }, 'Topic'],
			['topic too long', { topic: 'x'.repeat(501) }, 'Topic'],
			[
				'project not a UUID (expression)',
				{ projectId: { __rl: true, mode: 'id', value: '={{ "my-project" }}' } },
				'Project',
			],
			['project empty (expression)', { projectId: '={{ "" }}' }, 'Project'],
			[
				'21 keywords',
				{ additionalFields: { keywords: Array.from({ length: 21 }, (_, i) => `k${i}`).join(',') } },
				'Keywords',
			],
			['unknown tone', { additionalFields: { tone: 'angry' } }, 'Tone'],
			['word count 299', { additionalFields: { wordCount: 299 } }, 'Word Count'],
			['word count 5001', { additionalFields: { wordCount: 5001 } }, 'Word Count'],
			['word count 800.5', { additionalFields: { wordCount: 800.5 } }, 'Word Count'],
			['negative minimum balance', { options: { minimumBalance: -1 } }, 'Minimum Balance to Keep'],
			[
				'poll interval 0',
				{ waitForCompletion: true, options: { pollInterval: 0 } },
				'Poll Interval',
			],
			[
				'timeout over the bound',
				{ waitForCompletion: true, options: { timeout: 7201 } },
				'Timeout',
			],
		];
		it.each(cases)('%s', async (_name, parameters, field) => {
			await expectRefusedBeforeSending(singleNodeWorkflow(generate(parameters)), field);
		});

		it('accepts the bounds themselves (3 and 500 characters, 20 keywords, 300 and 5000 words)', async () => {
			const { scope, bodies } = recordedApi();
			scope
				.post('/api/v1/articles/generate')
				.times(2)
				.reply(202, { success: true, data: articleResponse() });
			const keywords = Array.from({ length: 20 }, (_, i) => `k${i}`);
			await runWorkflow(
				singleNodeWorkflow(
					generate({
						topic: '={{ $json.topic }}',
						additionalFields: { keywords: keywords.join(','), wordCount: '={{ $json.words }}' },
					}),
				),
				{
					input: [
						{ topic: 'abc', words: 300 },
						{ topic: 'y'.repeat(500), words: 5000 },
					],
				},
			);
			expect(bodies.map((body) => (body as IDataObject).word_count)).toEqual([300, 5000]);
			expect(bodies.map((body) => ((body as IDataObject).keywords as string[]).length)).toEqual([
				20, 20,
			]);
			expect(scope.isDone()).toBe(true);
		});

		it('without Continue On Fail, one invalid item stops the run before any item is sent', async () => {
			const result = await withoutStrayRequests(
				async () =>
					await runWorkflow(singleNodeWorkflow(generate({ topic: '={{ $json.topic }}' })), {
						input: [{ topic: 'a valid topic' }, { topic: 'no' }],
					}),
			);
			expect(result.error?.message).toContain('Topic');
		});
	});

	describe('never charges twice', () => {
		it('a 500 answer to generate is not sent again', async () => {
			const { scope, log } = recordedApi();
			scope
				.post('/api/v1/articles/generate')
				.times(3)
				.reply(500, {
					success: false,
					error: { code: 'INTERNAL', message: 'boom' },
					meta: { request_id: 'r-500' },
				});
			const result = await runWorkflow(singleNodeWorkflow(generate()));
			expect(log).toEqual(['POST /articles/generate']);
			expect(result.error).toBeDefined();
			expect(result.error?.description).toContain('r-500');
		});

		it('a dropped connection during generate is not sent again', async () => {
			const { scope, log } = recordedApi();
			scope.post('/api/v1/articles/generate').times(3).reply(dropConnection);
			const result = await runWorkflow(singleNodeWorkflow(generate()));
			expect(log).toEqual(['POST /articles/generate']);
			expect(result.error?.message).toBe(
				'The connection to the service broke before it answered [item 0]',
			);
			expect(result.error?.description).toMatch(/not sent again.*ECONNRESET/);
		});

		it('under Continue On Fail, a failed generate fails only its item and the others keep their ids', async () => {
			const { scope, log } = recordedApi();
			const second = '2b2b2b2b-2b2b-4b2b-8b2b-2b2b2b2b2b2b';
			scope
				.post('/api/v1/articles/generate')
				.reply(202, { success: true, data: articleResponse() })
				.post('/api/v1/articles/generate')
				.reply(dropConnection)
				.post('/api/v1/articles/generate')
				.reply(202, { success: true, data: articleResponse(second) });
			const result = await runWorkflow(singleNodeWorkflow(generate(), { continueOnFail: true }), {
				input: [{}, {}, {}],
			});
			const items = result.output('ContentGen');
			expect(log).toEqual([
				'POST /articles/generate',
				'POST /articles/generate',
				'POST /articles/generate',
			]);
			expect(items.map((item) => item.json.article_id ?? item.json.error)).toEqual([
				ARTICLE,
				'The connection to the service broke before it answered [item 1]',
				second,
			]);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		});

		it('without Continue On Fail, the error names the ids already submitted in the run', async () => {
			const { scope } = recordedApi();
			scope
				.post('/api/v1/articles/generate')
				.reply(202, { success: true, data: articleResponse() })
				.post('/api/v1/articles/generate')
				.reply(402, {
					success: false,
					error: { code: 'INSUFFICIENT_CREDITS', message: 'Not enough credits' },
					meta: { request_id: 'r-402' },
				})
				.get('/api/v1/user/credits')
				.reply(200, { success: true, data: { available_credits: 1 } });
			const result = await runWorkflow(singleNodeWorkflow(generate()), { input: [{}, {}] });
			expect(result.error?.description).toContain(`item 0: article_id ${ARTICLE}`);
		});
	});

	it('a 2xx that says it failed is an answer not understood, never a refusal that charged nothing', async () => {
		const { scope, log } = recordedApi();
		scope.post('/api/v1/articles/generate').reply(200, {
			success: false,
			error: { code: 'INSUFFICIENT_CREDITS', message: 'Not enough credits' },
		});
		const result = await runWorkflow(singleNodeWorkflow(generate()));
		expect(log).toEqual(['POST /articles/generate']);
		expect(result.error?.message).toBe(
			'The service accepted the request but its answer could not be read [item 0]',
		);
		expect(result.error?.description).toContain('probably processed (and charged)');
		expect(result.error?.description).not.toContain('Nothing was charged');
	});

	describe('minimum balance to keep', () => {
		it('refuses before spending: no generate request is sent', async () => {
			const { scope, log } = recordedApi();
			scope
				.get('/api/v1/user/credits')
				.reply(200, { success: true, data: { available_credits: 2 } });
			const result = await runWorkflow(
				singleNodeWorkflow(generate({ options: { minimumBalance: 1 } })),
			);
			expect(log).toEqual(['GET /user/credits']);
			expect(result.error?.message).toBe(
				"'Minimum Balance to Keep': this article generation costs 1.5 credits, the balance is 2 credits and the floor is 1 credit [item 0]",
			);
			expect(result.error?.description).toContain('Nothing was sent for this item');
		});

		it('reads the balance once and counts the earlier items of the run', async () => {
			const { scope, log } = recordedApi();
			scope
				.get('/api/v1/user/credits')
				.reply(200, { success: true, data: { available_credits: 4.1 } })
				.post('/api/v1/articles/generate')
				.times(2)
				.reply(202, { success: true, data: articleResponse() });
			const result = await runWorkflow(
				singleNodeWorkflow(generate({ options: { minimumBalance: 1 } }), { continueOnFail: true }),
				{ input: [{}, {}, {}] },
			);
			// 4.1 - 1.5 = 2.6 and 2.6 - 1.5 = 1.1 keep the floor; the third would leave -0.4.
			expect(log).toEqual([
				'GET /user/credits',
				'POST /articles/generate',
				'POST /articles/generate',
			]);
			const items = result.output('ContentGen');
			expect(items.map((item) => item.json.credits_spent ?? 'refused')).toEqual([
				1.5,
				1.5,
				'refused',
			]);
			expect(items[2].json.error).toBe(
				"'Minimum Balance to Keep': this article generation costs 1.5 credits, the balance is 1.1 credits and the floor is 1 credit [item 2]",
			);
			expect(items[2].json.description).toContain('earlier items of this run will spend 3 credits');
			expect(items[2].pairedItem).toEqual({ item: 2 });
		});

		it('without Continue On Fail, a refused third item means nothing at all is generated', async () => {
			const { scope, log } = recordedApi();
			scope
				.get('/api/v1/user/credits')
				.reply(200, { success: true, data: { available_credits: 4 } });
			const result = await runWorkflow(
				singleNodeWorkflow(generate({ options: { minimumBalance: 1 } })),
				{
					input: [{}, {}, {}],
				},
			);
			expect(log).toEqual(['GET /user/credits']);
			expect(result.error?.message).toContain('Minimum Balance to Keep');
		});

		it("reads the balance under the item's own Max Rate-Limit Wait", async () => {
			const { scope, log } = recordedApi();
			scope
				.get('/api/v1/user/credits')
				.reply(429, { success: false, error: { code: 'RATE_LIMITED' } }, { 'Retry-After': '1' })
				.get('/api/v1/user/credits')
				.optionally()
				.reply(200, { success: true, data: { available_credits: 100 } });
			const result = await runWorkflow(
				singleNodeWorkflow(generate({ options: { minimumBalance: 1, maxRateLimitWait: 0 } })),
			);
			// With no wait allowed, the 429 is the answer: no second read, nothing generated.
			expect(log).toEqual(['GET /user/credits']);
			expect(result.error?.message).toContain(
				"'Minimum Balance to Keep': could not read the credit balance",
			);
		});

		it('0 (the default) reads no balance', async () => {
			const { scope, log } = recordedApi();
			scope
				.post('/api/v1/articles/generate')
				.reply(202, { success: true, data: articleResponse() });
			await runWorkflow(singleNodeWorkflow(generate()));
			expect(log).toEqual(['POST /articles/generate']);
		});
	});

	it('n8n itself refuses a static project id that is not a UUID, before the node runs', async () => {
		await withoutStrayRequests(async () => {
			await expect(
				runWorkflow(
					singleNodeWorkflow(
						generate({ projectId: { __rl: true, mode: 'id', value: 'my-project' } }),
					),
				),
			).rejects.toThrow('Not a valid project ID');
		});
	});

	it('the error never carries the API key', async () => {
		const { scope } = recordedApi();
		scope
			.post('/api/v1/articles/generate')
			.reply(403, { success: false, error: { code: 'FORBIDDEN', message: 'x' } });
		const result = await runWorkflow(singleNodeWorkflow(generate()));
		expect(JSON.stringify(result.run)).not.toMatch(/svc_[0-9a-f]{8}/);
		nock.cleanAll();
	});
});
