/**
 * The sandbox's network: a latency (and jitter) on every answer, so the node can be measured as
 * across a real network; the requests in progress as the sandbox saw them; a rate-limit window
 * that can be compressed while the plan's budget per window stays.
 */
import { Network } from '../../sandbox/network';
import { Rng } from '../../sandbox/prng';
import { startSandbox, type Sandbox } from '../../sandbox';
import { api } from './helpers';

describe('Network', () => {
	it('holds every answer back by the latency, give or take the jitter', () => {
		const network = new Network(new Rng(5));
		network.set(150, 40);
		const delays = Array.from({ length: 200 }, () => network.delayMs());
		expect(Math.min(...delays)).toBeGreaterThanOrEqual(110);
		expect(Math.max(...delays)).toBeLessThanOrEqual(190);
		// spread over the range, not one value
		expect(new Set(delays.map((d) => Math.round(d / 10))).size).toBeGreaterThan(5);
		network.set(150);
		expect(network.delayMs()).toBe(150);
	});

	it('is the same for the same seed', () => {
		const a = new Network(new Rng(9));
		const b = new Network(new Rng(9));
		a.set(100, 50);
		b.set(100, 50);
		expect([a.delayMs(), a.delayMs()]).toEqual([b.delayMs(), b.delayMs()]);
	});

	it('refuses a negative or unknown delay', () => {
		const network = new Network(new Rng(1));
		expect(() => network.set(-1)).toThrow('latency must be >= 0 ms');
		expect(() => network.set(10, Number.NaN)).toThrow('jitter must be >= 0 ms');
	});
});

describe('a sandbox with latency', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ seed: 61, latencyMs: 200 });
	});
	afterAll(async () => await sb.close());
	beforeEach(() => sb.control.resetRequests());

	it('answers no sooner than its latency', async () => {
		const started = performance.now();
		const r = await api(sb).get('/user/credits');
		expect(r.status).toBe(200);
		expect(performance.now() - started).toBeGreaterThanOrEqual(195);
	});

	it('logs how many requests were in progress when each arrived: 1 one at a time, 6 all at once', async () => {
		for (let i = 0; i < 3; i++) await api(sb).get('/projects');
		expect(sb.control.requests().map((r) => r.inFlight)).toEqual([1, 1, 1]);
		sb.control.resetRequests();
		await Promise.all(Array.from({ length: 6 }, async () => await api(sb).get('/projects')));
		expect(Math.max(...sb.control.requests().map((r) => r.inFlight ?? 0))).toBe(6);
	});

	it('setLatency changes it for later answers', async () => {
		sb.control.setLatency(300);
		const slowStart = performance.now();
		await api(sb).get('/projects');
		expect(performance.now() - slowStart).toBeGreaterThanOrEqual(295);
		sb.control.setLatency(200);
	});

	it('the rate limiter still counts every request at its plan', async () => {
		sb.control.setRateLimit({ perMinute: 3, perDay: -1 });
		const key = sb.control.createKey({});
		const answers = await Promise.all(
			Array.from({ length: 5 }, async () => (await api(sb, key).get('/projects')).status),
		);
		expect(answers.filter((s) => s === 429)).toHaveLength(2);
		sb.control.setRateLimit({ perMinute: 1000, perDay: 50000 });
	});
});

describe('a compressed rate-limit window', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ seed: 62, plan: 'Free', rateWindowMs: 2000 });
	});
	afterAll(async () => await sb.close());

	it("keeps the plan's budget per window and resets it when the shorter window ends", async () => {
		const r = await api(sb).get('/projects');
		expect(r.headers['x-ratelimit-limit']).toBe('100');
		const reset = Number(r.headers['x-ratelimit-reset']) * 1000;
		expect(reset % 2000).toBe(0);
		expect(reset - sb.control.now().getTime()).toBeLessThanOrEqual(2000);
		const usage = await api(sb).get('/user/usage');
		expect(usage.data.data.rate_limit.reset * 1000).toBe(reset);
	});

	it('a 429 asks to wait at most the window', async () => {
		sb.control.setRateLimit({ perMinute: 1, perDay: -1 });
		const key = sb.control.createKey({});
		await api(sb, key).get('/projects');
		const limited = await api(sb, key).get('/projects');
		if (limited.status === 429)
			expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(2);
		else expect(limited.status).toBe(200); // the window turned between the two requests
	});

	it('refuses a window under a second', async () => {
		await expect(startSandbox({ rateWindowMs: 500 })).rejects.toThrow(
			'rateWindowMs must be a whole number of milliseconds, at least 1000',
		);
	});
});
