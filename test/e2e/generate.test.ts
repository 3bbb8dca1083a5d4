import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';

/** Request log lines of the API routes, e.g. "GET /articles/<id>/status". */
function routes(sandbox: Sandbox): string[] {
	return sandbox.control
		.requests()
		.filter((r) => r.path.startsWith('/api/v1/'))
		.map((r) => {
			const query = new URLSearchParams(r.query).toString();
			return `${r.method} ${r.path.replace('/api/v1', '')}${query ? `?${query}` : ''}`;
		});
}

describe('generate and wait against the sandbox over real HTTP', () => {
	let sandbox: Sandbox;
	let credentials: { apiKey: string; baseUrl: string };
	let projectId: string;
	const run = (parameters: IDataObject, input?: IDataObject[], continueOnFail = false) =>
		runWorkflow(singleNodeWorkflow(parameters, { continueOnFail }), { credentials, input });

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, speed: 5000, seed: 7 });
		credentials = { apiKey: sandbox.apiKey, baseUrl: sandbox.url };
		projectId = sandbox.control.projects()[0].id;
	});
	afterAll(async () => {
		await sandbox.close();
	});
	beforeEach(() => sandbox.control.resetRequests());

	const article = (extra: IDataObject = {}) => ({
		resource: 'article',
		operation: 'generate',
		topic: 'How a small bakery can win local search',
		projectId: { __rl: true, mode: 'id', value: projectId },
		waitForCompletion: true,
		additionalFields: { tone: 'casual', wordCount: 900 },
		options: { pollInterval: 1 },
		...extra,
	});

	it('article generate + wait: one charge of 1.5 credits and the finished article with content', async () => {
		sandbox.control.forceOutcome('article', 'cms');
		const before = sandbox.control.ledger().length;
		const result = await run(article());
		expect(result.error).toBeUndefined();
		const [item] = result.output('ContentGen');
		expect(item.json.status).toBe('cms');
		expect(typeof item.json.content).toBe('string');
		expect(String(item.json.content).length).toBeGreaterThan(0);
		const charges = sandbox.control.ledger().slice(before);
		expect(charges.map((c) => [c.kind, c.recordId, c.credits])).toEqual([
			['article', item.json.id, 1.5],
		]);
		expect(routes(sandbox)).toEqual([
			'POST /articles/generate',
			`GET /articles/${String(item.json.id)}/status`,
			`GET /articles/${String(item.json.id)}`,
		]);
	});

	it('social generate + wait (3 platforms): one charge of 1.8 credits and captions for each platform', async () => {
		sandbox.control.forceOutcome('social', 'completed');
		const before = sandbox.control.ledger().length;
		const result = await run({
			resource: 'socialContent',
			operation: 'generate',
			sourceUrl: 'https://blog.example.com/bakery-search',
			platforms: ['instagram', 'linkedin', 'bluesky'],
			waitForCompletion: true,
			options: { pollInterval: 1 },
		});
		expect(result.error).toBeUndefined();
		const [item] = result.output('ContentGen');
		expect(item.json.status).toBe('completed');
		expect((item.json.platform_names as string[]).sort()).toEqual([
			'bluesky',
			'instagram',
			'linkedin',
		]);
		const charges = sandbox.control.ledger().slice(before);
		expect(charges.map((c) => [c.kind, c.recordId, c.credits, c.hundredths])).toEqual([
			['social', item.json.id, 1.8, 180],
		]);
	});

	it('social generate without wait shows 1.8 credits spent, never a float artefact', async () => {
		const result = await run({
			resource: 'socialContent',
			operation: 'generate',
			sourceUrl: 'https://blog.example.com/bakery-search',
			platforms: ['instagram', 'linkedin', 'bluesky'],
		});
		const [item] = result.output('ContentGen');
		expect(item.json.credits_spent).toBe(1.8);
		expect(item.json.credits_deducted).toBe(1.8);
		expect(item.json.status).toBe('generating');
	});

	it('5 items waited for together: 5 POSTs, one list request per round, one GET per article, 5 charges', async () => {
		sandbox.control.forceOutcome('article', 'needs_editing', 2);
		const before = sandbox.control.ledger().length;
		const input = Array.from({ length: 5 }, (_, n) => ({ topic: `Bakery topic number ${n + 1}` }));
		const result = await run(article({ topic: '={{ $json.topic }}' }), input);
		expect(result.error).toBeUndefined();
		const items = result.output('ContentGen');
		expect(
			items.map((item) => item.json.title !== undefined && item.json.content !== undefined),
		).toEqual(input.map(() => true));
		expect(items.map((item) => item.pairedItem)).toEqual(input.map((_, n) => ({ item: n })));
		const log = routes(sandbox);
		const posts = log.filter((line) => line.startsWith('POST'));
		const lists = log.filter((line) => line.startsWith('GET /articles?'));
		const singles = log.filter((line) => /^GET \/articles\/[0-9a-f-]+$/.test(line));
		expect(posts).toHaveLength(5);
		expect(lists.length).toBeGreaterThanOrEqual(1);
		expect(new Set(lists)).toEqual(new Set(['GET /articles?status=queued&page=1&limit=100']));
		expect(singles.sort()).toEqual(
			items.map((item) => `GET /articles/${String(item.json.id)}`).sort(),
		);
		expect(log).toHaveLength(5 + lists.length + 5);
		const charges = sandbox.control.ledger().slice(before);
		expect(charges).toHaveLength(5);
		expect(charges.reduce((sum, c) => sum + c.hundredths, 0)).toBe(750);
	});

	it('a failed generation fails only its own item under Continue On Fail', async () => {
		sandbox.control.forceOutcome('article', 'failed');
		sandbox.control.forceOutcome('article', 'cms');
		const result = await run(article(), [{}, {}], true);
		const items = result.output('ContentGen');
		expect(items[0].json.error).toMatch(
			/^The service could not generate the article \(article_id [0-9a-f-]+\) \[item 0\]$/,
		);
		expect(items[0].json.article_id).toBeDefined();
		expect(items[1].json.status).toBe('cms');
	});
});
