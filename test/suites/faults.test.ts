/* eslint-disable @n8n/community-nodes/no-restricted-globals -- drives real timers next to the sandbox */
/**
 * Every operation of the node's map against the sandbox with faults injected (latency, 5xx,
 * dropped connections, malformed JSON, HTML pages, 429 storms; before or after a POST was
 * processed). Reads recover by retrying; a POST is never sent twice, so a generate is never
 * charged twice; errors say what happened; nothing rejects unhandled. Cases come from
 * test/suites/cases/operations.ts.
 */
import type { FaultConfig, RequestLogEntry, Sandbox } from '../../sandbox';
import type { RunResult } from '../helpers/engine';
import { Books, faultSuite, unhandled } from './books';
import { describeEachOperation } from './cases/operations';
import { errorName, runNode, type Records } from './helpers';

const suite = faultSuite(11);
let sb: Sandbox;
let books: Books;
let records: Records;
beforeAll(() => {
	({ sb, books, records } = suite);
});

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
		const from = books.mark();
		sb.control.setFaults({ dropRate: 1, afterProcessing: true, match: { method: 'POST' } });
		const body = { topic: 'Naive retry loop', project_id: records.projectId };
		// A naive client: retries any failed POST once.
		for (let attempt = 0; attempt < 2; attempt++) {
			try {
				await books.api().post('/articles/generate', body);
				break;
			} catch {
				// connection dropped: try again
			}
		}
		expect(books.sent(from, 'POST')).toHaveLength(2);
		expect(books.doubleCharges(from)).toEqual(['2 charges for 1 distinct generate requests']);
	});
});

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
	const from = books.mark();
	sb.control.setFaults({ ...faults, match: { method: 'GET' } });
	let seenAt: number | undefined;
	const watcher = setInterval(() => {
		if (seenAt === undefined && books.sent(from).length > 0) seenAt = Date.now();
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
	// each read meets one kind of fault, in turn, so every kind is met by several operations
	let turn = 0;
	describeEachOperation('fault', (ref, entry) => {
		if (entry.method !== 'GET') return;
		const [faultName, faults, isFault] = GET_FAULTS[turn++ % GET_FAULTS.length];
		it(`recovers through ${faultName}`, async () => {
			sb.control.advance(60_000);
			const from = books.mark();
			const params = { resource: ref.resource, operation: ref.operation, ...entry.valid(records) };
			const result = await faultFirstRequest(faults, () => runNode(sb, params));
			expect(result.error).toBeUndefined();
			expect(result.output('ContentGen').length).toBeGreaterThan(0);
			const log = books.sent(from);
			expect(isFault(log[0])).toBe(true);
			expect(log[0].path).toBe(log[1].path);
			expect(log.slice(1).every((r) => r.status === 200)).toBe(true);
		});
	});

	it('a 429 storm on reads is waited out', async () => {
		const from = books.mark();
		sb.control.setFaults({
			rateLimitStorm: { requests: 2, retryAfter: 1 },
			match: { method: 'GET' },
		});
		const result = await runNode(sb, { resource: 'account', operation: 'getCredits' });
		expect(result.error).toBeUndefined();
		expect(books.sent(from).map((r) => r.status)).toEqual([429, 429, 200]);
	});

	it('a read that keeps failing ends with a clear error, after a bounded number of tries', async () => {
		const from = books.mark();
		sb.control.setFaults({ serverErrorRate: 1, match: { method: 'GET' } });
		const result = await runNode(sb, {
			resource: 'article',
			operation: 'get',
			articleId: records.articleId,
		});
		expect(errorName(result)).toBe('NodeApiError');
		expect(result.error?.message).toMatch(
			/^The service could not handle the request \(HTTP 50[0-4]\) \[item 0\]$/,
		);
		expect(result.error?.description).toContain(
			'sent again and the service kept answering the same',
		);
		expect(books.sent(from)).toHaveLength(4);
	});
});

describeEachOperation('fault', (ref, entry) => {
	if (entry.method !== 'POST') return;
	/** What one successful run adds to the ledger. */
	const charge = entry.charged ? 1 : 0;
	const params = () => ({
		resource: ref.resource,
		operation: ref.operation,
		...entry.valid(records),
	});

	it('5xx before processing: clear error, one POST, nothing charged', async () => {
		const from = books.mark();
		sb.control.setFaults({ serverErrorRate: 1, match: { method: 'POST' } });
		const result = await runNode(sb, params());
		expect(result.error?.message).toMatch(
			/^The service could not handle the request \(HTTP 50[0-4]\) \[item 0\]$/,
		);
		expect(result.error?.description).toContain('not sent again');
		expect(books.sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger);
	});

	it('connection dropped after processing: one POST, charged at most once, the error says not to re-run blindly', async () => {
		const from = books.mark();
		sb.control.setFaults({ dropRate: 1, afterProcessing: true, match: { method: 'POST' } });
		const result = await runNode(sb, params());
		expect(result.error?.message).toBe(
			'The connection to the service broke before it answered [item 0]',
		);
		expect(result.error?.description).toContain('not sent again');
		expect(books.sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger + charge);
		expect(books.doubleCharges(from)).toEqual([]);
	});

	it('connection dropped before processing: one POST, nothing charged', async () => {
		const from = books.mark();
		sb.control.setFaults({ dropRate: 1, match: { method: 'POST' } });
		const result = await runNode(sb, params());
		expect(result.error?.message).toBe(
			'The connection to the service broke before it answered [item 0]',
		);
		expect(books.sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger);
	});

	it('malformed JSON after processing: one POST, charged at most once', async () => {
		const from = books.mark();
		sb.control.setFaults({
			malformedJsonRate: 1,
			afterProcessing: true,
			match: { method: 'POST' },
		});
		const result = await runNode(sb, params());
		expect(result.error?.message).toBe(
			'The service accepted the request but its answer could not be read [item 0]',
		);
		expect(result.error?.description).toContain('not sent again');
		expect(books.sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger + charge);
	});

	it('an HTML error page after processing: one POST, charged once, the page is summarised', async () => {
		const from = books.mark();
		sb.control.setFaults({ htmlErrorRate: 1, afterProcessing: true, match: { method: 'POST' } });
		const result = await runNode(sb, params());
		expect(result.error?.message).toBe(
			'The service could not handle the request (HTTP 502) [item 0]',
		);
		expect(result.error?.description).toMatch(/not JSON/);
		expect(result.error?.description).not.toMatch(/<html|<body/i);
		expect(books.sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger + charge);
	});

	it('a 429 storm is waited out and the same request sent again: charged at most once', async () => {
		const from = books.mark();
		sb.control.setFaults({
			rateLimitStorm: { requests: 2, retryAfter: 1 },
			match: { method: 'POST' },
		});
		const result = await runNode(sb, params());
		expect(result.error).toBeUndefined();
		expect(books.sent(from, 'POST').map((r) => r.status)).toEqual([429, 429, 202]);
		expect(sb.control.ledger().length).toBe(from.ledger + charge);
		expect(books.doubleCharges(from)).toEqual([]);
	});

	it('a 429 that outlasts the allowed wait fails clearly without charging', async () => {
		const from = books.mark();
		sb.control.setFaults({
			rateLimitStorm: { requests: 5, retryAfter: 120 },
			match: { method: 'POST' },
		});
		const result = await runNode(sb, { ...params(), options: { maxRateLimitWait: 1 } });
		expect(result.error?.message).toBe('Rate limit reached: retry in 120 s [item 0]');
		expect(books.sent(from, 'POST')).toHaveLength(1);
		expect(sb.control.ledger().length).toBe(from.ledger);
	});
});
