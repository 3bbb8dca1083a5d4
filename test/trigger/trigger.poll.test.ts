import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import * as http from '../../nodes/shared/transport/http';
import { TEST_BASE_URL } from '../helpers/engine';
import { pollHarness } from '../../harness/trigger/poll';
import { setupNock } from '../helpers/nock';

const API = '/api/v1';
const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const S = '33333333-3333-4333-8333-333333333333';
const T0 = '2025-03-01T10:00:00.000Z';
const T1 = '2025-03-01T10:05:00.000Z';
const T2 = '2025-03-01T10:09:00.000Z';

function article(id: string, status: string, created: string, updated: string) {
	return {
		id,
		title: `Article ${id.slice(0, 4)}`,
		slug: 'a',
		status,
		meta_description: '',
		project_id: A,
		created_at: created,
		updated_at: updated,
	};
}

function listBody(items: unknown[], total = items.length) {
	return {
		success: true,
		data: items,
		pagination: { total, page: 1, limit: 100, total_pages: total ? 1 : 0, has_more: false },
	};
}

const SORTED_FIRST_PAGE = { page: '1', limit: '100', sort: 'updated_at', order: 'desc' };

/** Activation reads the in-flight lists, then the newest page. */
function activationScope(newest: unknown[]) {
	return nock(TEST_BASE_URL)
		.get(`${API}/articles`)
		.query({ ...SORTED_FIRST_PAGE, status: 'draft' })
		.reply(200, listBody([]))
		.get(`${API}/articles`)
		.query({ ...SORTED_FIRST_PAGE, status: 'queued' })
		.reply(200, listBody(newest.filter((a) => (a as { status: string }).status === 'queued')))
		.get(`${API}/articles`)
		.query(SORTED_FIRST_PAGE)
		.reply(200, listBody(newest));
}

