import { startSandbox, type Sandbox } from '../../sandbox';
import { api, pollUntil } from './helpers';

let sb: Sandbox;

beforeAll(async () => {
	// test speed: a generation takes milliseconds of real time
	sb = await startSandbox({ seed: 81, speed: 10_000 });
});
afterAll(async () => {
	await sb.close();
});

describe('generation at test speed', () => {
	it('an article completes after a few polls', async () => {
		const projectId = sb.control.projects()[0].id;
		const g = await api(sb).post('/articles/generate', {
			topic: 'Fast article',
			project_id: projectId,
		});
		expect(g.status).toBe(202);
		const r = await pollUntil(
			() => api(sb).get(g.data.data.poll_url.replace('/api/v1', '')),
			(res) => res.data.data.is_complete || res.data.data.status === 'failed',
		);
		expect(['cms', 'needs_editing']).toContain(r.data.data.status);
		expect(r.data.data.progress).toBe(100);
	});

	it('social content finishes and is published after a few polls', async () => {
		const g = await api(sb).post('/social/generate', {
			source_url: 'https://a.example/post',
			platforms: ['instagram', 'linkedin'],
		});
		const poll = () => api(sb).get(g.data.data.poll_url.replace('/api/v1', ''));
		const done = await pollUntil(poll, (res) => res.data.data.status !== 'generating');
		expect(done.data.data.status).toBe('completed');
		const p = await api(sb).post('/social/publish', { content_id: g.data.data.content_id });
		expect(p.status).toBe(202);
		const published = await pollUntil(poll, (res) => res.data.data.status === 'published');
		expect(published.data.data.is_published).toBe(true);
	});

	it('forced outcomes apply to the next N generations only', async () => {
		sb.control.forceOutcome('social', 'failed', 2);
		const ids: string[] = [];
		for (let i = 0; i < 3; i++) {
			const g = await api(sb).post('/social/generate', {
				source_url: 'https://a.example/f',
				platforms: ['reddit'],
			});
			ids.push(g.data.data.content_id);
		}
		const statuses: string[] = [];
		for (const id of ids) {
			const r = await pollUntil(
				() => api(sb).get(`/social/content/${id}`),
				(res) => res.data.data.status !== 'generating',
			);
			statuses.push(r.data.data.status);
		}
		expect(statuses).toEqual(['failed', 'failed', 'completed']);
	});
});
