import nock from 'nock';

import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import { setupNock, withoutStrayRequests } from '../helpers/nock';

const credits = {
	available_credits: 123.4,
	subscription_credits: 100,
	purchased_credits: 23.4,
	credits_used_this_month: 12.6,
	plan: 'Professional',
	current_period_end: '2026-12-01T00:00:00Z',
};

describe('account resource through the engine', () => {
	setupNock();

	it('getCredits sends one authenticated GET and outputs the credits object per input item', async () => {
		const scope = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get('/api/v1/user/credits')
			.times(2)
			.reply(200, { success: true, data: credits });
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'account', operation: 'getCredits' }),
			{ input: [{ n: 1 }, { n: 2 }] },
		);
		expect(result.error).toBeUndefined();
		const items = result.output('ContentGen');
		expect(items.map((item) => item.json)).toEqual([credits, credits]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(scope.isDone()).toBe(true);
	});

	it('getUsage returns the usage object', async () => {
		const usage = {
			total_requests: 10,
			today_requests: 2,
			rate_limit: {
				limit_per_minute: 1000,
				remaining_per_minute: 998,
				limit_per_day: 50000,
				remaining_per_day: 49990,
				reset: 1,
			},
			daily_breakdown: [],
		};
		nock(TEST_BASE_URL).get('/api/v1/user/usage').reply(200, { success: true, data: usage });
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'account', operation: 'getUsage' }),
		);
		expect(result.output('ContentGen')[0].json).toEqual(usage);
	});

	it('a trailing /api/v1/ in the base URL does not double the path', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/v1/user/credits')
			.reply(200, { success: true, data: credits });
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'account', operation: 'getCredits' }),
			{
				credentials: { apiKey: TEST_API_KEY, baseUrl: `${TEST_BASE_URL}/api/v1/` },
			},
		);
		expect(result.error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	it('a 403 names the permission and scope the key lacks, keeps the request id, and hides the key', async () => {
		nock(TEST_BASE_URL)
			.get('/api/v1/user/credits')
			.reply(403, {
				success: false,
				error: { code: 'FORBIDDEN', message: 'Missing scope' },
				meta: { request_id: 'req_123', timestamp: '2026-11-21T00:00:00Z' },
			});
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'account', operation: 'getCredits' }),
		);
		expect(result.error?.message).toBe(
			'The API key may not do this: it needs the "read" permission and the "user" scope [item 0]',
		);
		expect(result.error?.description).toContain('req_123');
		expect(JSON.stringify(result.run)).not.toContain(TEST_API_KEY);
	});

	it('continueOnFail turns a failure into an error item paired with its input', async () => {
		nock(TEST_BASE_URL)
			.get('/api/v1/user/credits')
			.reply(200, { success: true, data: credits })
			.get('/api/v1/user/credits')
			.reply(401, {
				success: false,
				error: { code: 'UNAUTHORIZED', message: 'bad key' },
				meta: { request_id: 'r2' },
			});
		const result = await runWorkflow(
			singleNodeWorkflow(
				{ resource: 'account', operation: 'getCredits' },
				{ continueOnFail: true },
			),
			{ input: [{ n: 1 }, { n: 2 }] },
		);
		const items = result.output('ContentGen');
		expect(items[0].json).toEqual(credits);
		expect(items[1].json.error).toBe(
			'The API key was not accepted (missing, invalid, expired or revoked) [item 1]',
		);
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});

	it('refuses to send the key over plain http to a remote host, before any request', async () => {
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'account', operation: 'getCredits' }),
			{
				credentials: { apiKey: TEST_API_KEY, baseUrl: 'http://contentgen.example.com' },
			},
		);
		expect(result.error?.message).toBe(
			'Refusing to send the API key over plain http to a remote host [item 0]',
		);
	});

	it('an invalid Max Rate-Limit Wait is refused, naming the option, before any request', async () => {
		// The service would answer; its interceptor must still be waiting when the run ends.
		const scope = nock(TEST_BASE_URL)
			.get('/api/v1/user/credits')
			.reply(200, { success: true, data: credits });
		const result = await withoutStrayRequests(() =>
			runWorkflow(
				singleNodeWorkflow({
					resource: 'account',
					operation: 'getCredits',
					options: { maxRateLimitWait: -5 },
				}),
			),
		);
		expect(result.error?.message).toBe(
			"'Max Rate-Limit Wait' must be from 0 to 3600, got -5 [item 0]",
		);
		expect(scope.pendingMocks()).toEqual(['GET https://contentgen.test:443/api/v1/user/credits']);
	});
});
