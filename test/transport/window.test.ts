/**
 * The window of requests in flight refills as each one ends: one slow answer holds back no other
 * request, and the first requests of a run go together before any answer has told the budget. A
 * loopback service holds one answer until every other request of the batch has arrived (or, if
 * they never come, for a few seconds): the test reads which of the two released it.
 */
import { sleep, type IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow, TEST_API_KEY } from '../helpers/engine';
import { envelope, json, startHostileServer, type HostileServer } from '../helpers/hostile-server';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/**
 * Long enough that a batch that waits for the held answer is plainly seen waiting, and that the
 * other requests of a batch that does not wait arrive first even on a machine busy with other work
 * (at 3 s, a loaded 2-core machine saw 39 requests take longer).
 */
const GIVE_UP_MS = 20_000;

interface Held {
	server: HostileServer;
	/** What let the held answer go: every other request arriving, or the time running out. */
	releasedBy(): 'others' | 'time' | undefined;
}

/**
 * A service whose answer to the request `isHeld` picks waits until `others` more requests have
 * arrived. Every answer reports a Business key's budget, nearly whole.
 */
async function holdOne(
	isHeld: (path: string, query: URLSearchParams) => boolean,
	others: number,
	answer: (path: string, query: URLSearchParams) => { data: unknown; pagination?: unknown },
): Promise<Held> {
	let released: 'others' | 'time' | undefined;
	let release: (() => void) | undefined;
	let arrived = 0;
	const rate = () => ({
		'X-RateLimit-Limit': '1000',
		'X-RateLimit-Remaining': String(990 - arrived),
		'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
	});
	const server = await startHostileServer(async ({ path, query }, response) => {
		const { data, pagination } = answer(path, query);
		if (isHeld(path, query)) {
			await new Promise<void>((resolve) => {
				release = resolve;
				void sleep(GIVE_UP_MS).then(() => {
					released ??= 'time';
					resolve();
				});
			});
		} else if (++arrived === others) {
			released ??= 'others';
			release?.();
		}
		json(response, 200, envelope(data, pagination), rate());
	});
	return { server, releasedBy: () => released };
}

const get = (options: IDataObject = {}) => ({
	resource: 'article',
	operation: 'get',
	articleId: '={{ $json.id }}',
	options,
});

async function run(server: HostileServer, parameters: IDataObject, input: IDataObject[]) {
	return await runWorkflow(singleNodeWorkflow(parameters), {
		credentials: { apiKey: TEST_API_KEY, baseUrl: server.url },
		input,
	});
}

describe('the window of requests in flight', () => {
	let held: Held | undefined;
	afterEach(async () => await held?.server.close());

	const articleOf = (path: string) => ({ data: { id: path.split('/').pop() } });

	it('at the defaults, the first request does not ask alone and its slow answer holds no other back', async () => {
		const input = Array.from({ length: 40 }, (_x, n) => ({ id: ID(n) }));
		held = await holdOne((path) => path.endsWith(ID(0)), 39, articleOf);
		const result = await run(held.server, get(), input);
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen').map((item) => item.json.id)).toEqual(input.map((i) => i.id));
		expect(held.releasedBy()).toBe('others');
	});

	it('at Parallel Requests 5, each ended request lets the next go while a slow one is out', async () => {
		const input = Array.from({ length: 40 }, (_x, n) => ({ id: ID(n) }));
		held = await holdOne((path) => path.endsWith(ID(2)), 39, articleOf);
		const result = await run(held.server, get({ parallelRequests: 5 }), input);
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen').map((item) => item.json.id)).toEqual(input.map((i) => i.id));
		expect(held.releasedBy()).toBe('others');
	});

	it('Return All at the defaults: a slow page holds back none of the pages after it', async () => {
		const PAGES = 40;
		const pageOf = (_path: string, query: URLSearchParams) => {
			const page = Number(query.get('page'));
			return {
				data: Array.from({ length: 100 }, (_x, n) => ({ id: ID((page - 1) * 100 + n) })),
				pagination: {
					total: PAGES * 100,
					page,
					limit: 100,
					total_pages: PAGES,
					has_more: page < PAGES,
				},
			};
		};
		// page 3 is the first read ahead; every page but it arrives before its answer goes
		held = await holdOne((_path, query) => query.get('page') === '3', PAGES - 1, pageOf);
		const result = await run(
			held.server,
			{ resource: 'article', operation: 'getMany', returnAll: true },
			[{}],
		);
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')).toHaveLength(PAGES * 100);
		expect(held.releasedBy()).toBe('others');
	});
});
