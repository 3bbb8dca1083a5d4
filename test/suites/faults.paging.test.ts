/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test: a page answered after a delay */
/**
 * Get Many against services whose paging differs from the spec: a page size capped below the
 * asked limit, a total that grows while the list is read, has_more that never turns false. Each
 * case ends with every record, or with the shortfall in numbers: a warning on the output (an
 * execution hint) or, under "On Incomplete List: Stop the Item", an error.
 */
import type { IDataObject, NodeExecutionHint } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow, type RunResult } from '../helpers/engine';
import { envelope, type HostileServer, json, startHostileServer } from '../helpers/hostile-server';

const KEY = `svc_${'7e'.repeat(32)}`;

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const article = (n: number) => ({ id: uuid(n), title: `Article ${n}`, status: 'cms' });

type Serve = (page: number, limit: number) => { data: unknown[]; pagination: IDataObject };

let serve: Serve = () => ({ data: [], pagination: {} });
let server: HostileServer;
beforeAll(async () => {
	server = await startHostileServer((request, response) => {
		const { data, pagination } = serve(
			Number(request.query.get('page')),
			Number(request.query.get('limit')),
		);
		json(response, 200, envelope(data, pagination));
	});
});
beforeEach(() => (server.seen.length = 0));
afterAll(async () => await server.close());

/** A list of `size` records served at most `cap` per page, with the pagination fields `fields` picks. */
function capped(
	records: number,
	cap: number,
	fields: (total: number, page: number) => IDataObject,
) {
	return (page: number, limit: number) => {
		const size = Math.min(limit, cap);
		const data = Array.from(
			{ length: Math.max(0, Math.min(size, records - (page - 1) * size)) },
			(_x, i) => article((page - 1) * size + i),
		);
		return { data, pagination: { page, ...fields(records, page * size < records ? 1 : 0) } };
	};
}

async function getMany(parameters: IDataObject = {}, continueOnFail = false): Promise<RunResult> {
	return await runWorkflow(
		singleNodeWorkflow(
			{ resource: 'article', operation: 'getMany', returnAll: true, ...parameters },
			continueOnFail ? { continueOnFail: true } : {},
		),
		{ credentials: { apiKey: KEY, baseUrl: server.url } },
	);
}

function hints(result: RunResult): string[] {
	const tasks = result.run.data.resultData.runData.ContentGen ?? [];
	return tasks.flatMap((task) => (task.hints ?? []).map((hint: NodeExecutionHint) => hint.message));
}

function ids(result: RunResult): string[] {
	return result.output('ContentGen').map((item) => String(item.json.id));
}

describe('a page size capped below the asked limit', () => {
	it('20 per page, total 1,000, no total_pages: every record, by pages of 20', async () => {
		serve = capped(1000, 20, (total, more) => ({ total, has_more: more === 1 }));
		const result = await getMany();
		expect(result.error).toBeUndefined();
		expect(new Set(ids(result)).size).toBe(1000);
		expect(server.seen).toHaveLength(50);
		expect(hints(result)).toEqual([]);
	});

	it('20 per page with only a total (no has_more, no limit): every record', async () => {
		serve = capped(1000, 20, (total) => ({ total }));
		const result = await getMany();
		expect(new Set(ids(result)).size).toBe(1000);
		expect(hints(result)).toEqual([]);
	});

	it('a Limit of 50 at 20 per page: 50 records in 3 requests', async () => {
		serve = capped(1000, 20, (total, more) => ({ total, limit: 20, has_more: more === 1 }));
		const result = await getMany({ returnAll: false, limit: 50 });
		expect(ids(result)).toEqual(Array.from({ length: 50 }, (_x, i) => uuid(i)));
		expect(server.seen).toHaveLength(3);
	});

	it('one record per page, total 10,000: the page ceiling ends the read, and the hint says so', async () => {
		serve = capped(10_000, 1, (total, more) => ({ total, has_more: more === 1 }));
		const result = await getMany();
		expect(result.error).toBeUndefined();
		expect(ids(result)).toHaveLength(2000);
		expect(server.seen).toHaveLength(2000);
		expect(hints(result)).toEqual([
			expect.stringContaining(
				'Incomplete list: 2000 of the 10000 records the service reported were read; the read stopped at its ceiling of 2000 pages',
			),
		]);
	}, 180_000);
});

describe('a total that grows while the list is read', () => {
	// 100 records more for every page read: the read never catches up.
	const growing: Serve = (page, limit) => {
		const total = 300 + 100 * page;
		const data = Array.from({ length: limit }, (_x, i) => article((page - 1) * limit + i));
		return {
			data,
			pagination: { page, limit, total, total_pages: Math.ceil(total / limit), has_more: true },
		};
	};

	it('stops past its growth allowance with a hint giving the numbers', async () => {
		serve = growing;
		const result = await getMany();
		expect(result.error).toBeUndefined();
		// 4 pages by the first count, then 10 pages of growth allowance
		expect(server.seen).toHaveLength(14);
		expect(ids(result)).toHaveLength(1400);
		expect(hints(result)).toEqual([
			expect.stringContaining(
				'Incomplete list: 1400 of the 1700 records the service reported were read; the list grew while it was read (from 400 records)',
			),
		]);
	});

	it('"Stop the Item" fails the item with the numbers instead, also as a Continue On Fail item', async () => {
		serve = growing;
		const stopped = await getMany({ options: { onIncompleteList: 'error' } });
		expect(stopped.error?.message).toMatch(/^Incomplete list: 1400 of the 1700 records/);
		const item = (await getMany({ options: { onIncompleteList: 'error' } }, true)).output(
			'ContentGen',
		);
		expect(item).toHaveLength(1);
		expect(item[0].json.error).toMatch(/^Incomplete list: 1400 of the 1700 records/);
	});

	it('an unknown On Incomplete List value is refused before any request', async () => {
		const result = await getMany({ options: { onIncompleteList: 'ignore' } });
		expect(result.error?.message).toBe(
			'\'On Incomplete List\' must be one of warn, error; got "ignore" [item 0]',
		);
		expect(server.seen).toHaveLength(0);
	});
});

