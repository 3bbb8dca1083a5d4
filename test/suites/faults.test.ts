/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- the suite listens on the Node process itself and drives real timers next to the sandbox */
/**
 * Every operation and the trigger against the sandbox with faults injected (latency, 5xx,
 * dropped connections, malformed JSON, HTML pages, 429 storms; before or after a generate was
 * processed). Reads recover by retrying; a generate is never charged twice; errors say what
 * happened; the trigger emits each event once; nothing rejects unhandled.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import type { FaultConfig, LedgerEntry, RequestLogEntry, Sandbox } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import { refusedUrl } from '../helpers/flaky-server';
import { pollHarness } from '../trigger/poll';
import type { RunResult } from '../helpers/engine';
import { errorName, fromList, runNode, suiteSandbox } from './helpers';

/**
 * Jest gives a test file a copy of \`process\` whose listeners never hear of a rejection, so the
 * collector goes on the Node process itself, loaded past jest's module registry. (Jest's own
 * listener there also fails the test that caused a rejection.)
 */
const nodeProcess = (
	require('module') as { _load(request: string, parent: null, isMain: boolean): NodeJS.Process }
)._load('process', null, false);
const unhandled: unknown[] = [];
const collect = (reason: unknown) => {
	unhandled.push(reason);
};

let sb: Sandbox;
let projectId: string;
let articleId: string;
let contentId: string;

beforeAll(async () => {
	nodeProcess.on('unhandledRejection', collect);
	sb = await suiteSandbox({ seed: 11 });
	sb.control.advance(86_400_000);
	projectId = sb.control.projects()[0].id;
	[articleId] = sb.control.seedArticles(1, { status: 'cms' });
	[contentId] = sb.control.seedSocial(1, { status: 'completed' });
});
afterEach(async () => {
	sb.control.clearFaults();
	// a rejection nobody handled is reported after the current macrotask
	await new Promise((resolve) => setImmediate(resolve));
	expect(unhandled).toEqual([]);
});
afterAll(async () => {
	nodeProcess.off('unhandledRejection', collect);
	await sb.close();
});

function api() {
	return axios.create({
		baseURL: `${sb.url}/api/v1`,
		headers: { Authorization: `Bearer ${sb.apiKey}` },
		validateStatus: () => true,
	});
}

const GENERATE_PATH = /^\/api\/v1\/(articles|social)\/generate$/;

/**
 * The money check: charges made since `from` may not outnumber the distinct generate requests
 * (bodies) that were sent. A client that sends the same generate twice and gets charged twice
 * fails it. Returns the problems found.
 */
function doubleCharges(from: { ledger: number; log: number }): string[] {
	const charges: LedgerEntry[] = sb.control.ledger().slice(from.ledger);
	const posts: RequestLogEntry[] = sb.control
		.requests()
		.slice(from.log)
		.filter((r) => r.method === 'POST' && GENERATE_PATH.test(r.path));
	const intents = new Set(posts.map((r) => `${r.path} ${JSON.stringify(r.body)}`));
	const ids = new Set(charges.map((c) => c.recordId));
	const problems: string[] = [];
	if (charges.length > intents.size) {
		problems.push(`${charges.length} charges for ${intents.size} distinct generate requests`);
	}
	if (ids.size !== charges.length) problems.push('a record was charged more than once');
	return problems;
}

function mark() {
	return { ledger: sb.control.ledger().length, log: sb.control.requests().length };
}

function sent(from: { log: number }, method?: string): RequestLogEntry[] {
	return sb.control
		.requests()
		.slice(from.log)
		.filter((r) => method === undefined || r.method === method);
}

