import { startSandbox, type Sandbox } from '../../sandbox';
import { api, expectError } from './helpers';

let sb: Sandbox;
let enterprise: Sandbox;
let free: Sandbox;

beforeAll(async () => {
	[sb, enterprise, free] = await Promise.all([
		startSandbox({ seed: 51 }),
		startSandbox({ seed: 52, plan: 'Enterprise' }),
		startSandbox({ seed: 53, plan: 'Free' }),
	]);
});
afterAll(async () => {
	await Promise.all([sb.close(), enterprise.close(), free.close()]);
});

describe('rate limits', () => {
	it('sends every X-RateLimit header with the plan ceilings (Business)', async () => {
		const key = sb.control.createKey({});
		const r1 = await api(sb, key).get('/projects');
		const r2 = await api(sb, key).get('/projects');
		expect(r1.headers['x-ratelimit-limit']).toBe('1000');
		expect(r1.headers['x-ratelimit-remaining']).toBe('999');
		expect(r2.headers['x-ratelimit-remaining']).toBe('998');
		expect(r1.headers['x-ratelimit-daily-limit']).toBe('50000');
		expect(r2.headers['x-ratelimit-daily-remaining']).toBe('49998');
		const reset = Number(r1.headers['x-ratelimit-reset']);
		const nowS = sb.control.now().getTime() / 1000;
		expect(reset).toBeGreaterThan(nowS);
		expect(reset - nowS).toBeLessThanOrEqual(60);
		expect(r1.headers['retry-after']).toBeUndefined();
	});

	it('uses 100/min and 5000/day on Free', async () => {
		const r = await api(free).get('/projects');
		expect(r.headers['x-ratelimit-limit']).toBe('100');
		expect(r.headers['x-ratelimit-daily-limit']).toBe('5000');
	});

	it('omits the daily headers when unlimited (Enterprise) and reports -1 in usage', async () => {
		const r = await api(enterprise).get('/user/usage');
		expect(r.headers['x-ratelimit-limit']).toBe('10000');
		expect(r.headers['x-ratelimit-daily-limit']).toBeUndefined();
		expect(r.headers['x-ratelimit-daily-remaining']).toBeUndefined();
		expect(r.data.data.rate_limit.limit_per_day).toBe(-1);
	});

	it('answers 429 RATE_LIMIT_EXCEEDED with Retry-After past the per-minute budget, per key', async () => {
		sb.control.setRateLimit({ perMinute: 3, perDay: 1000 });
		const key = sb.control.createKey({});
		const other = sb.control.createKey({});
		for (let i = 0; i < 3; i++) expect((await api(sb, key).get('/projects')).status).toBe(200);
		const r = await api(sb, key).get('/projects');
		expectError(r, 429, 'RATE_LIMIT_EXCEEDED');
		const retry = Number(r.headers['retry-after']);
		expect(Number.isInteger(retry)).toBe(true);
		expect(retry).toBeGreaterThanOrEqual(1);
		expect(retry).toBeLessThanOrEqual(60);
		expect(r.headers['x-ratelimit-remaining']).toBe('0');
		// the budget is per key
		expect((await api(sb, other).get('/projects')).status).toBe(200);
		// a 429 costs nothing and changes nothing: after the window it works again
		sb.control.advance(retry * 1000);
		expect((await api(sb, key).get('/projects')).status).toBe(200);
	});

	it('enforces the per-day budget too', async () => {
		sb.control.setRateLimit({ perMinute: 100, perDay: 2 });
		const key = sb.control.createKey({});
		expect((await api(sb, key).get('/projects')).headers['x-ratelimit-daily-remaining']).toBe('1');
		expect((await api(sb, key).get('/projects')).status).toBe(200);
		const r = await api(sb, key).get('/projects');
		expectError(r, 429, 'RATE_LIMIT_EXCEEDED');
		expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
		expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(86_400);
		expect(r.headers['x-ratelimit-daily-remaining']).toBe('0');
		sb.control.setRateLimit({ perMinute: 1000, perDay: 50000 });
	});

	it('does not charge a generate refused with 429', async () => {
		sb.control.setRateLimit({ perMinute: 0, perDay: 10 });
		const before = sb.control.ledger().length;
		const r = await api(sb).post('/social/generate', {
			source_url: 'https://a.example',
			platforms: ['reddit'],
		});
		expectError(r, 429, 'RATE_LIMIT_EXCEEDED');
		expect(sb.control.ledger().length).toBe(before);
		sb.control.setRateLimit({ perMinute: 1000, perDay: 50000 });
	});
});
