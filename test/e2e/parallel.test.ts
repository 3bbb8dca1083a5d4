/**
 * Items in parallel across a network with latency: the sandbox holds every answer back 150 ms, as
 * an API across an ocean would. A batch must take about one latency per Parallel Requests items,
 * not one per item, with the output in input order and paired, and never more requests in flight
 * than the option allows or the key's budget has left.
 */
import { sleep, type IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';

const LATENCY_MS = 150;

let sb: Sandbox;
let ids: string[];

beforeAll(async () => {
	sb = await startSandbox({ seed: 71, speed: 1000, latencyMs: LATENCY_MS, quiet: true });
	sb.control.advance(86_400_000);
	ids = sb.control.seedArticles(50, { status: 'cms' });
});
afterAll(async () => await sb.close());

async function run(parameters: IDataObject, input: IDataObject[]) {
	sb.control.resetRequests();
	const started = performance.now();
	const result = await runWorkflow(singleNodeWorkflow(parameters), {
		credentials: { apiKey: sb.apiKey, baseUrl: sb.url },
		input,
	});
	return { result, ms: performance.now() - started, requests: sb.control.requests() };
}

const peak = (requests: Array<{ inFlight?: number }>) =>
	Math.max(0, ...requests.map((r) => r.inFlight ?? 0));

describe('50 article Gets at 150 ms latency', () => {
	const get = (options: IDataObject = {}) => ({
		resource: 'article',
		operation: 'get',
		articleId: '={{ $json.id }}',
		options,
	});

	it('take well under half the time of one at a time, in input order, paired', async () => {
		const input = ids.map((id) => ({ id }));
		const oneAtATime = await run(get({ parallelRequests: 1 }), input);
		const parallel = await run(get(), input);
		for (const { result } of [oneAtATime, parallel]) {
			expect(result.error).toBeUndefined();
			const items = result.output('ContentGen');
			expect(items.map((item) => item.json.id)).toEqual(ids);
			expect(items.map((item) => item.pairedItem)).toEqual(ids.map((_id, item) => ({ item })));
		}
		expect(oneAtATime.requests).toHaveLength(50);
		expect(parallel.requests).toHaveLength(50);
		expect(parallel.ms / oneAtATime.ms).toBeLessThan(0.5);
		expect(peak(oneAtATime.requests)).toBe(1);
		// ten before the budget is known, then the other forty at once
		expect(peak(parallel.requests)).toBeGreaterThan(20);
	});
});

describe('publishing at 150 ms latency', () => {
	const publish = (options: IDataObject = {}) => ({
		resource: 'socialContent',
		operation: 'publish',
		contentId: '={{ $json.id }}',
		options,
	});
	const fresh = () => sb.control.seedSocial(8, { status: 'completed' }).map((id) => ({ id }));

	it('publishes several at once; output in input order, paired', async () => {
		const input = fresh();
		const { result, requests } = await run(publish(), input);
		expect(result.error).toBeUndefined();
		// all eight at once: fewer than the ten that go before the budget is known
		expect(peak(requests)).toBe(8);
		const items = result.output('ContentGen');
		expect(items.map((item) => item.json.content_id)).toEqual(input.map((i) => i.id));
		expect(items.map((item) => item.pairedItem)).toEqual(input.map((_i, item) => ({ item })));
	});

	it('with Parallel Requests set publishes that many at once, in input order', async () => {
		const input = fresh();
		const { result, requests } = await run(publish({ parallelRequests: 3 }), input);
		expect(result.error).toBeUndefined();
		expect(peak(requests)).toBe(3);
		expect(result.output('ContentGen').map((item) => item.json.content_id)).toEqual(
			input.map((i) => i.id),
		);
	});
});

describe('Return All across a network with latency', () => {
	// 600 ms, so that pages sent together are seen together even when a busy machine spreads
	// their sending over more than 150 ms
	beforeAll(() => sb.control.setLatency(4 * LATENCY_MS));
	afterAll(() => sb.control.setLatency(LATENCY_MS));

	it('reads the pages after the second several at once: the same records in the same order', async () => {
		sb.control.seedArticles(900, { status: 'draft' });
		const all = (options: IDataObject = {}) => ({
			resource: 'article',
			operation: 'getMany',
			returnAll: true,
			filters: { status: 'draft' },
			options,
		});
		const oneAtATime = await run(all({ parallelRequests: 1 }), [{}]);
		const parallel = await run(all(), [{}]);
		const listed = (r: typeof parallel) => r.result.output('ContentGen').map((i) => i.json.id);
		const drafts = listed(oneAtATime).length;
		expect(drafts).toBeGreaterThanOrEqual(900);
		expect(new Set(listed(parallel)).size).toBe(drafts);
		expect(listed(parallel)).toEqual(listed(oneAtATime));
		expect(parallel.requests).toHaveLength(Math.ceil(drafts / 100));
		expect(oneAtATime.requests).toHaveLength(Math.ceil(drafts / 100));
		expect(peak(oneAtATime.requests)).toBe(1);
		// pages 1 and 2 one after the other, then every other page at once
		expect(parallel.requests.slice(0, 2).map((r) => r.inFlight)).toEqual([1, 1]);
		expect(peak(parallel.requests)).toBe(Math.ceil(drafts / 100) - 2);
	});
});

/**
 * A Free key's account for the enclosing describe block, 25 finished articles in it, and `count`
 * Gets of them at the defaults: the output's ids in order and every request the service saw.
 */
function freeAccount(seed: number, latencyMs: number, rateWindowMs: number) {
	const account = { sb: undefined as unknown as Sandbox, articles: [] as string[] };
	beforeAll(async () => {
		account.sb = await startSandbox({ seed, plan: 'Free', latencyMs, rateWindowMs, quiet: true });
		account.articles = account.sb.control.seedArticles(25, { status: 'cms' });
	});
	afterAll(async () => await account.sb.close());
	const gets = async (apiKey: string, count: number) => {
		account.sb.control.resetRequests();
		const input = Array.from({ length: count }, (_x, i) => ({
			id: account.articles[i % account.articles.length],
		}));
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'article', operation: 'get', articleId: '={{ $json.id }}' }),
			{ credentials: { apiKey, baseUrl: account.sb.url }, input },
		);
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen').map((item) => item.json.id)).toEqual(input.map((i) => i.id));
		const requests = account.sb.control.requests();
		expect(requests.filter((r) => r.status === 429)).toEqual([]);
		expect(requests).toHaveLength(count);
		return requests;
	};
	return { account, gets };
}

