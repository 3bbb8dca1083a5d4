import { startSandbox, type Sandbox } from '../../sandbox';
import { api, expectError, UUID } from './helpers';

let sb: Sandbox;
let projectId: string;

beforeAll(async () => {
	// speed 1 and the sandbox clock: every transition here is driven by control.advance
	sb = await startSandbox({ seed: 11, speed: 1 });
	projectId = sb.control.projects()[0].id;
});
afterAll(async () => {
	await sb.close();
});

const LIST_FIELDS = [
	'created_at',
	'id',
	'meta_description',
	'project_id',
	'slug',
	'status',
	'title',
	'updated_at',
].sort();

describe('GET /articles', () => {
	it('lists the caller articles with the list shape and default pagination', async () => {
		const r = await api(sb).get('/articles');
		expect(r.status).toBe(200);
		expect(r.data.success).toBe(true);
		expect(r.data.pagination).toEqual({
			total: expect.any(Number),
			page: 1,
			limit: 20,
			total_pages: 1,
			has_more: false,
		});
		expect(r.data.data.length).toBe(r.data.pagination.total);
		for (const a of r.data.data) {
			expect(Object.keys(a).sort()).toEqual(LIST_FIELDS);
			expect(a.id).toMatch(UUID);
		}
		// default order: created_at desc
		const created = r.data.data.map((a: { created_at: string }) => a.created_at);
		expect([...created].sort().reverse()).toEqual(created);
	});

	it('filters by status and project_id, searches titles case-insensitively', async () => {
		const byStatus = await api(sb).get('/articles', { params: { status: 'needs_editing' } });
		expect(byStatus.data.data.length).toBeGreaterThan(0);
		expect(byStatus.data.data.every((a: { status: string }) => a.status === 'needs_editing')).toBe(
			true,
		);

		const byProject = await api(sb).get('/articles', { params: { project_id: projectId } });
		expect(byProject.data.data.length).toBeGreaterThan(0);
		expect(
			byProject.data.data.every((a: { project_id: string }) => a.project_id === projectId),
		).toBe(true);

		const search = await api(sb).get('/articles', { params: { search: 'COFFEE' } });
		expect(search.data.data.length).toBeGreaterThan(0);
		for (const a of search.data.data) expect(a.title.toLowerCase()).toContain('coffee');
	});

	it('sorts by title ascending and updated_at descending', async () => {
		const byTitle = await api(sb).get('/articles', { params: { sort: 'title', order: 'asc' } });
		const titles = byTitle.data.data.map((a: { title: string }) => a.title.toLowerCase());
		expect([...titles].sort()).toEqual(titles);
		const byUpdated = await api(sb).get('/articles', { params: { sort: 'updated_at' } });
		const updated = byUpdated.data.data.map((a: { updated_at: string }) => a.updated_at);
		expect([...updated].sort().reverse()).toEqual(updated);
	});

	it.each([
		[{ status: 'published' }, /status/],
		[{ limit: '0' }, /limit/],
		[{ limit: '101' }, /limit/],
		[{ limit: 'ten' }, /limit/],
		[{ page: '0' }, /page/],
		[{ project_id: 'not-a-uuid' }, /project_id/],
		[{ sort: 'slug' }, /sort/],
		[{ order: 'up' }, /order/],
	])('rejects query %j with 400 VALIDATION_ERROR naming the field', async (params, field) => {
		expectError(await api(sb).get('/articles', { params }), 400, 'VALIDATION_ERROR', field);
	});
});

describe('GET /articles/:id', () => {
	it('returns the full article including content', async () => {
		const list = await api(sb).get('/articles', { params: { status: 'cms', limit: 1 } });
		const id = list.data.data[0].id;
		const r = await api(sb).get(`/articles/${id}`);
		expect(r.status).toBe(200);
		expect(Object.keys(r.data.data).sort()).toEqual([...LIST_FIELDS, 'content'].sort());
		expect(r.data.data.content).toMatch(/<h1>/);
	});

	it('answers 404 NOT_FOUND for another user article, an unknown id and a non-UUID id', async () => {
		const otherKey = sb.control.createKey({ userId: sb.control.otherUserId });
		const theirs = await api(sb, otherKey).get('/articles');
		expect(theirs.data.data.length).toBeGreaterThan(0);
		expectError(await api(sb).get(`/articles/${theirs.data.data[0].id}`), 404, 'NOT_FOUND');
		expectError(await api(sb).get(`/articles/${theirs.data.data[0].id}/status`), 404, 'NOT_FOUND');
		expectError(
			await api(sb).get('/articles/00000000-0000-4000-8000-000000000000'),
			404,
			'NOT_FOUND',
		);
		expectError(await api(sb).get('/articles/42'), 404, 'NOT_FOUND');
	});
});

