import axios from 'axios';

import { startSandbox, type Sandbox } from '../../sandbox';
import { pollHarness } from '../../harness/trigger/poll';

describe('ContentGen Trigger against the sandbox', () => {
	let sandbox: Sandbox;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, speed: 2000, seed: 42, quiet: true });
		// Let the seeded in-flight generations finish first, so only this file's records move.
		sandbox.control.advance(24 * 3600_000);
	});
	afterAll(async () => {
		await sandbox.close();
	});

	function api() {
		return axios.create({
			baseURL: `${sandbox.url}/api/v1`,
			headers: { Authorization: `Bearer ${sandbox.apiKey}` },
			validateStatus: () => true,
		});
	}

	it('reports a generated article once: created, then completed, over several polls', async () => {
		const trigger = pollHarness(
			{ events: ['articleCreated', 'articleCompleted', 'articleFailed'] },
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.url },
		);
		expect(await trigger.poll()).toBeNull(); // no backlog of the seeded articles

		sandbox.control.forceOutcome('article', 'needs_editing');
		const project = sandbox.control.projects()[0].id;
		const generated = await api().post('/articles/generate', {
			topic: 'Polling triggers done right',
			project_id: project,
		});
		expect(generated.status).toBe(202);
		const id = generated.data.data.article_id as string;

		const seen: Array<[unknown, unknown, unknown]> = [];
		for (let i = 0; i < 6; i++) {
			sandbox.control.advance(60_000);
			const output = await trigger.poll();
			// One item per change, naming every selected event it matches.
			for (const item of output?.[0] ?? [])
				for (const event of item.json.events as string[])
					seen.push([event, item.json.id, item.json.previousStatus]);
			if (i === 2) trigger.restart();
		}
		const completed = seen.filter(
			([event, record]) => event === 'articleCompleted' && record === id,
		);
		expect(completed).toHaveLength(1);
		// queued when a poll saw it generating; null (new) when it was born and finished in between
		expect([null, 'queued']).toContain(completed[0][2]);
		expect(
			seen.filter(([event, record]) => event === 'articleCreated' && record === id),
		).toHaveLength(1);
		expect(seen.filter(([, record]) => record !== id)).toEqual([]);

		// Idle now: one request per poll.
		sandbox.control.resetRequests();
		expect(await trigger.poll()).toBeNull();
		expect(sandbox.control.requests().map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /api/v1/articles',
		]);
	});

	it('reports social content that was created and finished between two polls exactly once', async () => {
		const trigger = pollHarness(
			{ events: ['socialFinished', 'socialFailed'] },
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.url },
		);
		expect(await trigger.poll()).toBeNull();

		const generated = await api().post('/social/generate', {
			source_url: 'https://example.com/post',
			platforms: ['linkedin', 'twitter'],
		});
		expect(generated.status).toBe(202);
		const id = generated.data.data.content_id as string;
		sandbox.control.advance(10 * 60_000); // finished before the next poll ever sees it generating

		const events: unknown[] = [];
		for (let i = 0; i < 4; i++) {
			const output = await trigger.poll();
			for (const item of output?.[0] ?? [])
				events.push([item.json.event, item.json.id, item.json.status]);
			sandbox.control.advance(60_000);
		}
		expect(events).toEqual([['socialFinished', id, 'completed']]);
	});

	it('on a large account, says it is behind while it reads the social list once, and still reports', async () => {
		const large = await startSandbox({ port: 0, speed: 2000, seed: 43, socialListOrder: 'id' });
		try {
			large.control.advance(24 * 3600_000);
			large.control.seedSocial(7000, { status: 'completed', spacingMs: 60_000 });
			const [generating] = large.control.seedSocial(1, { status: 'generating' });
			const trigger = pollHarness(
				{ events: ['socialFinished'] },
				{ apiKey: large.apiKey, baseUrl: large.url },
			);
			expect(await trigger.poll()).toBeNull();
			expect(trigger.warnings()).toEqual([
				'ContentGen Trigger is behind: still reading the whole social list once, to learn which records are new',
			]);
			large.control.setSocialStatus(generating, 'completed');
			large.control.advance(60_000);
			const output = await trigger.poll();
			expect(output?.[0].map((i) => [i.json.event, i.json.id, i.json.previousStatus])).toEqual([
				['socialFinished', generating, 'generating'],
			]);
			expect(output?.[0][0].json.behind).toMatch(/still reading the whole social list/);
			let polls = 2;
			while (trigger.behind() && polls++ < 10) await trigger.poll();
			expect(polls).toBe(3); // 71 pages at 30 a poll
			expect(trigger.warnings()).toEqual([]);
		} finally {
			await large.close();
		}
	});

	it('shows a real recent record as the test event without moving the state', async () => {
		const trigger = pollHarness(
			{ events: ['articleCompleted'] },
			{ apiKey: sandbox.apiKey, baseUrl: sandbox.url },
		);
		await trigger.poll();
		const before = trigger.staticData();
		const output = await trigger.poll('manual');
		expect(output?.[0]).toHaveLength(1);
		expect(['cms', 'needs_editing']).toContain(output?.[0][0].json.status);
		expect(output?.[0][0].json.event).toBe('articleCompleted');
		expect(trigger.staticData()).toEqual(before);
	});
});
