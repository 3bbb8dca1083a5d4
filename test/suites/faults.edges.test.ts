/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a timer beside the engine presses Stop while a request is in flight */
/**
 * Servers that misbehave: no answer, a body that never ends, paging that never ends, pages far
 * larger than asked, nonsense Retry-After values, and answers whose meaning is easy to misread.
 */
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, type RunResult } from '../helpers/engine';
import {
	drip,
	envelope,
	failure,
	json,
	startHostileServer,
	type Handler,
	type HostileServer,
} from '../helpers/hostile-server';

const PROJECT = '0b7c6f9a-1d2e-4f3a-8b9c-0d1e2f3a4b5c';
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const article = (n: number) => ({
	id: uuid(n),
	title: `Article ${n}`,
	status: 'cms',
	updated_at: '2026-11-01T00:00:00Z',
});

let server: HostileServer | undefined;
let handler: Handler = (_request, response) => json(response, 500, failure('UNSET', 'no handler'));

beforeAll(async () => {
	server = await startHostileServer(
		async (request, response, raw) => await handler(request, response, raw),
	);
});
afterAll(async () => await server?.close());

async function run(
	parameters: IDataObject,
	options: { baseUrl?: string; continueOnFail?: boolean } = {},
): Promise<RunResult> {
	return await runWorkflow(
		singleNodeWorkflow(parameters, options.continueOnFail ? { continueOnFail: true } : {}),
		{
			credentials: {
				apiKey: TEST_API_KEY,
				baseUrl: options.baseUrl ?? (server as HostileServer).url,
			},
		},
	);
}

function requests(): number {
	return (server as HostileServer).seen.length;
}

beforeEach(() => (server as HostileServer).seen.splice(0));

describe('every request has a deadline', () => {
	const credits = { resource: 'account', operation: 'getCredits', options: { requestTimeout: 1 } };

	it('a service that never answers: the read fails within its retries, naming the timeout', async () => {
		handler = () => undefined;
		const result = await run(credits);
		expect(result.error?.message).toMatch(/did not answer|timed out|no answer/i);
		expect(requests()).toBeGreaterThanOrEqual(1);
		expect(requests()).toBeLessThanOrEqual(4);
	});

	it('a body that drips one byte at a time trips the overall deadline', async () => {
		handler = (_request, response) => drip(response, 100);
		const result = await run(credits);
		expect(result.error?.message).toMatch(/did not answer|timed out|no answer/i);
		expect(requests()).toBeLessThanOrEqual(4);
	});

	it('a generate that gets no answer is not sent again (it may have been charged)', async () => {
		handler = () => undefined;
		const result = await run({
			resource: 'article',
			operation: 'generate',
			topic: 'Deadlines',
			projectId: { __rl: true, mode: 'id', value: PROJECT },
			options: { requestTimeout: 1 },
		});
		expect(result.error?.message).toMatch(/did not answer|timed out|no answer/i);
		expect(requests()).toBe(1);
	});
	it('cancelling the execution ends a request that is still waiting for its answer', async () => {
		handler = () => undefined;
		let cancelled = false;
		// A request deadline of 10 minutes: only the cancel can end this run within the test's time.
		const deadlineMs = 600_000;
		const started = Date.now();
		const outcome = await runWorkflow(
			singleNodeWorkflow({
				resource: 'account',
				operation: 'getCredits',
				options: { requestTimeout: deadlineMs / 1000 },
			}),
			{
				credentials: { apiKey: TEST_API_KEY, baseUrl: (server as HostileServer).url },
				onStart: (cancel) => {
					const poll = setInterval(() => {
						if (requests() > 0) {
							clearInterval(poll);
							cancelled = true;
							cancel();
						}
					}, 50);
					poll.unref();
				},
			},
		);
		const elapsed = Date.now() - started;
		expect(cancelled).toBe(true);
		// Ended by the cancel, not by the request's own deadline or a failure of the service.
		expect(outcome.run.status).toBe('canceled');
		expect(outcome.error?.message).toMatch(/cancel/i);
		expect(outcome.error?.message).not.toMatch(/did not answer|timed out|no answer/i);
		// Far inside the deadline (a tenth of it: generous for any machine, impossible by timeout).
		expect(elapsed).toBeLessThan(deadlineMs / 10);
		expect(requests()).toBe(1);
	});
});