describe('a Free key at 50 ms latency, its minute compressed to 3 s', () => {
	const { account, gets } = freeAccount(72, 50, 3000);

	it('250 Gets never take more than the budget announced: no 429, every item in order', async () => {
		const requests = await gets(account.sb.control.createKey({}), 250);
		expect(peak(requests)).toBeGreaterThan(1);
		// 100 a window: the requests fell into at least 3 windows
		const windows = new Set(requests.map((r) => Math.floor(Date.parse(r.at) / 3000)));
		expect(windows.size).toBeGreaterThanOrEqual(3);
	});
});

describe('a Free key with 30 requests left in its window (windows of 5 s, 20 ms latency)', () => {
	const { account, gets } = freeAccount(73, 20, 5000);

	it('200 Gets at the defaults: no 429 reaches the user or the service, every item in order', async () => {
		const apiKey = account.sb.control.createKey({});
		// Early in a window, another client of the key spends 70 of its 100.
		await sleep(5000 - (Date.now() % 5000) + 50);
		const spent = await Promise.all(
			Array.from({ length: 70 }, async () =>
				fetch(`${account.sb.url}/api/v1/articles/${account.articles[0]}`, {
					headers: { Authorization: `Bearer ${apiKey}` },
				}),
			),
		);
		expect(spent.map((r) => r.status)).toEqual(Array.from({ length: 70 }, () => 200));
		expect(spent[69].headers.get('x-ratelimit-remaining')).toBe('30');
		const requests = await gets(apiKey, 200);
		// the second request went before the first was answered, within the 30 left
		expect(requests.slice(0, 2).map((r) => r.inFlight)).toEqual([1, 2]);
		// 30, then 100, then 70: three windows
		const windows = new Set(requests.map((r) => Math.floor(Date.parse(r.at) / 5000)));
		expect(windows.size).toBe(3);
	});
});