describe('the suite can fail', () => {
	it('the collector sees a deliberately unhandled rejection', async () => {
		const rejected = Promise.reject(new Error('deliberately unhandled'));
		await new Promise((resolve) => setImmediate(resolve));
		expect(unhandled).toEqual([new Error('deliberately unhandled')]);
		// handled late: jest's own listener forgives it, so only the collector's check was tested
		rejected.catch(() => undefined);
		await new Promise((resolve) => setImmediate(resolve));
		unhandled.length = 0;
	});

	it('the ledger check catches a client that re-sends a generate after a dropped answer', async () => {
		const from = mark();
		sb.control.setFaults({ dropRate: 1, afterProcessing: true, match: { method: 'POST' } });
		const body = { topic: 'Naive retry loop', project_id: projectId };
		// A naive client: retries any failed POST once.
		for (let attempt = 0; attempt < 2; attempt++) {
			try {
				await api().post('/articles/generate', body);
				break;
			} catch {
				// connection dropped: try again
			}
		}
		expect(sent(from, 'POST')).toHaveLength(2);
		expect(doubleCharges(from)).toEqual(['2 charges for 1 distinct generate requests']);
	});
});

/** One valid call of every read-only operation. */
const READS: Array<[string, () => IDataObject]> = [
	['article get', () => ({ resource: 'article', operation: 'get', articleId })],
	[
		'article getMany',
		() => ({ resource: 'article', operation: 'getMany', returnAll: false, limit: 150 }),
	],
	['article getStatus', () => ({ resource: 'article', operation: 'getStatus', articleId })],
	[
		'article waitForCompletion',
		() => ({
			resource: 'article',
			operation: 'waitForCompletion',
			articleId,
			options: { pollInterval: 1 },
		}),
	],
	['socialContent get', () => ({ resource: 'socialContent', operation: 'get', contentId })],
	[
		'socialContent getMany',
		() => ({ resource: 'socialContent', operation: 'getMany', returnAll: true }),
	],
	[
		'socialContent waitForCompletion',
		() => ({
			resource: 'socialContent',
			operation: 'waitForCompletion',
			contentId,
			options: { pollInterval: 1 },
		}),
	],
	[
		'project get',
		() => ({ resource: 'project', operation: 'get', projectId: fromList(projectId) }),
	],
	['project getMany', () => ({ resource: 'project', operation: 'getMany', returnAll: true })],
	['account getCredits', () => ({ resource: 'account', operation: 'getCredits' })],
	['account getUsage', () => ({ resource: 'account', operation: 'getUsage' })],
];

const GET_FAULTS: Array<[string, FaultConfig, (r: RequestLogEntry) => boolean]> = [
	['5xx', { serverErrorRate: 1 }, (r) => r.status >= 500],
	['a dropped connection', { dropRate: 1 }, (r) => r.status === 0],
	['malformed JSON', { malformedJsonRate: 1 }, (r) => r.status === 200],
	['an HTML error page', { htmlErrorRate: 1 }, (r) => r.status === 502],
];

/**
 * Faults the first request of the run only: the fault is lifted 100 ms after that request
 * arrives, well before the transport's first retry (500 ms later).
 */
async function faultFirstRequest(
	faults: FaultConfig,
	run: () => Promise<RunResult>,
): Promise<RunResult> {
	const from = mark();
	sb.control.setFaults({ ...faults, match: { method: 'GET' } });
	let seenAt: number | undefined;
	const watcher = setInterval(() => {
		if (seenAt === undefined && sent(from).length > 0) seenAt = Date.now();
		if (seenAt !== undefined && Date.now() - seenAt >= 100) sb.control.clearFaults();
	}, 5);
	try {
		return await run();
	} finally {
		clearInterval(watcher);
		sb.control.clearFaults();
	}
}