describe("walks are bounded by the service's own count and never repeat a record", () => {
	const getAll = { resource: 'article', operation: 'getMany', returnAll: true };

	it('has_more that never turns false: stops at total_pages', async () => {
		handler = (request, response) => {
			const page = Number(request.query.get('page'));
			const items = Array.from({ length: 100 }, (_x, i) => article(((page - 1) % 3) * 100 + i));
			json(
				response,
				200,
				envelope(items, { total: 250, page, limit: 100, total_pages: 3, has_more: true }),
			);
		};
		const result = await run(getAll);
		expect(result.error).toBeUndefined();
		expect(requests()).toBe(3);
		const ids = result.output('ContentGen').map((item) => item.json.id);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it('a cache that drops the query string (the same page again and again) ends with what is distinct', async () => {
		handler = (_request, response) => {
			const items = Array.from({ length: 100 }, (_x, i) => article(i));
			json(
				response,
				200,
				envelope(items, { total: 10_000, page: 1, limit: 100, total_pages: 100, has_more: true }),
			);
		};
		const result = await run(getAll);
		expect(requests()).toBeLessThanOrEqual(101);
		const ids = result.output('ContentGen').map((item) => item.json.id);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.length).toBe(100);
	});

	it('a record inserted during the walk: every record that was there is returned, none twice', async () => {
		handler = (request, response) => {
			const page = Number(request.query.get('page'));
			// After page 1 was read, a new record arrives on top: every record moves down one place.
			const base = Array.from({ length: 200 }, (_x, i) => article(i));
			const all = page === 1 ? base : [article(9999), ...base];
			const items = all.slice((page - 1) * 100, page * 100);
			const totalPages = Math.ceil(all.length / 100);
			json(
				response,
				200,
				envelope(items, {
					total: all.length,
					page,
					limit: 100,
					total_pages: totalPages,
					has_more: page < totalPages,
				}),
			);
		};
		const result = await run(getAll);
		expect(result.error).toBeUndefined();
		const ids = result.output('ContentGen').map((item) => item.json.id);
		expect(new Set(ids).size).toBe(ids.length);
		// The 200 records there before the walk, among them the one pushed across a page boundary.
		expect(ids.length).toBeGreaterThanOrEqual(200);
		expect(ids).toEqual(expect.arrayContaining(Array.from({ length: 200 }, (_x, i) => uuid(i))));
		expect(ids.filter((id) => id === uuid(99))).toHaveLength(1);
	});
});

describe('large answers never overflow the call stack', () => {
	it('one page of 130,000 records with Limit 5 gives 5', async () => {
		const items = Array.from({ length: 130_000 }, (_x, i) => article(i));
		const body = JSON.stringify(
			envelope(items, { total: 130_000, page: 1, limit: 5, total_pages: 26_000, has_more: true }),
		);
		handler = (_request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(body);
		};
		const result = await run({
			resource: 'article',
			operation: 'getMany',
			returnAll: false,
			limit: 5,
		});
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')).toHaveLength(5);
	});

	it('Return All of 140,000 records', async () => {
		const pages = new Map<number, string>();
		handler = (request, response) => {
			const page = Number(request.query.get('page'));
			if (!pages.has(page)) {
				const items = Array.from({ length: 100 }, (_x, i) => article((page - 1) * 100 + i));
				pages.set(
					page,
					JSON.stringify(
						envelope(items, {
							total: 140_000,
							page,
							limit: 100,
							total_pages: 1400,
							has_more: page < 1400,
						}),
					),
				);
			}
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(pages.get(page));
		};
		const result = await run({ resource: 'article', operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')).toHaveLength(140_000);
	}, 120_000);
});

describe('Retry-After values that make no sense fall back to a sane pause', () => {
	it.each([['-1'], ['0'], [''], ['Thu, 01 Jan 1970 00:00:00 GMT'], ['soon']])(
		'Retry-After "%s"',
		async (value) => {
			handler = (_request, response) =>
				json(response, 429, failure('RATE_LIMIT_EXCEEDED', 'slow down'), { 'Retry-After': value });
			const result = await run({
				resource: 'account',
				operation: 'getCredits',
				options: { maxRateLimitWait: 2 },
			});
			expect(result.error?.message).toMatch(/rate limit/i);
			// 2 s of allowed waiting at a pause of at least a second: the first try and at most two more.
			expect(requests()).toBeLessThanOrEqual(3);
		},
	);
});

describe('messages that could mislead', () => {
	it('a wrong Base URL whose host answers 404 for the account route says so, not "check the ID"', async () => {
		handler = (_request, response) => json(response, 404, failure('NOT_FOUND', 'Record not found'));
		const result = await run({ resource: 'account', operation: 'getCredits' });
		const text = `${result.error?.message} ${result.error?.description}`;
		expect(text).toMatch(/Base URL/);
		expect(text).not.toMatch(/Check the ID/);
	});

	it('a 402 quotes the figures of the 402 answer itself, without a second balance lookup', async () => {
		handler = (request, response) => {
			if (request.path.endsWith('/user/credits'))
				json(response, 200, envelope({ available_credits: 7 }));
			else
				json(
					response,
					402,
					failure(
						'INSUFFICIENT_CREDITS',
						'Insufficient credits: this request needs 1.5 credits, 0.9 available.',
					),
				);
		};
		const result = await run({
			resource: 'article',
			operation: 'generate',
			topic: 'Credits',
			projectId: { __rl: true, mode: 'id', value: PROJECT },
		});
		expect(result.error?.message).toMatch(/Not enough credits/);
		expect(`${result.error?.message} ${result.error?.description}`).toContain('0.9 available');
		expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(/7 are available/);
		expect((server as HostileServer).seen.map((r) => r.path)).toEqual([
			'/api/v1/articles/generate',
		]);
	});

	it('a 409 on content that is still being published does not claim it was published', async () => {
		handler = (_request, response) =>
			json(response, 409, failure('CONFLICT', 'This social content is being published'));
		const result = await run({
			resource: 'socialContent',
			operation: 'publish',
			contentId: PROJECT,
		});
		expect(result.error?.message).not.toMatch(/has already been published/);
		expect(`${result.error?.message} ${result.error?.description}`).toContain(
			'This social content is being published',
		);
	});

	it('a failure inside n8n before anything is sent keeps its reason and claims no charge', async () => {
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'article',
				operation: 'generate',
				topic: 'Nothing sent',
				projectId: { __rl: true, mode: 'id', value: PROJECT },
			}),
			{
				credentials: { baseUrl: (server as HostileServer).url } as {
					apiKey: string;
					baseUrl: string;
				},
			},
		);
		const text = `${result.error?.message} ${result.error?.description}`;
		expect(text).not.toMatch(/System code: unknown/);
		expect(text).not.toMatch(/may have reached the service/);
		expect(text).toMatch(/API key/);
		expect(requests()).toBe(0);
	});

	it('a 202 whose article_id is not a UUID says the generation was charged', async () => {
		handler = (_request, response) =>
			json(
				response,
				202,
				envelope({ article_id: 'job-42', status: 'queued', credits_deducted: 1 }),
			);
		const result = await run({
			resource: 'article',
			operation: 'generate',
			topic: 'Odd ids',
			projectId: { __rl: true, mode: 'id', value: PROJECT },
			waitForCompletion: true,
		});
		const text = `${result.error?.message} ${result.error?.description}`;
		expect(text).not.toMatch(/Nothing was sent|no credits were spent/);
		expect(text).toMatch(/charged/);
		expect(text).toContain('job-42');
		expect(requests()).toBe(1);
	});
});