describe('ContentGen Trigger through n8n poll context', () => {
	const unexpected: string[] = [];
	const onNoMatch = (req: { method?: string; path?: string }) =>
		unexpected.push(`${req.method} ${req.path}`);

	setupNock();
	beforeAll(() => nock.emitter.on('no match', onNoMatch));
	afterEach(() => {
		unexpected.length = 0;
	});
	afterAll(() => nock.emitter.removeListener('no match', onNoMatch));

	it('emits nothing on activation, one request when idle, and a completion exactly once', async () => {
		const trigger = pollHarness({ events: ['articleCompleted', 'articleStatusChanged'] });
		const activation = activationScope([article(A, 'queued', T1, T1), article(B, 'cms', T0, T0)]);
		expect(await trigger.poll()).toBeNull();
		expect(activation.isDone()).toBe(true);

		// Nothing changed: exactly one request, and no other.
		const idle = nock(TEST_BASE_URL)
			.get(`${API}/articles`)
			.query(SORTED_FIRST_PAGE)
			.reply(200, listBody([article(A, 'queued', T1, T1), article(B, 'cms', T0, T0)], 2));
		expect(await trigger.poll()).toBeNull();
		expect(idle.isDone()).toBe(true);
		expect(unexpected).toEqual([]);

		// A finished: one item naming both selected events, with the status it came from.
		const finished = [article(A, 'cms', T1, T2), article(B, 'cms', T0, T0)];
		nock(TEST_BASE_URL)
			.get(`${API}/articles`)
			.query(SORTED_FIRST_PAGE)
			.reply(200, listBody(finished));
		const output = await trigger.poll();
		expect(
			output?.[0].map((item) => [
				item.json.event,
				item.json.events,
				item.json.id,
				item.json.previousStatus,
				item.json.status,
			]),
		).toEqual([
			['articleCompleted', ['articleCompleted', 'articleStatusChanged'], A, 'queued', 'cms'],
		]);
		expect(output?.[0][0].json.title).toBe('Article 1111');

		// Seen again after a restart (static data through JSON): nothing more, still one request.
		trigger.restart();
		const again = nock(TEST_BASE_URL)
			.get(`${API}/articles`)
			.query(SORTED_FIRST_PAGE)
			.reply(200, listBody(finished));
		expect(await trigger.poll()).toBeNull();
		expect(again.isDone()).toBe(true);
		expect(unexpected).toEqual([]);
	});

	it('skips a poll that stays rate limited mid-way, keeps its state, and catches up next time', async () => {
		const trigger = pollHarness({ events: ['articleCompleted', 'socialFinished'] });
		activationScope([article(A, 'queued', T1, T1)]);
		const socialSeed = nock(TEST_BASE_URL)
			.get(`${API}/social/content`)
			.query(true)
			.times(4) // draft, queued, generating, then everything (with the count)
			.reply(200, (uri) =>
				uri.includes('status=generating')
					? listBody([{ id: S, status: 'generating', created_at: T1, updated_at: T1 }])
					: uri.includes('status=')
						? listBody([])
						: listBody([{ id: S, status: 'generating', created_at: T1, updated_at: T1 }]),
			);
		expect(await trigger.poll()).toBeNull();
		expect(socialSeed.isDone()).toBe(true);
		const before = trigger.staticData();

		// The article page is read (A completed), then the social list answers 429 for longer than
		// the trigger waits: the poll is skipped and nothing is stored.
		const finished = [article(A, 'needs_editing', T1, T2)];
		nock(TEST_BASE_URL)
			.get(`${API}/articles`)
			.query(SORTED_FIRST_PAGE)
			.reply(200, listBody(finished));
		const limited = nock(TEST_BASE_URL)
			.get(`${API}/social/content`)
			.query(true)
			.reply(
				429,
				{
					success: false,
					error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests' },
					meta: { request_id: 'r1' },
				},
				{ 'Retry-After': '45' },
			);
		expect(await trigger.poll()).toBeNull();
		expect(limited.isDone()).toBe(true);
		expect(trigger.staticData()).toEqual(before);

		// Next poll: the same window again, the completion comes out once.
		nock(TEST_BASE_URL)
			.get(`${API}/articles`)
			.query(SORTED_FIRST_PAGE)
			.reply(200, listBody(finished));
		nock(TEST_BASE_URL)
			.get(`${API}/social/content`)
			.query(true)
			.times(4)
			.reply(200, (uri) =>
				uri.includes('status=generating') || !uri.includes('status=')
					? listBody([{ id: S, status: 'generating', created_at: T1, updated_at: T1 }])
					: listBody([]),
			);
		const output = await trigger.poll();
		expect(
			output?.[0].map((item) => [item.json.event, item.json.id, item.json.previousStatus]),
		).toEqual([['articleCompleted', A, 'queued']]);
		expect(unexpected).toEqual([]);
	});

	it('ends a poll quietly when a 429 asks it to wait past the next poll: no retry, no error, nothing stored', async () => {
		// Four polls a minute: the next poll is at most 15 s away when this one starts.
		const every15s = ['0', '15', '30', '45'].map((second) => ({
			mode: 'custom',
			cronExpression: `${second} * * * * *`,
		}));
		const trigger = pollHarness({ events: ['articleCompleted'], pollTimes: { item: every15s } });
		activationScope([article(A, 'queued', T1, T1)]);
		expect(await trigger.poll()).toBeNull();
		const before = trigger.staticData();

		const limited = nock(TEST_BASE_URL)
			.get(`${API}/articles`)
			.query(SORTED_FIRST_PAGE)
			.reply(
				429,
				{
					success: false,
					error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests' },
					meta: { request_id: 'r2' },
				},
				{ 'Retry-After': '15' },
			);
		// A retry would find the completion and store the new state, inside the next poll's time.
		const retry = nock(TEST_BASE_URL)
			.get(`${API}/articles`)
			.query(SORTED_FIRST_PAGE)
			.reply(200, listBody([article(A, 'cms', T1, T2)]));
		// Every wait of the transport goes through pause(): none may start.
		const waits = jest.spyOn(http, 'pause');
		try {
			expect(await trigger.poll()).toBeNull();
			expect(waits).not.toHaveBeenCalled();
		} finally {
			waits.mockRestore();
		}
		expect(limited.isDone()).toBe(true);
		expect(retry.isDone()).toBe(false);
		expect(trigger.staticData()).toEqual(before);
	});

	it('turns rate limits into an error once polls have been skipped for five poll intervals', async () => {
		const trigger = pollHarness({ events: ['articleCompleted'] });
		activationScope([article(A, 'queued', T1, T1)]);
		const activated = Date.now();
		expect(await trigger.poll()).toBeNull();
		const limited = () =>
			nock(TEST_BASE_URL)
				.get(`${API}/articles`)
				.query(SORTED_FIRST_PAGE)
				.reply(
					429,
					{ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests' } },
					{ 'Retry-After': '3600' },
				);
		const clock = jest.spyOn(Date, 'now');
		try {
			// Every minute (the default Poll Times): quiet for five minutes after the last complete poll.
			clock.mockReturnValue(activated + 4 * 60_000);
			limited();
			expect(await trigger.poll()).toBeNull();
			clock.mockReturnValue(activated + 6 * 60_000);
			limited();
			await expect(trigger.poll()).rejects.toThrow(/Rate limit/);
		} finally {
			clock.mockRestore();
		}
		expect(unexpected).toEqual([]);
	});

	it('Fetch Test Event shows the newest matching record and leaves the state alone', async () => {
		const trigger = pollHarness({ events: ['articleCompleted'] });
		activationScope([article(A, 'queued', T1, T1), article(B, 'cms', T0, T0)]);
		await trigger.poll();
		const before = trigger.staticData();

		nock(TEST_BASE_URL)
			.get(`${API}/articles`)
			.query(SORTED_FIRST_PAGE)
			.reply(200, listBody([article(A, 'queued', T1, T1), article(B, 'cms', T0, T0)]));
		const output = await trigger.poll('manual');
		expect(
			output?.[0].map((item) => [item.json.event, item.json.id, item.json.previousStatus]),
		).toEqual([['articleCompleted', B, 'queued']]);
		expect(trigger.staticData()).toEqual(before);
	});

	it('refuses a project filter that is not an ID, before any request', async () => {
		const trigger = pollHarness({
			events: ['articleCompleted'],
			options: { projectId: { mode: 'id', value: 'not-an-id' } },
		});
		await expect(trigger.poll()).rejects.toThrow(/'Project' must be a UUID/);
		expect(unexpected).toEqual([]);
	});

	// n8n 2.41 with N8N_POLLER_DURABLE_CURSORS_ENABLED: a poll is handed a copy of the cursor row
	// (seeded once from the workflow's static data); a scheduled poll's copy is stored when it
	// returns, with its execution or alone; the poll n8n runs on activation is stored only when
	// it emits items.
	function durableCursors() {
		let row: IDataObject = {};
		let copy: IDataObject = {};
		const trigger = pollHarness({ events: ['articleCompleted'] }, undefined, {
			nodeStaticData: () => copy,
		});
		return {
			trigger,
			row: () => row,
			async poll(storedOnEmptyResult: boolean) {
				copy = JSON.parse(JSON.stringify(row)) as IDataObject;
				const output = await trigger.poll();
				if (output !== null || storedOnEmptyResult)
					row = JSON.parse(JSON.stringify(copy)) as IDataObject;
				return output;
			},
		};
	}

	it('under durable cursors keeps its whole state in the copy n8n stores, and emits a completion once', async () => {
		const durable = durableCursors();
		activationScope([article(A, 'queued', T1, T1)]);
		expect(await durable.poll(true)).toBeNull();
		expect(Object.keys(durable.row())).toEqual(['tracker']);
		// The workflow's own static data holds only when the trigger started (../starts).
		expect(durable.trigger.staticData()).toEqual({
			global: { contentGenTriggerStarts: { trigger: expect.objectContaining({ k: '|' }) } },
		});

		const finished = [article(A, 'cms', T1, T2)];
		const page = () =>
			nock(TEST_BASE_URL)
				.get(`${API}/articles`)
				.query(SORTED_FIRST_PAGE)
				.reply(200, listBody(finished));
		page();
		expect((await durable.poll(true))?.[0].map((item) => item.json.id)).toEqual([A]);
		page();
		expect(await durable.poll(true)).toBeNull();
		expect(unexpected).toEqual([]);
	});

	it('under durable cursors reports a change made before n8n 2.41 stores a starting point', async () => {
		const durable = durableCursors();
		const first = activationScope([article(A, 'queued', T1, T1)]);
		expect(await durable.poll(false)).toBeNull();
		expect(first.isDone()).toBe(true);
		expect(durable.row()).toEqual({});

		// A finishes before the first scheduled poll, which finds no state: it takes its starting
		// point again and reads the changes since the first one (one more page of the list).
		const finishedAt = new Date(Date.now() + 1000).toISOString();
		const finished = [article(A, 'cms', T1, finishedAt)];
		const again = activationScope(finished)
			.get(`${API}/articles`)
			.query(SORTED_FIRST_PAGE)
			.reply(200, listBody(finished));
		const output = await durable.poll(true);
		expect(again.isDone()).toBe(true);
		expect(output?.[0].map((item) => [item.json.id, item.json.previousStatus])).toEqual([
			[A, null],
		]);
		expect(unexpected).toEqual([]);
	});
});