describe('reads recover by retrying', () => {
	it.each(
		READS.map(([name, params], i) => {
			const [faultName, faults, isFault] = GET_FAULTS[i % GET_FAULTS.length];
			return [name, faultName, faults, isFault, params] as const;
		}),
	)('%s through %s', async (_name, _faultName, faults, isFault, params) => {
		sb.control.advance(60_000);
		const from = mark();
		const result = await faultFirstRequest(faults, () => runNode(sb, params()));
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen').length).toBeGreaterThan(0);
		const log = sent(from);
		expect(isFault(log[0])).toBe(true);
		expect(log[0].path).toBe(log[1].path);
		expect(log.slice(1).every((r) => r.status === 200)).toBe(true);
	});

	it('a 429 storm on reads is waited out', async () => {
		const from = mark();
		sb.control.setFaults({
			rateLimitStorm: { requests: 2, retryAfter: 1 },
			match: { method: 'GET' },
		});
		const result = await runNode(sb, { resource: 'account', operation: 'getCredits' });
		expect(result.error).toBeUndefined();
		expect(sent(from).map((r) => r.status)).toEqual([429, 429, 200]);
	});

	it('a read that keeps failing ends with a clear error, after a bounded number of tries', async () => {
		const from = mark();
		sb.control.setFaults({ serverErrorRate: 1, match: { method: 'GET' } });
		const result = await runNode(sb, { resource: 'article', operation: 'get', articleId });
		expect(errorName(result)).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/^The service failed \(HTTP 50[0-4]\)$/);
		expect(result.error?.description).toContain('retried and kept failing');
		expect(sent(from)).toHaveLength(4);
	});
});

const GENERATES: Array<[string, () => IDataObject]> = [
	[
		'article',
		() => ({
			resource: 'article',
			operation: 'generate',
			topic: 'Faults and money',
			projectId: fromList(projectId),
		}),
	],
	[
		'socialContent',
		() => ({
			resource: 'socialContent',
			operation: 'generate',
			sourceUrl: 'https://example.com/faults',
			platforms: ['linkedin', 'twitter', 'threads'],
		}),
	],
];

describe.each(GENERATES)('%s generate: never charged twice', (_kind, params) => {
	it('5xx before processing: clear error, one POST, nothing charged', async () => {
		const from = mark();
		sb.control.setFaults({ serverErrorRate: 1, match: { method: 'POST' } });
		const result = await runNode(sb, params());
		expect(result.error?.message).toMatch(/^The service failed \(HTTP 50[0-4]\)$/);
		expect(result.error?.description).toContain('not sent again');
		expect(sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger);
	});

	it('connection dropped after processing: one POST, charged once, the error says not to re-run blindly', async () => {
		const from = mark();
		sb.control.setFaults({ dropRate: 1, afterProcessing: true, match: { method: 'POST' } });
		const result = await runNode(sb, params());
		expect(result.error?.message).toBe('The connection to the service broke before it answered');
		expect(result.error?.description).toContain('not sent again');
		expect(sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger + 1);
		expect(doubleCharges(from)).toEqual([]);
	});

	it('connection dropped before processing: one POST, nothing charged', async () => {
		const from = mark();
		sb.control.setFaults({ dropRate: 1, match: { method: 'POST' } });
		const result = await runNode(sb, params());
		expect(result.error?.message).toBe('The connection to the service broke before it answered');
		expect(sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger);
	});

	it('malformed JSON after processing: one POST, charged once', async () => {
		const from = mark();
		sb.control.setFaults({
			malformedJsonRate: 1,
			afterProcessing: true,
			match: { method: 'POST' },
		});
		const result = await runNode(sb, params());
		expect(result.error?.message).toBe(
			'The service accepted the request but its answer could not be read',
		);
		expect(result.error?.description).toContain('not sent again');
		expect(sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger + 1);
	});

	it('an HTML error page after processing: one POST, charged once, the page is summarised', async () => {
		const from = mark();
		sb.control.setFaults({ htmlErrorRate: 1, afterProcessing: true, match: { method: 'POST' } });
		const result = await runNode(sb, params());
		expect(result.error?.message).toBe('The service failed (HTTP 502)');
		expect(result.error?.description).toMatch(/not JSON/);
		expect(result.error?.description).not.toMatch(/<html|<body/i);
		expect(sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger + 1);
	});

	it('a 429 storm is waited out and the same request sent again: charged once', async () => {
		const from = mark();
		sb.control.setFaults({
			rateLimitStorm: { requests: 2, retryAfter: 1 },
			match: { method: 'POST' },
		});
		const result = await runNode(sb, params());
		expect(result.error).toBeUndefined();
		expect(sent(from, 'POST').map((r) => r.status)).toEqual([429, 429, 202]);
		expect(sb.control.ledger().length).toBe(from.ledger + 1);
		expect(doubleCharges(from)).toEqual([]);
	});

	it('a 429 that outlasts the allowed wait fails clearly without charging', async () => {
		const from = mark();
		sb.control.setFaults({
			rateLimitStorm: { requests: 5, retryAfter: 120 },
			match: { method: 'POST' },
		});
		const result = await runNode(sb, { ...params(), options: { maxRateLimitWait: 1 } });
		expect(result.error?.message).toBe('Rate limit reached: retry in 120 s');
		expect(sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger);
	});
});