describe('POST /articles/generate and GET /articles/:id/status', () => {
	it('answers 202 with the spec shape, counting articles (not credits), and charges 1.5 once', async () => {
		sb.control.setCredits({ subscription: 10, purchased: 0.5 });
		const before = sb.control.ledger().length;
		const r = await api(sb).post('/articles/generate', {
			topic: 'Grinding coffee for espresso',
			project_id: projectId,
			keywords: ['espresso', 'grinder'],
			tone: 'casual',
			word_count: 1200,
		});
		expect(r.status).toBe(202);
		const d = r.data.data;
		expect(Object.keys(d).sort()).toEqual(
			[
				'article_id',
				'credits_deducted',
				'credits_remaining',
				'estimated_time',
				'job_id',
				'language',
				'poll_url',
				'slug',
				'status',
			].sort(),
		);
		expect(d.status).toBe('queued');
		expect(d.article_id).toMatch(UUID);
		expect(d.poll_url).toBe(`/api/v1/articles/${d.article_id}/status`);
		expect(d.language).toBe('en');
		expect(d.credits_deducted).toBe(1);
		// 10.5 - 1.5 = 9 credits -> 6 more articles
		expect(d.credits_remaining).toBe(6);
		expect(sb.control.credits()).toMatchObject({ available: 9, subscription: 8.5, purchased: 0.5 });
		const ledger = sb.control.ledger().slice(before);
		expect(ledger).toEqual([
			expect.objectContaining({
				kind: 'article',
				recordId: d.article_id,
				credits: 1.5,
				hundredths: 150,
			}),
		]);
	});

	it('moves queued -> cms with rising progress, updated_at at the transition time', async () => {
		sb.control.setCredits({ subscription: 50, purchased: 0 });
		sb.control.forceOutcome('article', 'cms');
		const g = await api(sb).post('/articles/generate', {
			topic: 'Milk frothing',
			project_id: projectId,
		});
		const id = g.data.data.article_id;
		const s0 = await api(sb).get(`/articles/${id}/status`);
		expect(s0.data.data).toMatchObject({ article_id: id, status: 'queued', is_complete: false });
		expect(s0.data.data.progress).toBeLessThan(5);
		expect(Object.keys(s0.data.data).sort()).toEqual(
			[
				'article_id',
				'created_at',
				'is_complete',
				'progress',
				'slug',
				'status',
				'title',
				'updated_at',
			].sort(),
		);

		sb.control.advance(45_000);
		const s1 = await api(sb).get(`/articles/${id}/status`);
		expect(s1.data.data.status).toBe('queued');
		expect(s1.data.data.progress).toBeGreaterThan(s0.data.data.progress);
		expect(s1.data.data.progress).toBeLessThan(100);

		sb.control.advance(120_000);
		const s2 = await api(sb).get(`/articles/${id}/status`);
		expect(s2.data.data).toMatchObject({ status: 'cms', progress: 100, is_complete: true });
		const created = Date.parse(s2.data.data.created_at);
		const updated = Date.parse(s2.data.data.updated_at);
		expect(updated - created).toBeGreaterThanOrEqual(60_000);
		expect(updated - created).toBeLessThanOrEqual(120_000);
		const full = await api(sb).get(`/articles/${id}`);
		expect(full.data.data.status).toBe('cms');
		expect(full.data.data.content).toContain('Milk frothing');
	});

	it.each(['needs_editing', 'failed'] as const)('honours a forced %s outcome', async (outcome) => {
		sb.control.forceOutcome('article', outcome);
		const g = await api(sb).post('/articles/generate', {
			topic: `Forced ${outcome}`,
			project_id: projectId,
		});
		sb.control.advance(121_000);
		const s = await api(sb).get(`/articles/${g.data.data.article_id}/status`);
		expect(s.data.data.status).toBe(outcome);
		expect(s.data.data.is_complete).toBe(outcome === 'needs_editing');
	});

	it.each([
		['a missing topic', { project_id: 'P' }, /topic/],
		['a 2-character topic', { topic: 'ab', project_id: 'P' }, /topic/],
		['a 501-character topic', { topic: 'x'.repeat(501), project_id: 'P' }, /topic/],
		['a non-string topic', { topic: 42, project_id: 'P' }, /topic/],
		['a missing project_id', { topic: 'Valid topic' }, /project_id/],
		['a non-UUID project_id', { topic: 'Valid topic', project_id: 'nope' }, /project_id/],
		['an unknown tone', { topic: 'Valid topic', project_id: 'P', tone: 'angry' }, /tone/],
		['word_count 299', { topic: 'Valid topic', project_id: 'P', word_count: 299 }, /word_count/],
		['word_count 5001', { topic: 'Valid topic', project_id: 'P', word_count: 5001 }, /word_count/],
		[
			'a fractional word_count',
			{ topic: 'Valid topic', project_id: 'P', word_count: 800.5 },
			/word_count/,
		],
		[
			'a string word_count',
			{ topic: 'Valid topic', project_id: 'P', word_count: '800' },
			/word_count/,
		],
		[
			'21 keywords',
			{
				topic: 'Valid topic',
				project_id: 'P',
				keywords: Array.from({ length: 21 }, (_, i) => `k${i}`),
			},
			/keywords/,
		],
		[
			'keywords as a string',
			{ topic: 'Valid topic', project_id: 'P', keywords: 'one,two' },
			/keywords/,
		],
	])('rejects %s with 400 VALIDATION_ERROR and charges nothing', async (_name, body, field) => {
		const before = sb.control.ledger().length;
		const b = { ...body } as Record<string, unknown>;
		if (b.project_id === 'P') b.project_id = projectId;
		expectError(await api(sb).post('/articles/generate', b), 400, 'VALIDATION_ERROR', field);
		expect(sb.control.ledger().length).toBe(before);
	});

	it('accepts the bounds exactly (3 and 500 characters, 300 and 5000 words, 20 keywords)', async () => {
		sb.control.setCredits({ subscription: 20, purchased: 0 });
		for (const body of [
			{ topic: 'abc', word_count: 300 },
			{
				topic: 'y'.repeat(500),
				word_count: 5000,
				keywords: Array.from({ length: 20 }, (_, i) => `k${i}`),
			},
		]) {
			const r = await api(sb).post('/articles/generate', { ...body, project_id: projectId });
			expect(r.status).toBe(202);
		}
	});

	it('answers 404 for a project of another user', async () => {
		const theirs = sb.control.projects(sb.control.otherUserId)[0].id;
		expectError(
			await api(sb).post('/articles/generate', { topic: 'Valid topic', project_id: theirs }),
			404,
			'NOT_FOUND',
			/project/i,
		);
	});

	it('answers 402 INSUFFICIENT_CREDITS stating needed vs available, without charging', async () => {
		sb.control.setCredits({ subscription: 1, purchased: 0.4 });
		const before = sb.control.ledger().length;
		const r = await api(sb).post('/articles/generate', {
			topic: 'Too expensive',
			project_id: projectId,
		});
		expectError(r, 402, 'INSUFFICIENT_CREDITS', /1\.5.*1\.4/);
		expect(sb.control.ledger().length).toBe(before);
		expect(sb.control.credits().available).toBe(1.4);
	});

	it('answers 400 VALIDATION_ERROR to a malformed JSON body', async () => {
		const r = await api(sb).post('/articles/generate', '{"topic": "oops"', {
			headers: { 'Content-Type': 'application/json' },
			transformRequest: [(d: unknown) => d],
		});
		expectError(r, 400, 'VALIDATION_ERROR', /JSON/);
	});
});
