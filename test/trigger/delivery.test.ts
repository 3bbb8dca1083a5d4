import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { STATE_LIMIT } from '../../harness/trigger/month-run';
import { runPoll, type TriggerEvent } from '../../nodes/ContentGenTrigger/tracker';
import { pollHarness, type PollHarness } from '../../harness/trigger/poll';
import type { VirtualService } from '../../harness/trigger/virtual';
import type { World } from '../../harness/trigger/world';
import { freshAccount } from './account';

/*
 * Event ids, catching up after a start n8n kept no state of, and at-least-once delivery, in the
 * cases the durable-cursor tests (./durable.test.ts) do not reach.
 */

const MINUTE = 60_000;
const NODE_KEY = 'node:ContentGen Trigger';
const STARTS = 'contentGenTriggerStarts';

let world: World;
let service: VirtualService;
let stopClock: () => void;

beforeEach(() => ({ world, service, stopClock } = freshAccount(3)));
afterEach(() => stopClock());

function harness(parameters: IDataObject): PollHarness {
	return pollHarness(parameters, undefined, { http: service.http });
}

const json = (output: INodeExecutionData[][] | null) => (output?.[0] ?? []).map((i) => i.json);

describe('event ids', () => {
	it('differ for two changes of one record, and a catch-up gives a change the id a poll gives it', async () => {
		const id = world.create('article', 'queued');
		world.tick(MINUTE);
		const events = ['articleStatusChanged'];
		const trigger = harness({ events });
		await trigger.poll();
		const start = (trigger.staticData().global as IDataObject)[STARTS];
		world.tick(MINUTE);
		world.set('article', id, 'cms');
		world.tick(MINUTE);
		const [completed] = json(await trigger.poll());
		world.tick(MINUTE);
		world.set('article', id, 'needs_editing');
		world.tick(MINUTE);
		const [edited] = json(await trigger.poll());
		expect(completed.eventId).toBe(`article:${id}:cms:${String(completed.updated_at)}`);
		expect(edited.eventId).not.toBe(completed.eventId);

		// The same account seen by a trigger that lost its state since its start: same id.
		const again = harness({ events });
		again.load({ global: { [STARTS]: start } } as IDataObject);
		const caught = json(await again.poll());
		expect(caught.map((item) => item.eventId)).toEqual([edited.eventId]);
		expect(again.infos()).toEqual(
			expect.arrayContaining([expect.stringMatching(/n8n kept no state from the poll/)]),
		);
	});
});

describe('catch-up after a start n8n kept no state of', () => {
	async function startedThenLost(change: (start: IDataObject) => IDataObject) {
		const ids = Array.from({ length: 3 }, () => world.create('article', 'queued'));
		world.tick(MINUTE);
		const trigger = harness({ events: ['articleCompleted'] });
		await trigger.poll();
		const start = (trigger.staticData().global as IDataObject)[STARTS] as IDataObject;
		for (const id of ids) world.set('article', id, 'cms');
		world.tick(MINUTE);
		const fresh = harness({ events: ['articleCompleted'] });
		fresh.load({ global: { [STARTS]: change(start) } } as IDataObject);
		return { ids, output: await fresh.poll(), fresh };
	}

	it('reports the changes since that start', async () => {
		const { ids, output } = await startedThenLost((start) => start);
		expect(
			json(output)
				.map((item) => item.id)
				.sort(),
		).toEqual([...ids].sort());
	});

	it('not after the node was renamed (n8n keeps its state by name): a first start', async () => {
		const { output } = await startedThenLost((start) => ({
			trigger: { ...(start.trigger as IDataObject), n: 'Old name' },
		}));
		expect(output).toBeNull();
	});

	it('not when the start was made under other filters', async () => {
		const { output, fresh } = await startedThenLost((start) => ({
			trigger: { ...(start.trigger as IDataObject), k: '3f1c0d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f|' },
		}));
		expect(output).toBeNull();
		expect(fresh.warnings()).toEqual([]);
	});

	it('reads social lists while the poll has time, and says what it left', async () => {
		world.tick(MINUTE);
		const trigger = harness({ events: ['socialFinished'] });
		await trigger.poll();
		const start = (trigger.staticData().global as IDataObject)[STARTS];
		for (let i = 0; i < 2_500; i++) world.create('social', 'completed');
		world.tick(MINUTE);
		service.latency = (request) =>
			request.kind === 'socialList' && request.status === 'completed' ? 3_000 : 200;
		const fresh = harness({ events: ['socialFinished'] });
		fresh.load({ global: { [STARTS]: start } } as IDataObject);
		const caught = json(await fresh.poll());
		expect(caught.length).toBeGreaterThan(0);
		expect(caught.length).toBeLessThan(2_500);
		expect(fresh.warnings()).toEqual([
			expect.stringMatching(
				/could not read every change since .*the completed social content list and after, for lack of time/,
			),
		]);
	});

	it('says so when a list is too long to read in one poll, and reports what it read', async () => {
		const start = world.now;
		world.tick(MINUTE);
		for (let i = 0; i < 6_050; i++) world.create('social', 'completed');
		world.tick(MINUTE);
		const events: TriggerEvent[] = ['socialFinished'];
		const outcome = await runPoll(
			{},
			{ events, scope: '|', now: world.now, lostStart: start },
			(request) => world.answer(request),
		);
		expect(outcome.caughtUp?.short).toEqual(['the completed social content list']);
		// 60 pages in all for the lists of finished content (ready, then completed).
		expect(outcome.items).toHaveLength(5_900);
	});
});