describe('generate and wait under faults', () => {
	it('three articles and slow, flaky reads while waiting: each charged once, all finished', async () => {
		const from = mark();
		sb.control.setFaults({ latencyMs: 20, serverErrorRate: 0.3, match: { method: 'GET' } });
		const result = await runNode(
			sb,
			{
				resource: 'article',
				operation: 'generate',
				topic: '={{ $json.topic }}',
				projectId: fromList(projectId),
				waitForCompletion: true,
				options: { pollInterval: 1 },
			},
			{ input: [{ topic: 'Flaky one' }, { topic: 'Flaky two' }, { topic: 'Flaky three' }] },
		);
		sb.control.clearFaults();
		expect(result.error).toBeUndefined();
		const output = result.output('ContentGen');
		expect(
			output.map((i) => i.json.status).every((s) => s === 'cms' || s === 'needs_editing'),
		).toBe(true);
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(sent(from, 'POST')).toHaveLength(3);
		expect(sb.control.ledger().length).toBe(from.ledger + 3);
		expect(doubleCharges(from)).toEqual([]);
	});

	it('continue on fail: items whose answer was lost keep a clear error, the others go on', async () => {
		const input = [
			{ url: 'https://example.com/a' },
			{ url: 'https://example.com/b' },
			{ url: 'https://example.com/c' },
		];
		const params = {
			resource: 'socialContent',
			operation: 'generate',
			sourceUrl: '={{ $json.url }}',
			platforms: ['linkedin'],
		};
		let failed = 0;
		for (let attempt = 0; attempt < 5 && (failed === 0 || failed === 3); attempt++) {
			const from = mark();
			sb.control.setFaults({ dropRate: 0.5, afterProcessing: true, match: { method: 'POST' } });
			const result = await runNode(sb, params, { input, continueOnFail: true });
			sb.control.clearFaults();
			const output = result.output('ContentGen');
			expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			failed = 0;
			for (const item of output) {
				if (typeof item.json.error === 'string') {
					failed++;
					expect(item.json.error).toBe('The connection to the service broke before it answered');
				} else {
					expect(item.json.content_id).toEqual(expect.any(String));
				}
			}
			expect(sent(from, 'POST')).toHaveLength(3);
			expect(sb.control.ledger().length).toBe(from.ledger + 3);
			expect(doubleCharges(from)).toEqual([]);
		}
		expect(failed).toBeGreaterThan(0);
		expect(failed).toBeLessThan(3);
	});

	it('a refused connection never reached the service: the generate is retried, then fails clearly', async () => {
		const result = await runWorkflowAt(await refusedUrl(), {
			resource: 'article',
			operation: 'generate',
			topic: 'Nobody is listening',
			projectId: fromList(projectId),
		});
		expect(result.error?.message).toBe('Could not reach the service');
		expect(result.error?.description).toContain('ECONNREFUSED');
	});

	it('publish: an answer lost after processing is not sent again', async () => {
		const [record] = sb.control.seedSocial(1, { status: 'completed' });
		const from = mark();
		sb.control.setFaults({ dropRate: 1, afterProcessing: true, match: { method: 'POST' } });
		const result = await runNode(sb, {
			resource: 'socialContent',
			operation: 'publish',
			contentId: record,
		});
		expect(result.error?.message).toBe('The connection to the service broke before it answered');
		expect(sent(from, 'POST')).toHaveLength(1);
	});
});

