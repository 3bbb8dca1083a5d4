import { startSandbox, type Sandbox } from '../../sandbox';
import { api, expectError } from './helpers';

let sb: Sandbox;

beforeAll(async () => {
	sb = await startSandbox({
		seed: 41,
		plan: 'Professional',
		credits: { subscription: 120, purchased: 3.4 },
	});
});
afterAll(async () => {
	await sb.close();
});

const PROJECT_LIST_FIELDS = [
	'id',
	'business_name',
	'business_website',
	'business_language',
	'location',
	'expert_in',
	'status',
	'created_at',
	'updated_at',
].sort();
const PROJECT_SINGLE_ONLY = [
	'language_code',
	'avatar_icp',
	'avatar_niche',
	'tone_voice',
	'tone_style',
	'structure_usp',
	'structure_main_offer',
	'structure_key_products',
	'project_status',
];

describe('projects', () => {
	it('lists the caller projects (list shape) with varied statuses and languages', async () => {
		const r = await api(sb).get('/projects');
		expect(r.status).toBe(200);
		expect(r.data.pagination).toEqual({
			total: 5,
			page: 1,
			limit: 20,
			total_pages: 1,
			has_more: false,
		});
		for (const p of r.data.data) expect(Object.keys(p).sort()).toEqual(PROJECT_LIST_FIELDS);
		expect(
			new Set(r.data.data.map((p: { status: string }) => p.status)).size,
		).toBeGreaterThanOrEqual(3);
		expect(
			new Set(r.data.data.map((p: { business_language: string }) => p.business_language)).size,
		).toBeGreaterThanOrEqual(3);
		expect(r.data.data.map((p: { id: string }) => p.id).sort()).toEqual(
			sb.control
				.projects()
				.map((p) => p.id)
				.sort(),
		);
	});

	it('searches business_name case-insensitively and filters status exactly', async () => {
		const s = await api(sb).get('/projects', { params: { search: 'ROAST' } });
		expect(s.data.data.map((p: { business_name: string }) => p.business_name)).toEqual([
			'Northwind Coffee Roasters',
		]);
		const st = await api(sb).get('/projects', { params: { status: 'pending' } });
		expect(st.data.data.length).toBe(1);
		expect(st.data.data[0].status).toBe('pending');
		const none = await api(sb).get('/projects', { params: { status: 'Pending' } });
		expect(none.data.pagination).toEqual({
			total: 0,
			page: 1,
			limit: 20,
			total_pages: 0,
			has_more: false,
		});
	});

	it('paginates', async () => {
		const p1 = await api(sb).get('/projects', { params: { limit: 2 } });
		expect(p1.data.pagination).toEqual({
			total: 5,
			page: 1,
			limit: 2,
			total_pages: 3,
			has_more: true,
		});
		const p3 = await api(sb).get('/projects', { params: { limit: 2, page: 3 } });
		expect(p3.data.data.length).toBe(1);
		expect(p3.data.pagination.has_more).toBe(false);
		expectError(
			await api(sb).get('/projects', { params: { limit: 101 } }),
			400,
			'VALIDATION_ERROR',
			/limit/,
		);
	});

	it('returns the full project; 404 for another user, unknown and non-UUID ids', async () => {
		const id = sb.control.projects()[0].id;
		const r = await api(sb).get(`/projects/${id}`);
		expect(r.status).toBe(200);
		expect(Object.keys(r.data.data).sort()).toEqual(
			[...PROJECT_LIST_FIELDS, ...PROJECT_SINGLE_ONLY].sort(),
		);
		expect(r.data.data.language_code).toBe('en');
		const theirs = sb.control.projects(sb.control.otherUserId)[0].id;
		expectError(await api(sb).get(`/projects/${theirs}`), 404, 'NOT_FOUND');
		expectError(
			await api(sb).get('/projects/00000000-0000-4000-8000-000000000000'),
			404,
			'NOT_FOUND',
		);
		expectError(await api(sb).get('/projects/zzz'), 404, 'NOT_FOUND');
	});
});

