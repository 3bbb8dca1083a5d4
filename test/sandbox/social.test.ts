import { startSandbox, type Sandbox } from '../../sandbox';
import { api, expectError, UUID } from './helpers';

let sb: Sandbox;

beforeAll(async () => {
	sb = await startSandbox({ seed: 21, speed: 1 });
});
afterAll(async () => {
	await sb.close();
});

const LIST_FIELDS = [
	'id',
	'article_id',
	'project_id',
	'title',
	'status',
	'source_url',
	'source_type',
	'language',
	'platforms',
	'image_urls',
	'video_urls',
	'scheduled_publish_at',
	'error_message',
	'created_at',
	'updated_at',
].sort();

const CAROUSELS = [
	'instagram',
	'linkedin',
	'tiktok',
	'facebook',
	'twitter',
	'threads',
	'bluesky',
	'telegram',
].map((p) => `${p}_carousel_plan`);

const SINGLE_ONLY = [
	'source_author',
	'overlay_urls',
	'first_comments',
	'thread_items',
	...CAROUSELS,
	'processing_stage',
	'processing_progress',
	'is_published',
	'scheduler_post_id',
];

async function generate(body: Record<string, unknown>) {
	return api(sb).post('/social/generate', body);
}

describe('GET /social/content', () => {
	it('lists list-shape records of the caller only', async () => {
		const r = await api(sb).get('/social/content', { params: { limit: 100 } });
		expect(r.status).toBe(200);
		expect(r.data.data.length).toBe(r.data.pagination.total);
		for (const s of r.data.data) expect(Object.keys(s).sort()).toEqual(LIST_FIELDS);
		const otherKey = sb.control.createKey({ userId: sb.control.otherUserId });
		const theirs = await api(sb, otherKey).get('/social/content');
		const mine = new Set(r.data.data.map((s: { id: string }) => s.id));
		expect(theirs.data.data.length).toBeGreaterThan(0);
		for (const s of theirs.data.data) expect(mine.has(s.id)).toBe(false);
	});

	it('filters by platform, status, article_id and project_id', async () => {
		const byPlatform = await api(sb).get('/social/content', { params: { platform: 'linkedin' } });
		expect(byPlatform.data.data.length).toBeGreaterThan(0);
		for (const s of byPlatform.data.data) {
			const names = Array.isArray(s.platforms) ? s.platforms : Object.keys(s.platforms);
			expect(names).toContain('linkedin');
		}
		const byStatus = await api(sb).get('/social/content', { params: { status: 'failed' } });
		expect(byStatus.data.data.length).toBeGreaterThan(0);
		for (const s of byStatus.data.data) {
			expect(s.status).toBe('failed');
			expect(typeof s.error_message).toBe('string');
		}
		const one = byStatus.data.data[0];
		const byArticle = await api(sb).get('/social/content', {
			params: { article_id: one.article_id },
		});
		expect(byArticle.data.data.map((s: { id: string }) => s.id)).toContain(one.id);
		for (const s of byArticle.data.data) expect(s.article_id).toBe(one.article_id);
		const byProject = await api(sb).get('/social/content', {
			params: { project_id: one.project_id },
		});
		for (const s of byProject.data.data) expect(s.project_id).toBe(one.project_id);
	});

	it.each([
		[{ platform: 'myspace' }, /platform/],
		[{ status: 'publishing' }, /status/],
		[{ article_id: 'x' }, /article_id/],
		[{ project_id: 'x' }, /project_id/],
		[{ limit: '500' }, /limit/],
	])('rejects %j with 400 VALIDATION_ERROR', async (params, field) => {
		expectError(await api(sb).get('/social/content', { params }), 400, 'VALIDATION_ERROR', field);
	});

	it('returns the same set in a changing order by default (the spec gives no order)', async () => {
		const orders = new Set<string>();
		let ids: string[] = [];
		for (let i = 0; i < 5; i++) {
			const r = await api(sb).get('/social/content', { params: { limit: 100 } });
			const page = r.data.data.map((s: { id: string }) => s.id);
			orders.add(page.join());
			if (i === 0) ids = [...page].sort();
			else expect([...page].sort()).toEqual(ids);
		}
		expect(orders.size).toBeGreaterThan(1);
	});
});