describe('has_more that never turns false', () => {
	// 250 records; past its end the service serves its last page again.
	const forever =
		(fields: IDataObject): Serve =>
		(page, limit) => {
			const last = Math.ceil(250 / limit);
			const at = Math.min(page, last);
			const data = Array.from({ length: Math.min(limit, 250 - (at - 1) * limit) }, (_x, i) =>
				article((at - 1) * limit + i),
			);
			return { data, pagination: { page, limit, has_more: true, ...fields } };
		};

	it('with a total: the total is believed, every record in 3 requests, no hint', async () => {
		serve = forever({ total: 250 });
		const result = await getMany();
		expect(new Set(ids(result)).size).toBe(250);
		expect(server.seen).toHaveLength(3);
		expect(hints(result)).toEqual([]);
	});

	it('without a total: a page with nothing new ends the read, and the hint says the list may be short', async () => {
		serve = forever({});
		const result = await getMany();
		expect(new Set(ids(result)).size).toBe(250);
		expect(server.seen).toHaveLength(4);
		expect(hints(result)).toEqual([
			expect.stringContaining(
				'Incomplete list: 250 records were read and the service still said there were more; page 4 brought no record not already read',
			),
		]);
	});
});

describe('a list that matches its own counts says nothing', () => {
	it('250 records, pages of 100, has_more turning false: 3 requests, no hint', async () => {
		serve = capped(250, 100, (total, more) => ({
			total,
			total_pages: 3,
			limit: 100,
			has_more: more === 1,
		}));
		const result = await getMany();
		expect(new Set(ids(result)).size).toBe(250);
		expect(server.seen).toHaveLength(3);
		expect(hints(result)).toEqual([]);
	});
});

describe('pages read several at once while records are added', () => {
	// 1,000 records, newest first. When page 7 is asked for, it is answered at once; then 7 records
	// are added at the head, and pages asked for meanwhile (3-6 of the same batch) are answered
	// after that: read out of order, records at the end of page 6 would have slipped into page 7.
	let records: IDataObject[];
	let added = false;
	let moving: HostileServer;
	beforeAll(async () => {
		moving = await startHostileServer(async (request, response) => {
			const page = Number(request.query.get('page'));
			const limit = Number(request.query.get('limit'));
			const answer = () => {
				const data = records.slice((page - 1) * limit, page * limit);
				const total = records.length;
				const pagination = { page, limit, total, total_pages: Math.ceil(total / limit) };
				json(response, 200, envelope(data, { ...pagination, has_more: page * limit < total }));
			};
			if (page === 7 && !added) {
				answer();
				added = true;
				for (let n = 0; n < 7; n++) records.unshift(article(5000 + n));
				return;
			}
			if (page >= 3 && page <= 6 && !added) await new Promise((r) => setTimeout(r, 150));
			answer();
		});
	});
	afterAll(async () => await moving.close());

	async function readAll(parallelRequests: number) {
		records = Array.from({ length: 1000 }, (_x, n) => article(n));
		added = false;
		moving.seen.length = 0;
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'article',
				operation: 'getMany',
				returnAll: true,
				options: { parallelRequests },
			}),
			{ credentials: { apiKey: KEY, baseUrl: moving.url } },
		);
		return { result, pages: moving.seen.map((r) => Number(r.query.get('page'))) };
	}

	it('reads the batch that moved again, one page at a time: no record lost that a read one page at a time gives', async () => {
		const parallel = await readAll(5);
		const sequential = await readAll(1);
		const original = Array.from({ length: 1000 }, (_x, n) => uuid(n));
		for (const { result } of [parallel, sequential]) {
			const got = ids(result);
			expect(new Set(got).size).toBe(got.length);
			expect(got).toEqual(expect.arrayContaining(original));
		}
		expect(new Set(ids(parallel.result))).toEqual(new Set(ids(sequential.result)));
		// pages 1-2 one by one, 3-7 at once, then from 3 again one by one
		expect(parallel.pages.slice(0, 2)).toEqual([1, 2]);
		expect(parallel.pages.slice(2, 7).sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7]);
		expect(parallel.pages.slice(7, 10)).toEqual([3, 4, 5]);
		expect(sequential.pages.slice(0, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		// the records added at the head came after page 1 was read: both say the list grew
		expect(hints(parallel.result)).toEqual(hints(sequential.result));
	});
});
