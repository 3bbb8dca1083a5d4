import type { IDataObject } from 'n8n-workflow';

import { DurableCursors } from '../../harness/trigger/durable';
import { pollHarness } from '../../harness/trigger/poll';
import type { VirtualService } from '../../harness/trigger/virtual';
import type { World } from '../../harness/trigger/world';
import { freshAccount } from './account';

/*
 * The trigger under n8n 2.41's durable poll cursors (../../harness/trigger/durable.ts models what
 * n8n's code does): the activation poll's state is dropped when it emits nothing, a cursor can be
 * committed with an execution that never starts, and two polls from one state both commit.
 */

const MINUTE = 60_000;
const EVENTS = ['articleCompleted', 'socialFinished'];

let world: World;
let service: VirtualService;
let stopClock: () => void;

beforeEach(() => ({ world, service, stopClock } = freshAccount(5)));
afterEach(() => stopClock());

function inFlight(articles: number, social: number) {
	return {
		articles: Array.from({ length: articles }, () => world.create('article', 'queued')),
		social: Array.from({ length: social }, () => world.create('social', 'generating')),
	};
}

function finish(records: { articles: string[]; social: string[] }): void {
	for (const id of records.articles) world.set('article', id, 'cms');
	for (const id of records.social) world.set('social', id, 'completed');
}

/** n8n activates the trigger and runs a first scheduled poll; then `records` finish. */
async function runningThenFinished(
	records: { articles: string[]; social: string[] },
	parameters: IDataObject = { events: EVENTS },
): Promise<DurableCursors> {
	const n8n = new DurableCursors(parameters, service.http);
	world.tick(MINUTE);
	await n8n.activate();
	await n8n.scheduled();
	world.tick(MINUTE);
	finish(records);
	world.tick(MINUTE);
	return n8n;
}

const ids = (items: IDataObject[]) => items.map((item) => item.id).sort();
const eventIds = (items: IDataObject[]) => items.map((item) => item.eventId);

describe('event ids', () => {
	it('the same poll run twice from one state emits the same items with identical event ids', async () => {
		const records = inFlight(2, 2);
		const n8n = await runningThenFinished(records);
		const [first, second] = await n8n.twice();
		expect(ids(first.delivered)).toEqual([...records.articles, ...records.social].sort());
		expect(second.delivered).toHaveLength(4);
		expect(eventIds(first.delivered).every((id) => typeof id === 'string')).toBe(true);
		expect(new Set(eventIds(first.delivered)).size).toBe(4);
		expect(eventIds(second.delivered)).toEqual(eventIds(first.delivered));
	});
});

describe('event ids', () => {
	it("Fetch Test Event's item carries the event id the trigger gives that change", async () => {
		const records = inFlight(1, 0);
		world.tick(MINUTE);
		const trigger = pollHarness({ events: EVENTS }, undefined, { http: service.http });
		await trigger.poll();
		finish(records);
		world.tick(MINUTE);
		const polled = (await trigger.poll())?.[0][0].json;
		const fetched = (await trigger.poll('manual'))?.[0][0].json;
		expect(fetched?.id).toBe(records.articles[0]);
		expect(typeof polled?.eventId).toBe('string');
		expect(fetched?.eventId).toBe(polled?.eventId);
	});
});