describe('user credits', () => {
	it('returns the credits object with exact decimals', async () => {
		const r = await api(sb).get('/user/credits');
		expect(r.status).toBe(200);
		expect(r.data.data).toEqual({
			available_credits: 123.4,
			subscription_credits: 120,
			purchased_credits: 3.4,
			credits_used_this_month: expect.any(Number),
			plan: 'Professional',
			current_period_end: expect.any(String),
		});
		expect(Date.parse(r.data.data.current_period_end)).toBeGreaterThan(sb.control.now().getTime());
	});

	it('keeps decimal arithmetic exact across many 0.6 charges and counts usage this month', async () => {
		sb.control.setCredits({ subscription: 0.3, purchased: 10 });
		const before = (await api(sb).get('/user/credits')).data.data.credits_used_this_month;
		for (let i = 0; i < 7; i++) {
			const r = await api(sb).post('/social/generate', {
				source_url: 'https://a.example',
				platforms: ['reddit'],
			});
			expect(r.status).toBe(202);
		}
		const c = (await api(sb).get('/user/credits')).data.data;
		// 10.3 - 7 * 0.6 = 6.1; plan credits go first
		expect(c.available_credits).toBe(6.1);
		expect(c.subscription_credits).toBe(0);
		expect(c.purchased_credits).toBe(6.1);
		expect(Math.round((c.credits_used_this_month - before) * 100)).toBe(420);
		expect(String(c.credits_used_this_month)).not.toMatch(/\d{5,}/);
		expect(sb.control.credits()).toEqual({
			available: 6.1,
			subscription: 0,
			purchased: 6.1,
			usedThisMonth: c.credits_used_this_month,
		});
	});
});

describe('user usage', () => {
	it('reports totals, the key rate limit and a 30-day per-endpoint breakdown from real requests', async () => {
		const today = sb.control.now().toISOString().slice(0, 10);
		type Row = { date: string; endpoint: string; total_requests: number; error_count: number };
		const rowOf = (usage: { daily_breakdown: Row[] }) =>
			usage.daily_breakdown.find((d) => d.date === today && d.endpoint === '/api/v1/projects/:id');
		const first = (await api(sb).get('/user/usage')).data.data;
		const firstRow = rowOf(first) ?? { total_requests: 0, error_count: 0 };
		await api(sb).get('/projects/00000000-0000-4000-8000-000000000000');
		await api(sb).get('/projects/00000000-0000-4000-8000-000000000001');
		await api(sb).get('/projects');
		const r = await api(sb).get('/user/usage');
		expect(r.status).toBe(200);
		const u = r.data.data;
		expect(u.total_requests).toBe(first.total_requests + 4);
		expect(u.today_requests).toBe(first.today_requests + 4);
		expect(u.rate_limit).toEqual({
			limit_per_minute: 1000,
			remaining_per_minute: expect.any(Number),
			limit_per_day: 50000,
			remaining_per_day: expect.any(Number),
			reset: expect.any(Number),
		});
		expect(u.rate_limit.remaining_per_minute).toBeLessThan(1000);
		expect(rowOf(u)).toEqual({
			date: today,
			endpoint: '/api/v1/projects/:id',
			total_requests: firstRow.total_requests + 2,
			avg_response_time_ms: expect.any(Number),
			error_count: firstRow.error_count + 2,
		});
		const dates = new Set<string>(u.daily_breakdown.map((d: { date: string }) => d.date));
		expect(dates.size).toBeGreaterThan(5);
		expect(dates.size).toBeLessThanOrEqual(30);
		const oldest = new Date(sb.control.now().getTime() - 29 * 86_400_000)
			.toISOString()
			.slice(0, 10);
		for (const d of dates) expect(d >= oldest).toBe(true);
	});
});
