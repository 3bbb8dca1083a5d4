/* eslint-disable no-console -- writes a deliberate console line to prove the capture sees it */
/**
 * The API key never shows: not in output items, error messages, error descriptions, n8n's log
 * or the console, on success and on every error path. Every operation of the node's map is run
 * through n8n's engine with the cases of test/suites/cases/operations.ts.
 */

import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import { startFlakyServer, type Step } from '../helpers/flaky-server';
import { pollHarness } from '../../harness/trigger/poll';
import { describeEachOperation, everyRun, successfulRuns } from './cases/operations';
import { expectNoLeak, exposed, leaksOf, logged, startCapture, stopCapture } from './exposure';
import { isAllowedPath, sentTo } from '../helpers/routes';
import { fromList, runNode, seededRecords, type Records } from './helpers';

let records: Records;
let sb: Records['sb'];

beforeAll(async () => {
	records = await seededRecords(23);
	sb = records.sb;
	startCapture();
});
beforeEach(() => {
	logged.length = 0;
	sb.control.clearFaults();
});
afterAll(async () => {
	stopCapture();
	await sb.close();
});

describe('the detector can fail', () => {
	const key = `svc_${'ab12'.repeat(16)}`;

	it.each([
		['the key in a sentence', `request failed for ${key}`],
		['the key in JSON', JSON.stringify({ headers: { authorization: `Bearer ${key}` } })],
		['the secret part alone', `token=${'ab12'.repeat(16)}`],
		['an upper-cased secret', `token=${'AB12'.repeat(16)}`],
		['any Bearer key', 'Authorization: Bearer svc_0123456789'],
	])('flags %s', (_what, text) => {
		expect(leaksOf(text, key).length).toBeGreaterThan(0);
		expect(() => expectNoLeak([text], key)).toThrow();
	});

	it('passes text without the key, including the redacted form', () => {
		expect(leaksOf('The API key svc_… was not accepted; Bearer …', key)).toEqual([]);
	});

	it('sees what the capture sees: a deliberate console line with the key is flagged', () => {
		logged.length = 0;
		console.warn(`deliberate leak ${key}`);
		expect(leaksOf(exposed(undefined).join('\n'), key)).toContain('the whole key');
		logged.length = 0;
	});
});

/**
 * Every operation's successful runs through n8n's engine: the run succeeds, its items are paired
 * with the input, it sends its own route and only the routes its case names, never
 * the key to an image address, and the key shows nowhere.
 */