describe('catch-up after activation', () => {
	it('a first scheduled poll whose activation state was dropped reports the changes since activation', async () => {
		const records = inFlight(4, 4);
		const n8n = new DurableCursors({ events: EVENTS }, service.http);
		world.tick(MINUTE);
		const activation = await n8n.activate();
		expect(activation.output).toBeNull();
		expect(n8n.row).toEqual({}); // n8n kept nothing of the activation poll's state

		world.tick(5_000);
		finish(records);
		world.tick(MINUTE - 5_000);
		await n8n.scheduled();
		expect(ids(n8n.delivered)).toEqual([...records.articles, ...records.social].sort());

		// Then on as usual: nothing twice, the next change once.
		world.tick(MINUTE);
		expect((await n8n.scheduled()).output).toBeNull();
		const later = inFlight(1, 0);
		world.tick(MINUTE);
		await n8n.scheduled();
		finish(later);
		world.tick(MINUTE);
		expect(ids((await n8n.scheduled()).delivered)).toEqual(later.articles);
		expect(n8n.delivered).toHaveLength(9);
	});

	it('a first scheduled poll that ends early stores nothing; the next one still catches up', async () => {
		const records = inFlight(2, 2);
		const n8n = new DurableCursors({ events: EVENTS }, service.http);
		world.tick(MINUTE);
		await n8n.activate();
		finish(records);
		world.tick(MINUTE);
		service.latency = () => Infinity; // the service stops answering: the poll ends in time
		expect((await n8n.scheduled()).output).toBeNull();
		service.latency = () => 200;
		world.tick(MINUTE);
		await n8n.scheduled();
		expect(ids(n8n.delivered)).toEqual([...records.articles, ...records.social].sort());
	});

	it("under n8n's classic poll state, a first activation still reports nothing old", async () => {
		const records = inFlight(3, 3);
		finish(records);
		world.tick(MINUTE);
		const trigger = pollHarness({ events: EVENTS }, undefined, { http: service.http });
		expect(await trigger.poll()).toBeNull();
		world.tick(MINUTE);
		expect(await trigger.poll()).toBeNull();
		// Restarted (static data through JSON), as n8n does on start: still nothing old.
		trigger.restart();
		world.tick(MINUTE);
		expect(await trigger.poll()).toBeNull();
	});
});

describe('delivery', () => {
	async function crashAfterCommit(delivery?: string) {
		const records = inFlight(1, 1);
		const parameters: IDataObject = {
			events: EVENTS,
			...(delivery ? { options: { delivery } } : {}),
		};
		const n8n = await runningThenFinished(records, parameters);
		// The cursor is committed with an execution that never starts (main stopped).
		const lost = await n8n.scheduled({ executionStarts: false });
		expect(lost.output?.[0]).toHaveLength(2);
		expect(lost.delivered).toEqual([]);
		// n8n is down a while; more content finishes meanwhile.
		const meanwhile = inFlight(0, 1);
		world.tick(MINUTE);
		await n8n.scheduled();
		finish(meanwhile);
		world.tick(10 * MINUTE);
		const after = await n8n.scheduled();
		return { n8n, records, meanwhile, lost, after };
	}

	it('at least once: a poll whose execution never ran has its changes reported again, with the same event ids', async () => {
		const { n8n, records, meanwhile, lost } = await crashAfterCommit('atLeastOnce');
		const lostIds = lost.output?.[0].map((item) => item.json.eventId);
		expect(lostIds?.every((id) => typeof id === 'string')).toBe(true);
		expect(eventIds(n8n.delivered)).toEqual(expect.arrayContaining(lostIds ?? ['none']));
		expect(new Set(ids(n8n.delivered))).toEqual(
			new Set([...records.articles, ...records.social, ...meanwhile.social]),
		);
		// Downstream of n8n's Remove Duplicates (on eventId): each change exactly once.
		const unique = new Set(eventIds(n8n.delivered));
		expect(unique.size).toBe(3);
	});

	it('at least once: repeats stop after a bounded number of polls', async () => {
		const records = inFlight(1, 0);
		const n8n = new DurableCursors(
			{ events: EVENTS, options: { delivery: 'atLeastOnce' } },
			service.http,
		);
		world.tick(MINUTE);
		await n8n.activate();
		await n8n.scheduled();
		finish(records);
		for (let poll = 0; poll < 6; poll++) {
			world.tick(MINUTE);
			await n8n.scheduled();
		}
		// Reported by the poll that saw it, then again by the next two.
		expect(n8n.delivered).toHaveLength(3);
		expect(new Set(eventIds(n8n.delivered)).size).toBe(1);
	});

	it('exactly once (the default): the changes of an execution that never ran are not reported again', async () => {
		const { n8n, records, meanwhile, after } = await crashAfterCommit();
		expect(ids(after.delivered)).toEqual(meanwhile.social);
		expect(ids(n8n.delivered)).toEqual(meanwhile.social);
		expect(ids(n8n.delivered)).not.toContain(records.articles[0]);
	});
});