describe('at-least-once delivery', () => {
	it("with n8n's classic poll state: every change three times with one id, once after Remove Duplicates", async () => {
		const ids = Array.from({ length: 2 }, () => world.create('social', 'generating'));
		world.tick(MINUTE);
		const trigger = harness({ events: ['socialFinished'], options: { delivery: 'atLeastOnce' } });
		await trigger.poll();
		const delivered: IDataObject[] = [];
		for (const id of ids) {
			world.tick(MINUTE);
			world.set('social', id, 'completed');
			world.tick(MINUTE);
			delivered.push(...json(await trigger.poll()));
		}
		for (let poll = 0; poll < 3; poll++) {
			world.tick(MINUTE);
			delivered.push(...json(await trigger.poll()));
		}
		expect(delivered).toHaveLength(6);
		const seen = new Set<unknown>();
		const kept = delivered.filter((item) => !seen.has(item.eventId) && seen.add(item.eventId));
		expect(kept.map((item) => [item.id, item.event, item.previousStatus])).toEqual(
			ids.map((id) => [id, 'socialFinished', 'generating']),
		);
		// A repeat shows the record as it is now, with the first report's event.
		expect(delivered.filter((item) => item.id === ids[0])).toHaveLength(3);
	});

	it('keeps at most 100 changes for repeats, says so, and stays within the state budget', async () => {
		const events: TriggerEvent[] = ['articleCompleted'];
		const ids = Array.from({ length: 150 }, () => world.create('article', 'queued'));
		for (let i = 0; i < 5_000; i++) world.create('article', 'queued');
		world.tick(MINUTE);
		let stored: unknown = {};
		const poll = async () => {
			const outcome = await runPoll(
				stored,
				{ events, scope: '|', now: world.now, delivery: 'atLeastOnce' },
				(request) => world.answer(request),
			);
			stored = JSON.parse(JSON.stringify(outcome.state));
			return outcome;
		};
		await poll();
		for (const id of ids) world.set('article', id, 'cms');
		world.tick(MINUTE);
		const burst = await poll();
		expect(burst.items).toHaveLength(150);
		expect(burst.lag.notes).toEqual(
			expect.arrayContaining([expect.stringMatching(/50 change\(s\) will not be reported again/)]),
		);
		expect(JSON.stringify(stored).length).toBeLessThanOrEqual(STATE_LIMIT);
		world.tick(MINUTE);
		expect((await poll()).items).toHaveLength(100);
	});

	it("repeats what fits in half the poll's time, says so, and the next poll repeats the rest", async () => {
		const ids = Array.from({ length: 20 }, () => world.create('social', 'generating'));
		world.tick(MINUTE);
		const trigger = harness({ events: ['socialFinished'], options: { delivery: 'atLeastOnce' } });
		await trigger.poll();
		for (const id of ids) world.set('social', id, 'completed');
		world.tick(MINUTE);
		expect(json(await trigger.poll())).toHaveLength(20);
		// Every minute: optional reads stop after 30 s; a record read by id takes 3 s now.
		service.latency = (request) => (request.kind === 'socialRecord' ? 3_000 : 200);
		world.tick(MINUTE);
		const slow = json(await trigger.poll());
		expect(slow.length).toBeGreaterThan(0);
		expect(slow.length).toBeLessThan(20);
		expect(trigger.warnings().join('\n')).toMatch(
			new RegExp(`${20 - slow.length} social record\\(s\\) not reported again yet: no time left`),
		);
		service.latency = () => 200;
		world.tick(MINUTE);
		expect(
			json(await trigger.poll())
				.map((item) => item.id)
				.sort(),
		).toEqual([...ids].sort());
	});

	it('refuses a Delivery it does not know, before any request', async () => {
		const trigger = harness({ events: ['articleCompleted'], options: { delivery: 'twice' } });
		await expect(trigger.poll()).rejects.toThrow("'Delivery' must be 'Once' or 'At Least Once'");
		expect(service.served).toEqual([]);
	});
});

describe('the stored state across versions', () => {
	it('a state saved under other filters starts again as at activation, silently', async () => {
		world.create('article', 'queued');
		world.tick(MINUTE);
		const trigger = harness({ events: ['articleCompleted'] });
		await trigger.poll();
		const saved = trigger.staticData();
		const moved = harness({
			events: ['articleCompleted'],
			options: {
				projectId: { __rl: true, mode: 'id', value: '3f1c0d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f' },
			},
		});
		moved.load(saved);
		world.tick(MINUTE);
		expect(await moved.poll()).toBeNull();
		expect(moved.warnings()).toEqual([]);
		expect(moved.infos()).not.toEqual(
			expect.arrayContaining([expect.stringMatching(/earlier version|kept no state/)]),
		);
		expect(((moved.staticData()[NODE_KEY] as IDataObject).tracker as IDataObject).scope).toBe(
			'3f1c0d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f|',
		);
	});
});