describeEachOperation('engine and security', (ref, entry) => {
	it.each(successfulRuns(ref, entry))('runs, leaking no key: %s', async (_name, params) => {
		sb.control.resetRequests();
		const result = await runNode(sb, params(records));
		expect(result.error).toBeUndefined();
		const output = result.output('ContentGen');
		expect(output.length).toBeGreaterThan(0);
		expect(output.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		const requests = sb.control.requests();
		const api = requests.filter((r) => !r.path.startsWith('/files/'));
		expect(api.filter((r) => !isAllowedPath(r.path))).toEqual([]);
		// its own route, then only the routes its case names (a generate may wait and read)
		expect(api.some((r) => sentTo(r, entry.routes.slice(0, 1)))).toBe(true);
		expect(api.filter((r) => !sentTo(r, entry.routes)).map((r) => `${r.method} ${r.path}`)).toEqual(
			[],
		);
		expectNoLeak(exposed(result), sb.apiKey);
		// image files are public URLs: the key is not sent there either
		const files = requests.filter((r) => r.path.startsWith('/files/'));
		expect(files.every((r) => r.userId === null)).toBe(true);
	});
});

it('downloading images did go to the file URLs (so the check of image requests is live)', async () => {
	sb.control.resetRequests();
	await runNode(sb, {
		resource: 'socialContent',
		operation: 'get',
		contentId: records.contentId,
		options: { downloadImages: true },
	});
	expect(sb.control.requests().some((r) => r.path.startsWith('/files/'))).toBe(true);
});

describe('no key in errors or logs, on every error path', () => {
	it('401: a key the service does not know', async () => {
		const unknownKey = `svc_${'9f'.repeat(32)}`;
		for (const [name, params] of everyRun()) {
			logged.length = 0;
			const result = await runNode(sb, params(records), { apiKey: unknownKey });
			// Wait for Completion prefixes "Could not check on article <id>: "
			expect([name, result.error?.message]).toEqual([
				name,
				expect.stringMatching(
					/The API key was not accepted \(missing, invalid, expired or revoked\) \[item 0\]$/,
				),
			]);
			expectNoLeak(exposed(result), unknownKey);
		}
	});

	it('403: a key without the scope, also as Continue On Fail items', async () => {
		const narrowKey = sb.control.createKey({ permissions: ['read'], scopes: ['user'] });
		const result = await runNode(
			sb,
			{ resource: 'article', operation: 'get', articleId: records.articleId },
			{ apiKey: narrowKey, continueOnFail: true },
		);
		const [item] = result.output('ContentGen');
		expect(item.json.error).toBe(
			'The API key may not do this: it needs the "read" permission and the "articles" scope [item 0]',
		);
		expectNoLeak(exposed(result), narrowKey);
	});

	it('500 and HTML pages, with and without Continue On Fail', async () => {
		for (const faults of [{ serverErrorRate: 1 }, { htmlErrorRate: 1 }, { malformedJsonRate: 1 }]) {
			for (const continueOnFail of [false, true]) {
				logged.length = 0;
				sb.control.setFaults({ ...faults, match: { method: 'POST' } });
				const result = await runNode(
					sb,
					{
						resource: 'article',
						operation: 'generate',
						topic: 'Faulty',
						projectId: fromList(records.projectId),
					},
					{ continueOnFail },
				);
				sb.control.clearFaults();
				if (!continueOnFail) expect(result.error).toBeDefined();
				else expect(result.output('ContentGen')[0].json.error).toEqual(expect.any(String));
				expectNoLeak(exposed(result), sb.apiKey);
			}
		}
	});

	// A misbehaving service or proxy that echoes the key back must not get it shown.
	const echo = (key: string): Array<[string, Step[]]> => [
		[
			'401 envelope echoing the key',
			[
				{
					status: 401,
					body: {
						success: false,
						error: { code: 'UNAUTHORIZED', message: `Invalid key ${key}` },
						meta: { request_id: 'r1' },
					},
				},
			],
		],
		[
			'403 echoing the Bearer header',
			[
				{
					status: 403,
					body: {
						success: false,
						error: { code: 'FORBIDDEN', message: `Authorization: Bearer ${key} lacks scope` },
					},
				},
			],
		],
		[
			'500 flat error with the key',
			[{ status: 500, body: { error: `internal error while checking ${key}` } }],
		],
		[
			'HTML page with the key',
			[
				{
					status: 502,
					body: `<html><head><title>Bad gateway for ${key}</title></head><body>${key}</body></html>`,
					headers: { 'Content-Type': 'text/html' },
				},
			],
		],
		[
			'plain text 400 with the secret part',
			[
				{
					status: 400,
					body: `bad request: token ${key.slice(4)}`,
					headers: { 'Content-Type': 'text/plain' },
				},
			],
		],
	];

	it.each(echo('KEY').map(([name]) => [name]))('a service echoing the key: %s', async (name) => {
		const key = `svc_${'c3'.repeat(32)}`;
		const steps = echo(key).find(([n]) => n === name)?.[1] ?? [];
		// POST: the transport sends it once, so one scripted answer is enough
		const server = await startFlakyServer(steps);
		try {
			logged.length = 0;
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'article',
					operation: 'generate',
					topic: 'Echo',
					projectId: fromList(records.projectId),
				}),
				{ credentials: { apiKey: key, baseUrl: server.url } },
			);
			expect(result.error).toBeDefined();
			expect(server.seen).toHaveLength(1);
			expect(server.seen[0].authorization).toBe(`Bearer ${key}`);
			expectNoLeak(exposed(result), key);
		} finally {
			await server.close();
		}
	});

	it('the trigger: a rejected key and an echoing service leave no key in its errors or logs', async () => {
		const key = `svc_${'d4'.repeat(32)}`;
		const server = await startFlakyServer([
			{
				status: 401,
				body: { success: false, error: { code: 'UNAUTHORIZED', message: `Invalid key ${key}` } },
			},
		]);
		try {
			logged.length = 0;
			const trigger = pollHarness(
				{ events: ['articleCompleted'] },
				{ apiKey: key, baseUrl: server.url },
			);
			let thrown: unknown;
			try {
				await trigger.poll();
			} catch (error) {
				thrown = error;
			}
			expect((thrown as Error).message).toBe(
				'The API key was not accepted (missing, invalid, expired or revoked)',
			);
			expectNoLeak(
				exposed(undefined, [
					thrown,
					(thrown as { description?: string }).description,
					trigger.staticData(),
				]),
				key,
			);
		} finally {
			await server.close();
		}
	});
});
