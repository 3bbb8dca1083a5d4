import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import type { RunResult } from '../helpers/engine';
import { runWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import { refusedUrl, startFlakyServer } from '../helpers/flaky-server';
import { probeNodeTypes, probeWorkflow } from '../helpers/probe';
import { setupNock } from '../helpers/nock';

const API = '/api/v1';
const envelope = (code: string, message: string) => ({
	success: false,
	error: { code, message },
	meta: { request_id: 'req_abc', timestamp: '2026-11-21T00:00:00Z' },
});

async function call(
	parameters: IDataObject,
	apiKey = TEST_API_KEY,
	baseUrl = TEST_BASE_URL,
): Promise<RunResult> {
	return await runWorkflow(probeWorkflow(parameters), {
		nodeTypes: probeNodeTypes(),
		credentials: { apiKey, baseUrl },
	});
}

const output = (result: RunResult) => result.output('Probe').map((item) => item.json);

describe('transport', () => {
	setupNock({ allUsed: true });

	describe('success envelope', () => {
		it('sends the Bearer key, the query and JSON body, and unwraps data', async () => {
			nock(TEST_BASE_URL, {
				reqheaders: { authorization: `Bearer ${TEST_API_KEY}`, accept: 'application/json' },
			})
				.post(`${API}/social/publish`, { content_id: 'x' })
				.query({ dry: 'no' })
				.reply(202, {
					success: true,
					data: { content_id: 'x', status: 'publishing', profiles: 2 },
				});
			const result = await call({
				method: 'POST',
				endpoint: '/social/publish',
				body: { content_id: 'x' },
				qs: { dry: 'no' },
			});
			expect(output(result)).toEqual([
				{ data: { content_id: 'x', status: 'publishing', profiles: 2 }, pagination: null },
			]);
		});
	});

	describe('every error row of the spec becomes an actionable NodeApiError', () => {
		const rows: Array<[number, string, string, string, RegExp]> = [
			[
				400,
				'VALIDATION_ERROR',
				'POST',
				'The service rejected the request as invalid',
				/topic is required/,
			],
			[400, 'NO_PROJECT', 'POST', 'The account has no project', /create one in the service/],
			[402, 'INSUFFICIENT_CREDITS', 'POST', 'Not enough credits', /Nothing was charged/],
			[
				403,
				'FORBIDDEN',
				'POST',
				'The API key may not do this: it needs the "write" permission and the "articles" scope',
				/keys cannot be edited/,
			],
			[
				404,
				'NOT_FOUND',
				'GET',
				"Article not found: it does not exist or does not belong to this API key's account",
				/other accounts/,
			],
			// Operations word their own 409 and 412 (publish); the transport reports them as they are.
			[409, 'CONFLICT', 'POST', 'The service gave an answer the node does not know', /status 409/],
			[
				412,
				'PRECONDITION_FAILED',
				'POST',
				'The service gave an answer the node does not know',
				/status 412/,
			],
		];
		it.each(rows)('%i %s', async (status, code, method, message, hint) => {
			const endpoint =
				status === 404
					? '/articles/0b7c6f9a-1d2e-4f3a-8b9c-0d1e2f3a4b5c'
					: status === 403 || status === 402 || (status === 400 && code === 'VALIDATION_ERROR')
						? '/articles/generate'
						: '/social/publish';
			const scope = nock(TEST_BASE_URL);
			(method === 'GET' ? scope.get(`${API}${endpoint}`) : scope.post(`${API}${endpoint}`)).reply(
				status,
				envelope(code, code === 'VALIDATION_ERROR' ? 'topic is required' : 'refused'),
				{ 'X-Request-Id': 'req_abc' },
			);
			const result = await call({
				method,
				endpoint,
				body: method === 'POST' ? { a: 1 } : undefined,
			});
			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toMatch(hint);
			expect(result.error?.description).toContain('Request ID for support: req_abc');
			expect(result.error?.httpCode).toBe(String(status));
		});

		it('429 that outlasts the wait cap says when to retry', async () => {
			nock(TEST_BASE_URL)
				.get(`${API}/user/credits`)
				.reply(429, envelope('RATE_LIMIT_EXCEEDED', 'slow down'), {
					'Retry-After': '30',
					'X-RateLimit-Limit': '100',
				});
			const result = await call({
				method: 'GET',
				endpoint: '/user/credits',
				maxRateLimitWaitMs: 1000,
			});
			expect(result.error?.message).toBe('Rate limit reached: retry in 30 s');
			expect(result.error?.description).toMatch(/limit 100 per minute/);
		});

		it('401 with a malformed key hints at the key format, never echoing the key', async () => {
			const badKey = 'svc_not-a-real-key';
			nock(TEST_BASE_URL)
				.get(`${API}/user/credits`)
				.reply(401, envelope('UNAUTHORIZED', `key ${badKey} invalid`));
			const result = await call({ method: 'GET', endpoint: '/user/credits' }, badKey);
			expect(result.error?.message).toBe(
				'The API key was not accepted (missing, invalid, expired or revoked)',
			);
			expect(result.error?.description).toMatch(/"svc_" followed by 64 hexadecimal characters/);
			expect(JSON.stringify(result.run)).not.toContain(badKey);
		});

		it('401 with a well-formed key suggests a new key instead', async () => {
			nock(TEST_BASE_URL)
				.get(`${API}/user/credits`)
				.reply(401, envelope('UNAUTHORIZED', 'revoked'));
			const result = await call({ method: 'GET', endpoint: '/user/credits' });
			expect(result.error?.description).toMatch(/Create a new key/);
		});

		it('an HTML proxy page is summarised, not dumped', async () => {
			nock(TEST_BASE_URL)
				.post(`${API}/articles/generate`)
				.reply(
					502,
					'<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>',
					{ 'Content-Type': 'text/html' },
				);
			const result = await call({
				method: 'POST',
				endpoint: '/articles/generate',
				body: { topic: 'x' },
			});
			expect(result.error?.message).toBe('The service could not handle the request (HTTP 502)');
			expect(result.error?.description).toMatch(/not JSON .*"502 Bad Gateway"/);
			expect(result.error?.description).toMatch(/not sent again/);
		});

		it('an empty body and the flat {error} shape are both explained', async () => {
			nock(TEST_BASE_URL).post(`${API}/social/publish`).reply(409, '');
			const empty = await call({ method: 'POST', endpoint: '/social/publish', body: { a: 1 } });
			expect(empty.error?.message).toBe('The service gave an answer the node does not know');
			expect(empty.error?.description).toMatch(/empty body/);

			nock(TEST_BASE_URL).get(`${API}/user/usage`).reply(400, { error: 'Bad session' });
			const flat = await call({ method: 'GET', endpoint: '/user/usage' });
			expect(flat.error?.message).toBe('The service rejected the request as invalid');
			expect(flat.error?.description).toMatch(/The service said: "Bad session"/);
		});

		// Spec §7.2: a 404 NOT_FOUND is about the article, project or content_id a request names,
		// a write's too: the project a generate takes, the content a publish posts.
		it.each([
			['/articles/generate', 'Project'],
			['/social/generate', 'Project'],
			['/social/publish', 'Social content'],
		])('404 NOT_FOUND on POST %s names the missing %s', async (endpoint, record) => {
			nock(TEST_BASE_URL)
				.post(`${API}${endpoint}`)
				.reply(404, envelope('NOT_FOUND', `${record} not found`));
			const result = await call({ method: 'POST', endpoint, body: { a: 1 } });
			expect(result.error?.message).toBe(
				`${record} not found: it does not exist or does not belong to this API key's account`,
			);
		});

		it('a 404 from an unknown route points at the base URL', async () => {
			nock(TEST_BASE_URL).get(`${API}/user/credits`).reply(404, 'Not Found');
			const result = await call({ method: 'GET', endpoint: '/user/credits' });
			expect(result.error?.message).toBe('Nothing was found at this address of the service');
			expect(result.error?.description).toMatch(
				/The credential's 'Base URL' may not be the service's address: .*\(The request was GET \/user\/credits\.\)/,
			);
		});
	});

	describe('retries', () => {
		it('429: waits Retry-After and retries the same request', async () => {
			nock(TEST_BASE_URL)
				.post(`${API}/articles/generate`, { topic: 'same' })
				.reply(429, envelope('RATE_LIMIT_EXCEEDED', 'slow'), { 'Retry-After': '1' })
				.post(`${API}/articles/generate`, { topic: 'same' })
				.reply(202, { success: true, data: { article_id: 'a' } });
			const result = await call({
				method: 'POST',
				endpoint: '/articles/generate',
				body: { topic: 'same' },
			});
			expect(output(result)[0].data).toEqual({ article_id: 'a' });
		});

		it('GET is retried on 503 and on a dropped connection', async () => {
			nock.enableNetConnect('127.0.0.1');
			const server = await startFlakyServer([
				{ status: 503, body: 'busy' },
				{ drop: true },
				{ status: 200, body: { success: true, data: { available_credits: 5 } } },
			]);
			try {
				const result = await call(
					{ method: 'GET', endpoint: '/user/credits' },
					TEST_API_KEY,
					server.url,
				);
				expect(output(result)[0].data).toEqual({ available_credits: 5 });
				expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual(
					Array(3).fill('GET /api/v1/user/credits'),
				);
			} finally {
				await server.close();
				nock.disableNetConnect();
			}
		});

		it('GET gives up after bounded retries', async () => {
			nock(TEST_BASE_URL)
				.get(`${API}/user/credits`)
				.times(4)
				.reply(504, envelope('GATEWAY', 'timeout'));
			const result = await call({ method: 'GET', endpoint: '/user/credits' });
			expect(result.error?.message).toBe('The service could not handle the request (HTTP 504)');
		});

		it('POST is not sent again after a 500', async () => {
			nock(TEST_BASE_URL)
				.post(`${API}/articles/generate`)
				.once()
				.reply(500, envelope('INTERNAL', 'boom'));
			const result = await call({
				method: 'POST',
				endpoint: '/articles/generate',
				body: { topic: 'x' },
			});
			expect(result.error?.message).toBe('The service could not handle the request (HTTP 500)');
			expect(result.error?.description).toMatch(/not sent again/);
		});

		it('POST is not sent again after a dropped connection', async () => {
			nock.enableNetConnect('127.0.0.1');
			const server = await startFlakyServer([
				{ drop: true },
				{ status: 202, body: { success: true, data: {} } },
			]);
			try {
				const result = await call(
					{ method: 'POST', endpoint: '/social/generate', body: { a: 1 } },
					TEST_API_KEY,
					server.url,
				);
				expect(result.error?.message).toBe(
					'The connection to the service broke before it answered',
				);
				expect(result.error?.description).toMatch(/not sent again.*System code: ECONNRESET/);
				expect(server.seen).toHaveLength(1);
				expect(server.seen[0].body).toBe('{"a":1}');
			} finally {
				await server.close();
				nock.disableNetConnect();
			}
		});

		it('POST is retried when the connection was refused (it never reached the service)', async () => {
			nock.enableNetConnect('127.0.0.1');
			try {
				const result = await call(
					{ method: 'POST', endpoint: '/articles/generate', body: { topic: 'x' } },
					TEST_API_KEY,
					await refusedUrl(),
				);
				expect(result.error?.message).toBe('Could not reach the service');
				expect(result.error?.description).toMatch(/Base URL.*System code: ECONNREFUSED/);
			} finally {
				nock.disableNetConnect();
			}
		});

		it('a POST answered 2xx with a cut-off body is reported, not repeated', async () => {
			nock(TEST_BASE_URL)
				.post(`${API}/articles/generate`)
				.once()
				.reply(202, '{"success":true,"data":{"artic', { 'Content-Type': 'application/json' });
			const result = await call({
				method: 'POST',
				endpoint: '/articles/generate',
				body: { topic: 'x' },
			});
			expect(result.error?.message).toBe(
				'The service accepted the request but its answer could not be read',
			);
		});
	});

	describe('pagination', () => {
		const page = (from: number, count: number, total: number, pageNo: number, limit: number) => ({
			success: true,
			data: Array.from({ length: count }, (_, i) => ({ id: `r${from + i}` })),
			pagination: {
				total,
				page: pageNo,
				limit,
				total_pages: Math.ceil(total / limit),
				has_more: pageNo * limit < total,
			},
		});

		it('empty result: one request, no items', async () => {
			nock(TEST_BASE_URL)
				.get(`${API}/articles`)
				.query({ page: '1', limit: '100' })
				.reply(200, page(0, 0, 0, 1, 100));
			const result = await call({ all: true, endpoint: '/articles' });
			expect(output(result)).toEqual([]);
		});

		it('exactly 100: one request', async () => {
			nock(TEST_BASE_URL)
				.get(`${API}/articles`)
				.query({ page: '1', limit: '100' })
				.reply(200, page(0, 100, 100, 1, 100));
			const result = await call({ all: true, endpoint: '/articles' });
			expect(output(result)).toHaveLength(100);
		});

		it('101: two requests, filters kept on every page', async () => {
			nock(TEST_BASE_URL)
				.get(`${API}/articles`)
				.query({ status: 'cms', page: '1', limit: '100' })
				.reply(200, page(0, 100, 101, 1, 100))
				.get(`${API}/articles`)
				.query({ status: 'cms', page: '2', limit: '100' })
				.reply(200, page(100, 1, 101, 2, 100));
			const result = await call({ all: true, endpoint: '/articles', qs: { status: 'cms' } });
			expect(output(result).map((r) => r.id)).toEqual(
				Array.from({ length: 101 }, (_, i) => `r${i}`),
			);
		});

		it('a limit below one page asks for exactly that many in one request', async () => {
			nock(TEST_BASE_URL)
				.get(`${API}/articles`)
				.query({ page: '1', limit: '20' })
				.reply(200, page(0, 20, 500, 1, 20));
			const result = await call({ all: true, endpoint: '/articles', limit: 20 });
			expect(output(result)).toHaveLength(20);
		});

		it('a limit across pages takes the fewest pages and trims', async () => {
			const scope = nock(TEST_BASE_URL);
			for (let p = 1; p <= 3; p++) {
				scope
					.get(`${API}/articles`)
					.query({ page: String(p), limit: '100' })
					.reply(200, page((p - 1) * 100, 100, 1000, p, 100));
			}
			const result = await call({ all: true, endpoint: '/articles', limit: 250 });
			expect(output(result)).toHaveLength(250);
		});
	});
});