async function runWorkflowAt(baseUrl: string, parameters: IDataObject) {
	return await runWorkflow(singleNodeWorkflow(parameters), {
		credentials: { apiKey: sb.apiKey, baseUrl },
	});
}

describe('trigger under faults', () => {
	const KNOWN_FAILURES = [
		/^The service failed \(HTTP 5\d\d\)$/,
		/^The connection to the service broke before it answered$/,
		/^The service answered with an unreadable body$/,
	];

	it('emits each completion exactly once through flaky polls and a restart', async () => {
		const trigger = pollHarness(
			{ events: ['articleCompleted', 'articleFailed', 'socialFinished', 'socialFailed'] },
			{ apiKey: sb.apiKey, baseUrl: sb.url },
		);
		expect(await trigger.poll()).toBeNull();

		const articles: string[] = [];
		for (let i = 0; i < 4; i++) {
			const r = await api().post('/articles/generate', {
				topic: `Trigger under faults ${i}`,
				project_id: projectId,
			});
			articles.push(r.data.data.article_id);
		}
		const social: string[] = [];
		for (let i = 0; i < 2; i++) {
			const r = await api().post('/social/generate', {
				source_url: `https://example.com/t${i}`,
				platforms: ['linkedin'],
			});
			social.push(r.data.data.content_id);
		}

		const flaky = mark();
		sb.control.setFaults({
			serverErrorRate: 0.08,
			dropRate: 0.04,
			malformedJsonRate: 0.04,
			htmlErrorRate: 0.04,
			latencyMs: 2,
			match: { method: 'GET' },
		});
		const events: Array<[string, string]> = [];
		const failures: string[] = [];
		for (let i = 0; i < 5; i++) {
			sb.control.advance(30_000);
			try {
				const out = await trigger.poll();
				for (const item of out?.[0] ?? [])
					events.push([String(item.json.event), String(item.json.id)]);
			} catch (error) {
				failures.push((error as Error).message);
			}
			if (i === 2) trigger.restart();
		}
		sb.control.clearFaults();
		// the faults really happened
		expect(sent(flaky).some((r) => r.status !== 200)).toBe(true);
		for (let i = 0; i < 3; i++) {
			sb.control.advance(30_000);
			const out = await trigger.poll();
			for (const item of out?.[0] ?? [])
				events.push([String(item.json.event), String(item.json.id)]);
		}

		for (const message of failures) {
			expect(KNOWN_FAILURES.some((pattern) => pattern.test(message))).toBe(true);
		}
		const ids = events.map(([, id]) => id).sort();
		expect(ids).toEqual([...articles, ...social].sort());
		for (const [event, id] of events) {
			expect(articles.includes(id) ? ['articleCompleted'] : ['socialFinished']).toContain(event);
		}
	});

	it('a 429 storm longer than a poll may wait skips that poll; the next one reports the change once', async () => {
		const trigger = pollHarness(
			{ events: ['articleCompleted'] },
			{ apiKey: sb.apiKey, baseUrl: sb.url },
		);
		expect(await trigger.poll()).toBeNull();
		const [queued] = sb.control.seedArticles(1, { status: 'queued' });
		expect(await trigger.poll()).toBeNull();
		sb.control.advance(1000);
		sb.control.setArticleStatus(queued, 'cms');
		sb.control.advance(1000);

		sb.control.setFaults({
			rateLimitStorm: { requests: 1, retryAfter: 3600 },
			match: { method: 'GET' },
		});
		expect(await trigger.poll()).toBeNull();
		sb.control.clearFaults();
		const out = await trigger.poll();
		expect(out?.[0].map((i) => [i.json.event, i.json.id])).toEqual([['articleCompleted', queued]]);
		expect(await trigger.poll()).toBeNull();
	});
});
