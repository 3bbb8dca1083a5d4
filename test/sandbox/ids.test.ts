/**
 * `ids: 'v7'` (the CLI's `--ids v7`): article and social ids are UUIDv7, the millisecond they
 * were minted first, so the records of one batch share their first 12 hex digits, as a service
 * minting them with PostgreSQL 18's `uuidv7()` gives them. The default stays random v4.
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { api, UUID } from './helpers';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The Unix milliseconds a v7 id begins with. */
const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

let v7: Sandbox;
let v4: Sandbox;
let started: number;

beforeAll(async () => {
	started = Date.now();
	[v7, v4] = await Promise.all([startSandbox({ seed: 5, ids: 'v7' }), startSandbox({ seed: 5 })]);
});
afterAll(async () => {
	await Promise.all([v7.close(), v4.close()]);
});

async function listed(sb: Sandbox, path: string): Promise<string[]> {
	const r = await api(sb).get(path, { params: { limit: 100 } });
	expect(r.status).toBe(200);
	return (r.data.data as Array<{ id: string }>).map((record) => record.id);
}

describe("ids: 'v7'", () => {
	it('the demo account: every article and social id a v7 UUID of the start, a batch per millisecond', async () => {
		const ids = [...(await listed(v7, '/articles')), ...(await listed(v7, '/social/content'))];
		expect(ids.length).toBeGreaterThan(10);
		expect(ids.filter((id) => !V7.test(id))).toEqual([]);
		expect(ids.filter((id) => msOf(id) < started || msOf(id) > Date.now())).toEqual([]);
		// Several records per millisecond: fewer distinct prefixes than records.
		expect(new Set(ids.map(msOf)).size).toBeLessThan(ids.length);
	});

	it('a seeded batch shares the millisecond prefix; each id is still unique', async () => {
		const before = v7.control.now().getTime();
		const ids = v7.control.seedArticles(200);
		const after = v7.control.now().getTime();
		expect(new Set(ids).size).toBe(200);
		expect(ids.filter((id) => !V7.test(id))).toEqual([]);
		expect(ids.filter((id) => msOf(id) < before || msOf(id) > after)).toEqual([]);
		const perMs = new Map<number, number>();
		for (const id of ids) perMs.set(msOf(id), (perMs.get(msOf(id)) ?? 0) + 1);
		expect([...perMs.values()].some((n) => n > 1)).toBe(true);
		const social = v7.control.seedSocial(20);
		expect(social.filter((id) => !V7.test(id))).toEqual([]);
	});

	it('records the API creates get v7 ids too', async () => {
		const [project] = await listed(v7, '/projects');
		const r = await api(v7).post('/articles/generate', {
			topic: 'Time-ordered ids',
			project_id: project,
		});
		expect(r.status).toBe(202);
		expect(r.data.data.article_id).toMatch(V7);
	});

	it('by default ids are v4', async () => {
		const ids = [...(await listed(v4, '/articles')), ...(await listed(v4, '/social/content'))];
		expect(ids.filter((id) => !UUID.test(id))).toEqual([]);
	});

	it('another value is refused', async () => {
		await expect(startSandbox({ ids: 'v6' as 'v7' })).rejects.toThrow("ids must be 'v4' or 'v7'");
	});
});
