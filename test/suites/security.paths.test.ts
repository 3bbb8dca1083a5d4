/**
 * Where the key and the ids may go: an id with path or URL syntax never reaches a request path,
 * and a key aimed at plain http on a remote host is refused before any request. Every operation
 * of the node's map, with its id parameters from test/suites/cases/operations.ts.
 */
import nock from 'nock';

import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import { pollHarness } from '../../harness/trigger/poll';
import { describeEachOperation, everyRun } from './cases/operations';
import { isAllowedPath } from '../helpers/routes';
import { errorName, runNode, seededRecords, type Records } from './helpers';
import { setupNock } from '../helpers/nock';

let records: Records;
let sb: Records['sb'];

beforeAll(async () => {
	records = await seededRecords(23);
	sb = records.sb;
});
afterAll(async () => {
	await sb.close();
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
	describeEachOperation('id', (_ref, entry) => {
		if (entry.ids.length === 0) return;
		it.each(entry.ids.map((c) => [c.name, c] as const))(
			'%s: tricks are refused, a real id goes only where it belongs',
			async (_name, { params, real: realId }) => {
				sb.control.resetRequests();
				const input = TRICKS.map((id) => ({ id }));
				const result = await runNode(sb, params('={{ $json.id }}'), {
					input,
					continueOnFail: true,
				});
				const output = result.output('ContentGen');
				expect(output).toHaveLength(TRICKS.length);
				expect(output.every((item) => typeof item.json.error === 'string')).toBe(true);
				expect(sb.control.requests()).toEqual([]);

				// a real id, upper-cased, reaches exactly its route
				const real = realId(records);
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
	});

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

	setupNock({ allow: /127\.0\.0\.1|localhost/ });

	it.each(REMOTE)('%s', async (baseUrl) => {
		const host = new URL(baseUrl).origin;
		const scope = nock(host)
			.persist()
			.get(/.*/)
			.reply(200, { success: true, data: {} })
			.post(/.*/)
			.reply(202, { success: true, data: {} });
		try {
			for (const [name, params] of everyRun()) {
				const result = await runWorkflow(singleNodeWorkflow(params(records)), {
					credentials: { apiKey: sb.apiKey, baseUrl },
				});
				expect([name, errorName(result), result.error?.message]).toEqual([
					name,
					'NodeOperationError',
					expect.stringMatching(
						// a refusal met by an item names it; the one a wait meets opening its connection does not
						/Refusing to send the API key over plain http to a remote host( \[item 0\])?$/,
					),
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
