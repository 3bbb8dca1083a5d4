/**
 * Whole flows under faults: many generates waited for while reads fail, Continue On Fail with
 * answers lost, a refused connection, and the trigger through flaky polls and a restart.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import { refusedUrl } from '../helpers/flaky-server';
import { pollHarness } from '../../harness/trigger/poll';
import { Books, faultSuite } from './books';
import { fromList, runNode, type Records } from './helpers';

const suite = faultSuite(13);
let sb: Sandbox;
let books: Books;
let records: Records;
beforeAll(() => {
	({ sb, books, records } = suite);
});

describe('generate and wait under faults', () => {
	it('three articles and slow, flaky reads while waiting: each charged once, all finished', async () => {
		const from = books.mark();
		sb.control.setFaults({ latencyMs: 20, serverErrorRate: 0.3, match: { method: 'GET' } });
		const result = await runNode(
			sb,
			{
				resource: 'article',
				operation: 'generate',
				topic: '={{ $json.topic }}',
				projectId: fromList(records.projectId),
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
		expect(books.sent(from, 'POST')).toHaveLength(3);
		expect(sb.control.ledger().length).toBe(from.ledger + 3);
		expect(books.doubleCharges(from)).toEqual([]);
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
			const from = books.mark();
			sb.control.setFaults({ dropRate: 0.5, afterProcessing: true, match: { method: 'POST' } });
			const result = await runNode(sb, params, { input, continueOnFail: true });
			sb.control.clearFaults();
			const output = result.output('ContentGen');
			expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			failed = 0;
			for (const [index, item] of output.entries()) {
				if (typeof item.json.error === 'string') {
					failed++;
					expect(item.json.error).toBe(
						`The connection to the service broke before it answered [item ${index}]`,
					);
				} else {
					expect(item.json.content_id).toEqual(expect.any(String));
				}
			}
			expect(books.sent(from, 'POST')).toHaveLength(3);
			expect(sb.control.ledger().length).toBe(from.ledger + 3);
			expect(books.doubleCharges(from)).toEqual([]);
		}
		expect(failed).toBeGreaterThan(0);
		expect(failed).toBeLessThan(3);
	});

	it('a refused connection never reached the service: the generate is retried, then fails clearly', async () => {
		const result = await runWorkflowAt(await refusedUrl(), {
			resource: 'article',
			operation: 'generate',
			topic: 'Nobody is listening',
			projectId: fromList(records.projectId),
		});
		expect(result.error?.message).toBe('Could not reach the service [item 0]');
		expect(result.error?.description).toContain('ECONNREFUSED');
	});

	it('publish: an answer lost after processing is not sent again', async () => {
		const [record] = sb.control.seedSocial(1, { status: 'completed' });
		const from = books.mark();
		sb.control.setFaults({ dropRate: 1, afterProcessing: true, match: { method: 'POST' } });
		const result = await runNode(sb, {
			resource: 'socialContent',
			operation: 'publish',
			contentId: record,
		});
		expect(result.error?.message).toBe(
			'The connection to the service broke before it answered [item 0]',
		);
		expect(books.sent(from, 'POST')).toHaveLength(1);
	});
});

async function runWorkflowAt(baseUrl: string, parameters: IDataObject) {
	return await runWorkflow(singleNodeWorkflow(parameters), {
		credentials: { apiKey: sb.apiKey, baseUrl },
	});
}

describe('trigger under faults', () => {
	const KNOWN_FAILURES = [
		/^The service could not handle the request \(HTTP 5\d\d\)$/,
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
			const r = await books.api().post('/articles/generate', {
				topic: `Trigger under faults ${i}`,
				project_id: records.projectId,
			});
			articles.push(r.data.data.article_id);
		}
		const social: string[] = [];
		for (let i = 0; i < 2; i++) {
			const r = await books.api().post('/social/generate', {
				source_url: `https://example.com/t${i}`,
				platforms: ['linkedin'],
			});
			social.push(r.data.data.content_id);
		}

		const flaky = books.mark();
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
		expect(books.sent(flaky).some((r) => r.status !== 200)).toBe(true);
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
