import axios from 'axios';

import { startSandbox, type Sandbox } from '../../sandbox';
import { crc32 } from '../../sandbox/png';
import { api, expectError, finishedSocial } from './helpers';

let sb: Sandbox;

beforeAll(async () => {
	sb = await startSandbox({ seed: 21, speed: 1 });
});
afterAll(async () => {
	await sb.close();
});

describe('media files', () => {
	it('serves real PNG bytes without auth, with Content-Type image/png', async () => {
		const id = await finishedSocial(sb, ['instagram', 'youtube']);
		const d = (await api(sb).get(`/social/content/${id}`)).data.data;
		for (const url of [d.image_urls.instagram, d.overlay_urls.youtube]) {
			const r = await axios.get(url, { responseType: 'arraybuffer', validateStatus: () => true });
			expect(r.status).toBe(200);
			expect(r.headers['content-type']).toBe('image/png');
			const buf = Buffer.from(r.data);
			expect(buf.subarray(0, 8)).toEqual(
				Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			);
			expect(buf.subarray(12, 16).toString('ascii')).toBe('IHDR');
			expect(buf.readUInt32BE(16)).toBeGreaterThan(0);
			// IHDR CRC covers type + data
			expect(buf.readUInt32BE(29)).toBe(crc32(buf.subarray(12, 29)));
			expect(buf.subarray(buf.length - 8, buf.length - 4).toString('ascii')).toBe('IEND');
		}
		const video = await axios.get(d.video_urls.youtube, {
			responseType: 'arraybuffer',
			validateStatus: () => true,
		});
		expect(video.status).toBe(200);
		expect(video.headers['content-type']).toBe('video/mp4');
		const missing = await axios.get(`${sb.url}/files/${id}/reddit.png`, {
			validateStatus: () => true,
		});
		expect(missing.status).toBe(404);
	});
});

