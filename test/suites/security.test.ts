/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- writes a deliberate console line and captures the process's output streams and n8n's own logger instance */
/**
 * The API key never shows: not in output items, error messages, error descriptions, n8n's log
 * or the console, on success and on every error path. Ids with path or URL syntax never reach a
 * request path. A key aimed at plain http on a remote host is refused before any request.
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';
import { dirname } from 'path';

import type { Sandbox } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow, type RunResult } from '../helpers/engine';
import { startFlakyServer, type Step } from '../helpers/flaky-server';
import { pollHarness } from '../trigger/poll';
import { errorName, fromList, isAllowedPath, runNode, suiteSandbox } from './helpers';

// ---- the detector ------------------------------------------------------------------------

/** Every way a key could show: whole, its secret part alone, or behind a Bearer. */
export function leaksOf(text: string, apiKey: string): string[] {
	const secret = apiKey.replace(/^svc_/, '');
	const found: string[] = [];
	if (text.includes(apiKey)) found.push('the whole key');
	if (secret.length >= 16 && text.toLowerCase().includes(secret.toLowerCase()))
		found.push('the secret part');
	if (/Bearer\s+svc_[0-9a-f]/i.test(text)) found.push('a Bearer header');
	return found;
}

// ---- capture of everything the node and n8n write ------------------------------------------

type Logged = { level: string; text: string };
const logged: Logged[] = [];

function serialise(value: unknown): string {
	try {
		return typeof value === 'string'
			? value
			: JSON.stringify(value, (_k, v: unknown) =>
					v instanceof Error ? { ...v, message: v.message, stack: v.stack } : v,
				);
	} catch {
		return String(value);
	}
}

/** n8n-core's DI container and Logger token: a node's \`this.logger\` is \`Container.get(Logger)\`. */
function n8nLoggerSlot() {
	const coreDir = dirname(require.resolve('n8n-core'));
	const { Container } = require(require.resolve('@n8n/di', { paths: [coreDir] })) as {
		Container: { get(token: unknown): unknown; set(token: unknown, value: unknown): void };
	};
	const { Logger } = require(require.resolve('@n8n/backend-common', { paths: [coreDir] })) as {
		Logger: unknown;
	};
	return { Container, Logger };
}

const spies: jest.SpyInstance[] = [];

let restoreLogger: () => void = () => undefined;

function startCapture(): void {
	const { Container, Logger } = n8nLoggerSlot();
	const original = Container.get(Logger);
	const capture: Record<string, unknown> = {};
	for (const level of ['error', 'warn', 'info', 'debug']) {
		capture[level] = (...args: unknown[]) => {
			logged.push({ level: `n8n ${level}`, text: args.map(serialise).join(' ') });
		};
	}
	capture.scoped = () => capture;
	Container.set(Logger, capture);
	restoreLogger = () => Container.set(Logger, original);
	for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
		spies.push(
			jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
				logged.push({ level: `console.${method}`, text: args.map(serialise).join(' ') });
			}),
		);
	}
	for (const stream of [process.stdout, process.stderr]) {
		const original = stream.write.bind(stream);
		spies.push(
			jest.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
				logged.push({
					level: stream === process.stdout ? 'stdout' : 'stderr',
					text: String(chunk),
				});
				return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
			}) as typeof stream.write),
		);
	}
}

/** Everything a run exposed: items, the error (message, description, http code), logs. */
function exposed(result: RunResult | undefined, extra: unknown[] = []): string[] {
	const texts: string[] = [];
	if (result) {
		const runData = result.run.data.resultData.runData;
		texts.push(serialise(runData));
		const error = result.run.data.resultData.error as unknown as IDataObject | undefined;
		if (error)
			texts.push(
				serialise(error),
				String(error.message),
				String(error.description),
				String(error.stack),
			);
	}
	for (const item of extra) texts.push(serialise(item));
	texts.push(...logged.map((l) => `${l.level}: ${l.text}`));
	return texts;
}

function expectNoLeak(texts: string[], apiKey: string): void {
	const leaks = texts.flatMap((text) =>
		leaksOf(text, apiKey).map((what) => `${what} in: ${text.slice(0, 200)}`),
	);
	expect(leaks).toEqual([]);
}

// ---- setup ----------------------------------------------------------------------------------

let sb: Sandbox;
let projectId: string;
let articleId: string;
let contentId: string;