describe('GET /social/content/:id', () => {
	it('returns every single-record field; 404 for another user, unknown and non-UUID ids', async () => {
		const list = await api(sb).get('/social/content', {
			params: { status: 'completed', limit: 1 },
		});
		const r = await api(sb).get(`/social/content/${list.data.data[0].id}`);
		expect(r.status).toBe(200);
		expect(Object.keys(r.data.data).sort()).toEqual([...LIST_FIELDS, ...SINGLE_ONLY].sort());

		const otherKey = sb.control.createKey({ userId: sb.control.otherUserId });
		const theirs = await api(sb, otherKey).get('/social/content');
		expectError(await api(sb).get(`/social/content/${theirs.data.data[0].id}`), 404, 'NOT_FOUND');
		expectError(
			await api(sb).get('/social/content/00000000-0000-4000-8000-000000000000'),
			404,
			'NOT_FOUND',
		);
		expectError(await api(sb).get('/social/content/abc'), 404, 'NOT_FOUND');
	});
});

describe('POST /social/generate', () => {
	it('answers 202; 3 platforms cost exactly 1.8, plan credits before purchased', async () => {
		sb.control.setCredits({ subscription: 1, purchased: 5 });
		const before = sb.control.ledger().length;
		const r = await generate({
			source_url: 'https://blog.example/posts/cold-brew',
			platforms: ['instagram', 'linkedin', 'twitter'],
			source_type: 'blog',
			angle: 'For beginners',
		});
		expect(r.status).toBe(202);
		expect(r.data.data).toEqual({
			content_id: expect.stringMatching(UUID),
			status: 'generating',
			platforms: ['instagram', 'linkedin', 'twitter'],
			credits_deducted: 1.8,
			credits_remaining: 4.2,
			poll_url: `/api/v1/social/content/${r.data.data.content_id}`,
		});
		expect(sb.control.credits()).toMatchObject({ available: 4.2, subscription: 0, purchased: 4.2 });
		expect(sb.control.ledger().slice(before)).toEqual([
			expect.objectContaining({
				kind: 'social',
				credits: 1.8,
				hundredths: 180,
				recordId: r.data.data.content_id,
			}),
		]);
		const c = await api(sb).get('/user/credits');
		expect(c.data.data.available_credits).toBe(4.2);
		expect(c.data.data.purchased_credits).toBe(4.2);
	});

	it('moves generating -> completed: platforms become captions, media and plans get filled', async () => {
		sb.control.setCredits({ subscription: 50, purchased: 0 });
		const g = await generate({
			source_url: 'https://blog.example/posts/pour-over',
			platforms: ['instagram', 'twitter', 'tiktok'],
		});
		const id = g.data.data.content_id;
		const r0 = await api(sb).get(`/social/content/${id}`);
		expect(r0.data.data).toMatchObject({
			status: 'generating',
			platforms: ['instagram', 'twitter', 'tiktok'],
			image_urls: {},
			is_published: false,
			instagram_carousel_plan: [],
		});
		sb.control.advance(12_000);
		const r1 = await api(sb).get(`/social/content/${id}`);
		expect(r1.data.data.status).toBe('generating');
		expect(r1.data.data.processing_progress).toBeGreaterThan(r0.data.data.processing_progress);
		expect(r1.data.data.processing_progress).toBeLessThan(100);

		sb.control.advance(30_000);
		const r2 = await api(sb).get(`/social/content/${id}`);
		const d = r2.data.data;
		expect(d.status).toBe('completed');
		expect(d.processing_progress).toBe(100);
		expect(Object.keys(d.platforms).sort()).toEqual(['instagram', 'tiktok', 'twitter']);
		for (const caption of Object.values(d.platforms)) expect(typeof caption).toBe('string');
		expect(Object.keys(d.image_urls).sort()).toEqual(['instagram', 'tiktok', 'twitter']);
		expect(d.image_urls.instagram).toBe(`${sb.url}/files/${id}/instagram.png`);
		expect(Object.keys(d.overlay_urls).sort()).toEqual(['instagram', 'tiktok', 'twitter']);
		expect(Object.keys(d.video_urls).sort()).toEqual(['instagram', 'tiktok']);
		expect(Object.keys(d.first_comments).sort()).toEqual(['instagram', 'tiktok', 'twitter']);
		expect(d.thread_items.length).toBeGreaterThan(0);
		for (const c of CAROUSELS) expect(Array.isArray(d[c])).toBe(true);
		expect(d.instagram_carousel_plan.length).toBeGreaterThan(0);
		expect(d.instagram_carousel_plan[0]).toMatchObject({ slide: 1, headline: expect.any(String) });
		expect(d.linkedin_carousel_plan).toEqual([]);
		expect(d.source_type).toBe('blog');
		expect(Date.parse(d.updated_at) - Date.parse(d.created_at)).toBeGreaterThanOrEqual(20_000);
	});

	it.each(['ready', 'failed'] as const)('honours a forced %s outcome', async (outcome) => {
		sb.control.forceOutcome('social', outcome);
		const g = await generate({ source_url: 'https://blog.example/x', platforms: ['facebook'] });
		sb.control.advance(41_000);
		const d = (await api(sb).get(`/social/content/${g.data.data.content_id}`)).data.data;
		expect(d.status).toBe(outcome);
		if (outcome === 'failed') {
			expect(d.error_message).toMatch(/\S/);
			expect(Array.isArray(d.platforms)).toBe(true);
			expect(d.image_urls).toEqual({});
		} else {
			expect(d.error_message).toBeNull();
			expect(d.platforms).toEqual({ facebook: expect.any(String) });
		}
	});

	it.each([
		['a missing source_url', { platforms: ['instagram'] }, /source_url/],
		['a non-URL source_url', { source_url: 'not a url', platforms: ['instagram'] }, /source_url/],
		['missing platforms', { source_url: 'https://a.example' }, /platforms/],
		['empty platforms', { source_url: 'https://a.example', platforms: [] }, /platforms/],
		[
			'an unknown platform',
			{ source_url: 'https://a.example', platforms: ['myspace'] },
			/platform/,
		],
		[
			'11 platforms',
			{
				source_url: 'https://a.example',
				platforms: [
					'instagram',
					'facebook',
					'linkedin',
					'twitter',
					'threads',
					'tiktok',
					'youtube',
					'pinterest',
					'bluesky',
					'telegram',
					'reddit',
				],
			},
			/platforms/,
		],
		[
			'a duplicate platform',
			{ source_url: 'https://a.example', platforms: ['reddit', 'reddit'] },
			/platforms/,
		],
		[
			'an unknown source_type',
			{ source_url: 'https://a.example', platforms: ['reddit'], source_type: 'podcast' },
			/source_type/,
		],
		[
			'a 501-character angle',
			{ source_url: 'https://a.example', platforms: ['reddit'], angle: 'a'.repeat(501) },
			/angle/,
		],
		[
			'a 201-character title',
			{ source_url: 'https://a.example', platforms: ['reddit'], title: 't'.repeat(201) },
			/title/,
		],
		[
			'a non-UUID project_id',
			{ source_url: 'https://a.example', platforms: ['reddit'], project_id: '12' },
			/project_id/,
		],
	])('rejects %s with 400 VALIDATION_ERROR and charges nothing', async (_n, body, field) => {
		const before = sb.control.ledger().length;
		expectError(await generate(body), 400, 'VALIDATION_ERROR', field);
		expect(sb.control.ledger().length).toBe(before);
	});

	it('accepts 10 platforms, a 500-character angle and a 200-character title', async () => {
		sb.control.setCredits({ subscription: 50, purchased: 0 });
		const r = await generate({
			source_url: 'https://a.example/p',
			platforms: [
				'instagram',
				'facebook',
				'linkedin',
				'twitter',
				'threads',
				'tiktok',
				'youtube',
				'pinterest',
				'bluesky',
				'google-business',
			],
			angle: 'a'.repeat(500),
			title: 't'.repeat(200),
		});
		expect(r.status).toBe(202);
		expect(r.data.data.credits_deducted).toBe(6);
	});

	it('answers 400 NO_PROJECT when the account has no project', async () => {
		const key = sb.control.createKey({ userId: sb.control.noProjectUserId });
		expectError(
			await api(sb, key).post('/social/generate', {
				source_url: 'https://a.example',
				platforms: ['reddit'],
			}),
			400,
			'NO_PROJECT',
		);
	});

	it('answers 404 for another user project and 402 when platforms cannot be covered', async () => {
		const theirs = sb.control.projects(sb.control.otherUserId)[0].id;
		expectError(
			await generate({
				source_url: 'https://a.example',
				platforms: ['reddit'],
				project_id: theirs,
			}),
			404,
			'NOT_FOUND',
		);
		sb.control.setCredits({ subscription: 1, purchased: 0.1 });
		const before = sb.control.ledger().length;
		expectError(
			await generate({ source_url: 'https://a.example', platforms: ['reddit', 'threads'] }),
			402,
			'INSUFFICIENT_CREDITS',
			/1\.2.*1\.1/,
		);
		expect(sb.control.ledger().length).toBe(before);
		sb.control.setCredits({ subscription: 50, purchased: 0 });
	});
});