describe('POST /social/publish', () => {
	it('publishes now: 202 publishing with profiles, then published; a second publish is 409', async () => {
		const id = await finishedSocial(sb, ['linkedin', 'twitter']);
		const r = await api(sb).post('/social/publish', { content_id: id });
		expect(r.status).toBe(202);
		expect(r.data.data).toEqual({ content_id: id, status: 'publishing', profiles: 3 });
		expectError(await api(sb).post('/social/publish', { content_id: id }), 409, 'CONFLICT');
		sb.control.advance(5_001);
		const d = (await api(sb).get(`/social/content/${id}`)).data.data;
		expect(d).toMatchObject({ status: 'published', is_published: true });
		expect(typeof d.scheduler_post_id).toBe('string');
		expectError(await api(sb).post('/social/publish', { content_id: id }), 409, 'CONFLICT');
	});

	it('schedules: 200 scheduled with scheduled_at, then published when the clock passes it', async () => {
		const id = await finishedSocial(sb, ['instagram', 'facebook'], 'ready');
		const at = new Date(sb.control.now().getTime() + 3_600_000);
		const offsetForm = at.toISOString().replace('Z', '+00:00');
		const r = await api(sb).post('/social/publish', {
			content_id: id,
			scheduled_at: offsetForm,
			platforms: ['instagram'],
		});
		expect(r.status).toBe(200);
		expect(r.data.data).toEqual({
			content_id: id,
			status: 'scheduled',
			scheduled_at: at.toISOString(),
		});
		const s = (await api(sb).get(`/social/content/${id}`)).data.data;
		expect(s).toMatchObject({
			status: 'scheduled',
			scheduled_publish_at: at.toISOString(),
			is_published: false,
		});
		sb.control.advance(3_600_001);
		const p = (await api(sb).get(`/social/content/${id}`)).data.data;
		expect(p).toMatchObject({ status: 'published', is_published: true });
		expect(p.updated_at).toBe(at.toISOString());
	});

	it('reschedules a scheduled record: a new scheduled_at moves it, listed under each of its platforms', async () => {
		const id = await finishedSocial(sb, ['linkedin', 'twitter']);
		const first = new Date(sb.control.now().getTime() + 3_600_000).toISOString();
		const later = new Date(sb.control.now().getTime() + 7_200_000).toISOString();
		await api(sb).post('/social/publish', { content_id: id, scheduled_at: first });
		const before = (await api(sb).get(`/social/content/${id}`)).data.data;
		sb.control.advance(1000);
		const r = await api(sb).post('/social/publish', {
			content_id: id,
			scheduled_at: later,
			platforms: ['linkedin'],
		});
		expect(r.status).toBe(200);
		expect(r.data.data).toEqual({ content_id: id, status: 'scheduled', scheduled_at: later });
		const after = (await api(sb).get(`/social/content/${id}`)).data.data;
		expect(after).toMatchObject({ status: 'scheduled', scheduled_publish_at: later });
		expect(Date.parse(after.updated_at) - Date.parse(before.updated_at)).toBeGreaterThanOrEqual(
			1000,
		);
		for (const platform of ['linkedin', 'twitter']) {
			const listed = (
				await api(sb).get('/social/content', {
					params: { status: 'scheduled', platform, limit: 100 },
				})
			).data.data.map((x: { id: string }) => x.id);
			expect(listed).toContain(id);
		}
	});

	it('answers 412 while generating and when no profile is connected', async () => {
		const g = await api(sb).post('/social/generate', {
			source_url: 'https://a.example/g',
			platforms: ['threads'],
		});
		expectError(
			await api(sb).post('/social/publish', { content_id: g.data.data.content_id }),
			412,
			'PRECONDITION_FAILED',
			/generating/,
		);
		const id = await finishedSocial(sb, ['threads']);
		sb.control.setSocialProfiles(0);
		try {
			expectError(
				await api(sb).post('/social/publish', { content_id: id }),
				412,
				'PRECONDITION_FAILED',
				/profile/,
			);
		} finally {
			sb.control.setSocialProfiles(3);
		}
	});

	it.each([
		['a missing content_id', {}, 400, 'VALIDATION_ERROR', /content_id/],
		['a non-UUID content_id', { content_id: 'abc' }, 400, 'VALIDATION_ERROR', /content_id/],
		[
			'an unknown platform',
			{ content_id: 'ID', platforms: ['myspace'] },
			400,
			'VALIDATION_ERROR',
			/platform/,
		],
		[
			'a platform not on the record',
			{ content_id: 'ID', platforms: ['reddit'] },
			400,
			'VALIDATION_ERROR',
			/reddit/,
		],
		[
			'a date without time zone',
			{ content_id: 'ID', scheduled_at: '2030-01-01T10:00:00' },
			400,
			'VALIDATION_ERROR',
			/scheduled_at/,
		],
		[
			'a date in the past',
			{ content_id: 'ID', scheduled_at: '2001-01-01T10:00:00Z' },
			400,
			'VALIDATION_ERROR',
			/scheduled_at/,
		],
		[
			'an unknown content_id',
			{ content_id: '00000000-0000-4000-8000-000000000000' },
			404,
			'NOT_FOUND',
			/not found/,
		],
	])('rejects %s', async (_n, body, status, code, msg) => {
		const id = await finishedSocial(sb, ['pinterest']);
		const b = { ...body } as Record<string, unknown>;
		if (b.content_id === 'ID') b.content_id = id;
		expectError(await api(sb).post('/social/publish', b), status, code, msg);
	});

	it('answers 404 for content of another user', async () => {
		const otherKey = sb.control.createKey({ userId: sb.control.otherUserId });
		const theirs = await api(sb, otherKey).get('/social/content', {
			params: { status: 'completed' },
		});
		expectError(
			await api(sb).post('/social/publish', { content_id: theirs.data.data[0].id }),
			404,
			'NOT_FOUND',
		);
	});
});
