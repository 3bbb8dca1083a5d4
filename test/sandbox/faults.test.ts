import axios from 'axios';

import { startSandbox, type Sandbox } from '../../sandbox';
import { api, expectError } from './helpers';

let sb: Sandbox;
let projectId: string;

beforeAll(async () => {
	sb = await startSandbox({ seed: 61, speed: 1000 });
	projectId = sb.control.projects()[0].id;
});
afterEach(() => {
	sb.control.clearFaults();
});
afterAll(async () => {
	await sb.close();
});

function generateArticle(topic: string) {
	return api(sb).post('/articles/generate', { topic, project_id: projectId });
}

async function articleExists(topic: string): Promise<boolean> {
	const r = await api(sb).get('/articles', { params: { search: topic, limit: 100 } });
	return r.data.data.some((a: { title: string }) => a.title === topic);
}

describe('fault injection', () => {
	it('serverErrorRate: 5xx in the Bearer envelope, request not processed', async () => {
		sb.control.setFaults({ serverErrorRate: 1 });
		const before = sb.control.ledger().length;
		const statuses = new Set<number>();
		for (let i = 0; i < 12; i++) {
			const r = await api(sb).get('/projects');
			expect([500, 502, 503, 504]).toContain(r.status);
			expect(r.data).toMatchObject({ success: false, error: { code: expect.any(String) } });
			statuses.add(r.status);
		}
		expect(statuses.size).toBeGreaterThan(1);
		const g = await generateArticle('Never processed');
		expect(g.status).toBeGreaterThanOrEqual(500);
		sb.control.clearFaults();
		expect(sb.control.ledger().length).toBe(before);
		expect(await articleExists('Never processed')).toBe(false);
	});

	it('dropRate: the connection is destroyed without a response, and logged with status 0', async () => {
		sb.control.setFaults({ dropRate: 1 });
		sb.control.resetRequests();
		await expect(api(sb).get('/projects')).rejects.toMatchObject({
			code: expect.stringMatching(/ECONNRESET|ERR_/),
		});
		expect(sb.control.requests()).toEqual([
			expect.objectContaining({ method: 'GET', path: '/api/v1/projects', status: 0 }),
		]);
	});

	it('malformedJsonRate: 200 with truncated JSON', async () => {
		sb.control.setFaults({ malformedJsonRate: 1 });
		const r = await api(sb).get('/projects', {
			responseType: 'text',
			transformResponse: [(d: string) => d],
		});
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toMatch(/application\/json/);
		expect(() => JSON.parse(r.data)).toThrow();
		expect(r.data.startsWith('{')).toBe(true);
	});

	it('htmlErrorRate: 502 with an HTML proxy page', async () => {
		sb.control.setFaults({ htmlErrorRate: 1 });
		const r = await api(sb).get('/projects', { responseType: 'text' });
		expect(r.status).toBe(502);
		expect(r.headers['content-type']).toMatch(/text\/html/);
		expect(r.data).toMatch(/<html>/);
	});

	it('latencyMs delays the response (lower bound only)', async () => {
		sb.control.setFaults({ latencyMs: 60 });
		const t0 = Date.now();
		const r = await api(sb).get('/projects');
		expect(r.status).toBe(200);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
	});

	it('rateLimitStorm: the next N requests get 429 with the given Retry-After', async () => {
		sb.control.setFaults({ rateLimitStorm: { requests: 2, retryAfter: 7 } });
		for (let i = 0; i < 2; i++) {
			const r = await api(sb).get('/projects');
			expectError(r, 429, 'RATE_LIMIT_EXCEEDED');
			expect(r.headers['retry-after']).toBe('7');
		}
		expect((await api(sb).get('/projects')).status).toBe(200);
	});

	it('match limits faults to some routes', async () => {
		sb.control.setFaults({
			serverErrorRate: 1,
			match: { method: 'POST', pathPrefix: '/api/v1/social' },
		});
		expect((await api(sb).get('/social/content')).status).toBe(200);
		expect((await api(sb).get('/projects')).status).toBe(200);
		const r = await api(sb).post('/social/publish', { content_id: 'x' });
		expect(r.status).toBeGreaterThanOrEqual(500);
	});

	it('afterProcessing: the generate is accepted and charged exactly once although the client saw a fault', async () => {
		for (const fault of [{ serverErrorRate: 1 }, { dropRate: 1 }, { htmlErrorRate: 1 }]) {
			const topic = `Processed despite ${Object.keys(fault)[0]}`;
			sb.control.setFaults({
				...fault,
				afterProcessing: true,
				match: { pathPrefix: '/api/v1/articles/generate' },
			});
			const before = sb.control.ledger().length;
			let status = 0;
			try {
				status = (await generateArticle(topic)).status;
			} catch {
				status = -1; // dropped
			}
			expect(status === -1 || status >= 500).toBe(true);
			const charged = sb.control.ledger().slice(before);
			expect(charged).toEqual([expect.objectContaining({ kind: 'article', credits: 1.5 })]);
			sb.control.clearFaults();
			expect(await articleExists(topic)).toBe(true);
		}
	});

	it('is deterministic for a given seed', async () => {
		const run = async (): Promise<number[]> => {
			const s = await startSandbox({ seed: 99 });
			try {
				s.control.setFaults({ serverErrorRate: 0.5 });
				const out: number[] = [];
				for (let i = 0; i < 12; i++) out.push((await api(s).get('/projects')).status);
				return out;
			} finally {
				await s.close();
			}
		};
		const a = await run();
		expect(await run()).toEqual(a);
		expect(a.some((x) => x === 200)).toBe(true);
		expect(a.some((x) => x >= 500)).toBe(true);
	});

	it('answers 404 for files of unknown records', async () => {
		const r = await axios.get(
			`${sb.url}/files/00000000-0000-4000-8000-000000000000/instagram.png`,
			{
				validateStatus: () => true,
			},
		);
		expect(r.status).toBe(404);
	});
});