beforeAll(async () => {
	sb = await suiteSandbox({ seed: 23 });
	sb.control.advance(86_400_000);
	projectId = sb.control.projects()[0].id;
	[articleId] = sb.control.seedArticles(1, { status: 'cms' });
	[contentId] = sb.control.seedSocial(1, {
		status: 'completed',
		platforms: ['instagram', 'linkedin'],
	});
	startCapture();
});
beforeEach(() => {
	logged.length = 0;
	sb.control.clearFaults();
});
afterAll(async () => {
	for (const spy of spies) spy.mockRestore();
	restoreLogger();
	nock.cleanAll();
	nock.restore();
	nock.enableNetConnect();
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

// ---- every operation, on the happy path ----------------------------------------------------------

const EVERY_OPERATION: Array<[string, () => IDataObject]> = [
	[
		'article generate',
		() => ({
			resource: 'article',
			operation: 'generate',
			topic: 'Keys stay secret',
			projectId: fromList(projectId),
		}),
	],
	[
		'article generate + wait',
		() => ({
			resource: 'article',
			operation: 'generate',
			topic: 'Keys stay secret while waiting',
			projectId: fromList(projectId),
			waitForCompletion: true,
			options: { pollInterval: 1 },
		}),
	],
	['article get', () => ({ resource: 'article', operation: 'get', articleId })],
	['article getMany', () => ({ resource: 'article', operation: 'getMany', returnAll: true })],
	['article getStatus', () => ({ resource: 'article', operation: 'getStatus', articleId })],
	[
		'article waitForCompletion',
		() => ({ resource: 'article', operation: 'waitForCompletion', articleId }),
	],
	[
		'socialContent generate + wait',
		() => ({
			resource: 'socialContent',
			operation: 'generate',
			sourceUrl: 'https://example.com/secret',
			platforms: ['instagram'],
			waitForCompletion: true,
			options: { pollInterval: 1, downloadImages: true },
		}),
	],
	[
		'socialContent get with image download',
		() => ({
			resource: 'socialContent',
			operation: 'get',
			contentId,
			options: { downloadImages: true },
		}),
	],
	[
		'socialContent getMany',
		() => ({ resource: 'socialContent', operation: 'getMany', returnAll: true }),
	],
	[
		'socialContent publish',
		() => ({
			resource: 'socialContent',
			operation: 'publish',
			contentId: sb.control.seedSocial(1)[0],
		}),
	],
	[
		'socialContent waitForCompletion',
		() => ({ resource: 'socialContent', operation: 'waitForCompletion', contentId }),
	],
	[
		'project get',
		() => ({ resource: 'project', operation: 'get', projectId: fromList(projectId) }),
	],
	['project getMany', () => ({ resource: 'project', operation: 'getMany', returnAll: true })],
	['account getCredits', () => ({ resource: 'account', operation: 'getCredits' })],
	['account getUsage', () => ({ resource: 'account', operation: 'getUsage' })],
];

describe('no key in output or logs, on success', () => {
	it.each(EVERY_OPERATION)('%s', async (_name, params) => {
		sb.control.resetRequests();
		const result = await runNode(sb, params());
		expect(result.error).toBeUndefined();
		expectNoLeak(exposed(result), sb.apiKey);
		// image files are public URLs: the key is not sent there either
		const files = sb.control.requests().filter((r) => r.path.startsWith('/files/'));
		expect(files.every((r) => r.userId === null)).toBe(true);
	});

	it('downloading images did go to the file URLs (so the check above is live)', async () => {
		sb.control.resetRequests();
		await runNode(sb, {
			resource: 'socialContent',
			operation: 'get',
			contentId,
			options: { downloadImages: true },
		});
		expect(sb.control.requests().some((r) => r.path.startsWith('/files/'))).toBe(true);
	});
});

// ---- error paths ------------------------------------------------------------------------------

describe('no key in errors or logs, on every error path', () => {
	it('401: a key the service does not know', async () => {
		const unknownKey = `svc_${'9f'.repeat(32)}`;
		for (const [name, params] of EVERY_OPERATION.filter(([n]) => !n.includes('publish'))) {
			logged.length = 0;
			const result = await runNode(sb, params(), { apiKey: unknownKey });
			// Wait for Completion prefixes "Could not check on article <id>: "
			expect([name, result.error?.message]).toEqual([
				name,
				expect.stringMatching(
					/The API key was not accepted \(missing, invalid, expired or revoked\)$/,
				),
			]);
			expectNoLeak(exposed(result), unknownKey);
		}
	});

	it('403: a key without the scope, also as Continue On Fail items', async () => {
		const narrowKey = sb.control.createKey({ permissions: ['read'], scopes: ['user'] });
		const result = await runNode(
			sb,
			{ resource: 'article', operation: 'get', articleId },
			{ apiKey: narrowKey, continueOnFail: true },
		);
		const [item] = result.output('ContentGen');
		expect(item.json.error).toBe(
			'The API key may not do this: it needs the "read" permission and the "articles" scope',
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
						projectId: fromList(projectId),
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
					projectId: fromList(projectId),
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

// ---- ids never reach a path -------------------------------------------------------------------

describe('ids never reach a request path unvalidated', () => {
	const TRICKS = [
		'../user/credits',
		'..%2Fuser%2Fcredits',
		'%2e%2e/%2e%2e/user/credits',
		'x?status=cms',
		'#fragment',
		'https://evil.example/api/v1/user/credits',
		'//evil.example/x',
		'3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f/../../../user/credits',
		'3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f?limit=1',
		'3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f#x',
	];
	const ID_OPERATIONS: Array<[string, (id: string) => IDataObject, () => string]> = [
		[
			'article get',
			(id) => ({ resource: 'article', operation: 'get', articleId: id }),
			() => articleId,
		],
		[
			'article getStatus',
			(id) => ({ resource: 'article', operation: 'getStatus', articleId: id }),
			() => articleId,
		],
		[
			'article waitForCompletion',
			(id) => ({ resource: 'article', operation: 'waitForCompletion', articleId: id }),
			() => articleId,
		],
		[
			'article getMany project filter',
			(id) => ({ resource: 'article', operation: 'getMany', filters: { projectId: fromList(id) } }),
			() => projectId,
		],
		[
			'socialContent get',
			(id) => ({ resource: 'socialContent', operation: 'get', contentId: id }),
			() => contentId,
		],
		[
			'socialContent publish',
			(id) => ({ resource: 'socialContent', operation: 'publish', contentId: id }),
			() => sb.control.seedSocial(1)[0],
		],
		[
			'socialContent waitForCompletion',
			(id) => ({ resource: 'socialContent', operation: 'waitForCompletion', contentId: id }),
			() => contentId,
		],
		[
			'socialContent getMany article filter',
			(id) => ({ resource: 'socialContent', operation: 'getMany', filters: { articleId: id } }),
			() => articleId,
		],
		[
			'project get',
			(id) => ({ resource: 'project', operation: 'get', projectId: fromList(id) }),
			() => projectId,
		],
	];

	it.each(ID_OPERATIONS)(
		'%s: tricks are refused, a real id goes only where it belongs',
		async (_name, params, realId) => {
			sb.control.resetRequests();
			const input = TRICKS.map((id) => ({ id }));
			const result = await runNode(sb, params('={{ $json.id }}'), { input, continueOnFail: true });
			const output = result.output('ContentGen');
			expect(output).toHaveLength(TRICKS.length);
			expect(output.every((item) => typeof item.json.error === 'string')).toBe(true);
			expect(sb.control.requests()).toEqual([]);

			// a real id, upper-cased, reaches exactly its route
			const real = realId();
			await runNode(sb, params(real.toUpperCase()), { continueOnFail: true });
			const requests = sb.control.requests();
			expect(requests.length).toBeGreaterThan(0);
			for (const r of requests) {
				expect(isAllowedPath(r.path)).toBe(true);
				expect(
					Object.keys(r.query).every((k) =>
						['page', 'limit', 'article_id', 'project_id'].includes(k),
					),
				).toBe(true);
			}
			expect(
				requests.some(
					(r) =>
						r.path.includes(real) ||
						Object.values(r.query).includes(real) ||
						JSON.stringify(r.body ?? '').includes(real),
				),
			).toBe(true);
		},
	);

	it('the path check can fail', () => {
		expect(isAllowedPath('/api/v1/articles/../user/credits')).toBe(false);
		expect(isAllowedPath('/api/v1/articles/3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f/../status')).toBe(
			false,
		);
		expect(isAllowedPath('/api/v1/social/content/x')).toBe(false);
	});
});

// ---- plain http to a remote host -------------------------------------------------------------

describe('a Bearer key over plain http to a remote host is refused before any request', () => {
	const REMOTE = [
		'http://api.example.com',
		'http://api.example.com:8080/api/v1',
		'http://127.0.0.1.evil.example',
		'http://localhost.evil.example',
	];

	beforeAll(() => {
		nock.disableNetConnect();
		nock.enableNetConnect(/127\.0\.0\.1|localhost/);
	});
	afterAll(() => {
		nock.cleanAll();
		nock.enableNetConnect();
	});

	it.each(REMOTE)('%s', async (baseUrl) => {
		const host = new URL(baseUrl).origin;
		const scope = nock(host)
			.persist()
			.get(/.*/)
			.reply(200, { success: true, data: {} })
			.post(/.*/)
			.reply(202, { success: true, data: {} });
		try {
			for (const [name, params] of EVERY_OPERATION) {
				const result = await runWorkflow(singleNodeWorkflow(params()), {
					credentials: { apiKey: sb.apiKey, baseUrl },
				});
				expect([name, errorName(result), result.error?.message]).toEqual([
					name,
					'NodeOperationError',
					expect.stringMatching(/Refusing to send the API key over plain http to a remote host$/),
				]);
			}
			const trigger = pollHarness({ events: ['articleCompleted'] }, { apiKey: sb.apiKey, baseUrl });
			await expect(trigger.poll()).rejects.toThrow(
				'Refusing to send the API key over plain http to a remote host',
			);
			expect(scope.isDone()).toBe(false);
		} finally {
			nock.cleanAll();
		}
	});

	it('the refusal is specific: https to the same host is let through (and intercepted here)', async () => {
		const scope = nock('https://api.example.com')
			.get('/api/v1/user/credits')
			.reply(200, { success: true, data: { available_credits: 5 } });
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'account', operation: 'getCredits' }),
			{
				credentials: { apiKey: sb.apiKey, baseUrl: 'https://api.example.com' },
			},
		);
		expect(result.error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	it('plain http to this machine is allowed (the local sandbox)', async () => {
		const result = await runNode(sb, { resource: 'account', operation: 'getCredits' });
		expect(result.error).toBeUndefined();
		expect(sb.url.startsWith('http://127.0.0.1')).toBe(true);
	});
});
