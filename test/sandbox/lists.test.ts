import { startSandbox, type Sandbox } from '../../sandbox';
import { api } from './helpers';

let sb: Sandbox;
let ordered: Sandbox;
let byId: Sandbox;
let otherKey: string;

beforeAll(async () => {
	[sb, ordered, byId] = await Promise.all([
		startSandbox({ seed: 71 }),
		startSandbox({ seed: 72, socialListOrder: 'created_desc' }),
		startSandbox({ seed: 73, socialListOrder: 'id' }),
	]);
	otherKey = sb.control.createKey({ userId: sb.control.otherUserId });
});
afterAll(async () => {
	await Promise.all([sb.close(), ordered.close(), byId.close()]);
});

describe('pagination edges', () => {
	it('empty result: total 0, total_pages 0, has_more false', async () => {
		for (const path of ['/articles', '/social/content', '/projects']) {
			const params =
				path === '/social/content'
					? { article_id: '00000000-0000-4000-8000-000000000000' }
					: { search: 'no such thing' };
			const r = await api(sb).get(path, { params });
			expect(r.data.data).toEqual([]);
			expect(r.data.pagination).toEqual({
				total: 0,
				page: 1,
				limit: 20,
				total_pages: 0,
				has_more: false,
			});
		}
	});

	it('exactly 100, then 101 records', async () => {
		const ids = sb.control.seedArticles(100, { userId: sb.control.otherUserId, status: 'draft' });
		const r = await api(sb, otherKey).get('/articles', { params: { status: 'draft', limit: 100 } });
		expect(r.data.pagination).toEqual({
			total: 100,
			page: 1,
			limit: 100,
			total_pages: 1,
			has_more: false,
		});
		expect(r.data.data.map((a: { id: string }) => a.id).sort()).toEqual([...ids].sort());
		const beyond = await api(sb, otherKey).get('/articles', {
			params: { status: 'draft', limit: 100, page: 2 },
		});
		expect(beyond.data.data).toEqual([]);
		expect(beyond.data.pagination).toEqual({
			total: 100,
			page: 2,
			limit: 100,
			total_pages: 1,
			has_more: false,
		});

		const [extra] = sb.control.seedArticles(1, { userId: sb.control.otherUserId, status: 'draft' });
		const p1 = await api(sb, otherKey).get('/articles', {
			params: { status: 'draft', limit: 100 },
		});
		expect(p1.data.pagination).toEqual({
			total: 101,
			page: 1,
			limit: 100,
			total_pages: 2,
			has_more: true,
		});
		// newest first: the extra record leads page 1
		expect(p1.data.data[0].id).toBe(extra);
		const p2 = await api(sb, otherKey).get('/articles', {
			params: { status: 'draft', limit: 100, page: 2 },
		});
		expect(p2.data.pagination).toEqual({
			total: 101,
			page: 2,
			limit: 100,
			total_pages: 2,
			has_more: false,
		});
		expect(p2.data.data.length).toBe(1);
		expect(p2.data.data[0].id).toBe(ids[0]);
	});

	it('pages through 10 000 articles at limit 100 without gaps or duplicates', async () => {
		const ids = sb.control.seedArticles(10_000, { status: 'archived' });
		const seen = new Set<string>();
		const created: string[] = [];
		let page = 1;
		for (;;) {
			const r = await api(sb).get('/articles', {
				params: { status: 'archived', limit: 100, page, order: 'asc' },
			});
			expect(r.status).toBe(200);
			for (const a of r.data.data) {
				created.push(a.created_at);
				seen.add(a.id);
			}
			if (!r.data.pagination.has_more) break;
			page++;
		}
		expect(created.every((c, i) => i === 0 || created[i - 1] <= c)).toBe(true);
		expect(page).toBe(101); // 10 001 archived: 10 000 seeded + 1 from the initial data
		expect(ids.every((id) => seen.has(id))).toBe(true);
		expect(seen.size).toBe(10_001);
	});

	it('social list: counts per page are right whatever the order', async () => {
		const ids = sb.control.seedSocial(45, {
			userId: sb.control.otherUserId,
			platforms: ['snapchat'],
		});
		const r1 = await api(sb, otherKey).get('/social/content', {
			params: { platform: 'snapchat', limit: 20, page: 3 },
		});
		expect(r1.data.pagination).toEqual({
			total: 45,
			page: 3,
			limit: 20,
			total_pages: 3,
			has_more: false,
		});
		expect(r1.data.data.length).toBe(5);
		for (const s of r1.data.data) expect(ids).toContain(s.id);
	});

	it("social list with socialListOrder 'created_desc': stable pages, newest first", async () => {
		const ids = ordered.control.seedSocial(30, { status: 'ready', platforms: ['reddit'] });
		const pages: string[] = [];
		for (let page = 1; page <= 3; page++) {
			const r = await api(ordered).get('/social/content', {
				params: { platform: 'reddit', limit: 10, page },
			});
			pages.push(...r.data.data.map((s: { id: string }) => s.id));
		}
		expect(pages).toEqual([...ids].reverse());
	});
});

describe('social list by id: 10,000 records in an order that holds but is not by date', () => {
	it('pages through all of them once, the same way twice, unrelated to creation time', async () => {
		const ids = byId.control.seedSocial(10_000, { status: 'completed', platforms: ['pinterest'] });
		const read = async () => {
			const out: Array<{ id: string; created_at: string }> = [];
			for (let page = 1; ; page++) {
				const r = await api(byId).get('/social/content', {
					params: { platform: 'pinterest', limit: 100, page },
				});
				out.push(...r.data.data);
				if (!r.data.pagination.has_more) return out;
			}
		};
		const first = await read();
		const listed = first.map((s) => s.id);
		expect(new Set(listed).size).toBe(listed.length);
		expect(listed).toEqual([...listed].sort());
		const all = new Set(listed);
		expect(ids.every((id) => all.has(id))).toBe(true);
		expect((await read()).map((s) => s.id)).toEqual(first.map((s) => s.id));
		const created = first.map((s) => s.created_at);
		const newestFirst = [...created].sort().reverse();
		expect(created).not.toEqual(newestFirst);
		expect(created).not.toEqual([...newestFirst].reverse());
	});
});

describe('control transitions', () => {
	it('setArticleStatus and setSocialStatus move records and bump updated_at', async () => {
		const [a] = sb.control.seedArticles(1, { status: 'draft' });
		const [s] = sb.control.seedSocial(1, { status: 'generating', platforms: ['instagram'] });
		sb.control.advance(5_000);
		sb.control.setArticleStatus(a, 'cms');
		sb.control.setSocialStatus(s, 'completed');
		const at = sb.control.now().getTime();
		const ar = (await api(sb).get(`/articles/${a}/status`)).data.data;
		expect(ar).toMatchObject({ status: 'cms', is_complete: true });
		expect(Math.abs(Date.parse(ar.updated_at) - at)).toBeLessThan(1_000);
		const sr = (await api(sb).get(`/social/content/${s}`)).data.data;
		expect(sr.status).toBe('completed');
		expect(sr.platforms).toEqual({ instagram: expect.any(String) });
		expect(() => sb.control.setArticleStatus(a, 'published')).toThrow(/status/);
	});
});
