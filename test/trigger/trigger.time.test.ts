import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { pollHarness, type PollHarness } from '../../harness/trigger/poll';
import { RESET_WINDOWS, useVirtualClock, type VirtualService } from '../../harness/trigger/virtual';
import { prng, World } from '../../harness/trigger/world';
import { freshAccount } from './account';

/*
 * The poll's own time, counted on a virtual clock: every answer, timeout, retry pause and
 * rate-limit wait advances it, so a poll against a slow or hanging service is measured exactly,
 * in no real time.
 */

const MINUTE = 60_000;
const AHEAD = 45 * MINUTE;

let world: World;
let service: VirtualService;
let stopClock: () => void;

beforeEach(() => ({ world, service, stopClock } = freshAccount(7)));
afterEach(() => stopClock());

function trigger(parameters: IDataObject, pollBudgetMs?: number): PollHarness {
	return pollHarness(parameters, undefined, { http: service.http, pollBudgetMs });
}

/** One poll: what it gave (or threw) and how long it took on the world's clock. */
async function timed(
	harness: PollHarness,
	mode?: 'manual',
): Promise<{ output: INodeExecutionData[][] | null | Error; took: number }> {
	const start = world.now;
	const output = await harness.poll(mode).catch((error: Error) => error);
	return { output, took: world.now - start };
}

const reported = (output: INodeExecutionData[][] | null | Error) =>
	output instanceof Error || output === null
		? []
		: output[0].map((item) => [item.json.id, item.json.previousStatus, item.json.status]);

describe('a poll ends before the next one is due', () => {
	it.each([
		['every minute', undefined, 55_000],
		["n8n's durable scheduler (36 s budget)", 36_000, 36_000],
	])(
		'against a service that never answers (%s): ends in time, stores nothing, warns, then catches up',
		async (_name, budget, bound) => {
			const id = world.create('article', 'queued');
			const harness = trigger({ events: ['articleCompleted'] }, budget);
			expect((await timed(harness)).output).toBeNull();
			world.tick(MINUTE);
			world.set('article', id, 'cms');
			const before = harness.staticData();

			service.latency = () => Infinity;
			const hung = await timed(harness);
			expect(hung.took).toBeLessThanOrEqual(bound);
			expect(hung.output).toBeNull();
			expect(harness.staticData()).toEqual(before);
			expect(harness.warnings().join('\n')).toMatch(/next poll covers this window/);

			service.latency = () => 200;
			world.tick(MINUTE - hung.took);
			expect(reported((await timed(harness)).output)).toEqual([[id, 'queued', 'cms']]);
		},
	);

	it.each([
		['Every Minute plus Every Hour', [{ mode: 'everyMinute' }, { mode: 'everyHour' }]],
		['a custom @hourly', [{ mode: 'custom', cronExpression: '@hourly' }]],
	])(
		'with Poll Times whose next firing cannot be told (%s), polls as if every minute',
		async (_name, item) => {
			const id = world.create('article', 'queued');
			const harness = trigger({ events: ['articleCompleted'], pollTimes: { item } });
			await timed(harness);
			world.tick(MINUTE);
			world.set('article', id, 'cms');
			const { output, took } = await timed(harness);
			expect(reported(output)).toEqual([[id, 'queued', 'cms']]);
			expect(took).toBeLessThanOrEqual(55_000);
		},
	);

	it('against answers of 12-15 s, every poll ends within 55 s, and one that cannot finish is late, never silent', async () => {
		const random = prng(3);
		service.latency = () => 12_000 + Math.round(random() * 3_000);
		for (let i = 0; i < 30; i++) world.create('social', i % 2 ? 'ready' : 'generating');
		const harness = trigger({ events: ['articleCompleted', 'socialFinished'] });
		let first: number | undefined;
		for (let poll = 0; poll < 8; poll++) {
			const start = world.now;
			const { output, took } = await timed(harness);
			expect(took).toBeLessThanOrEqual(55_000);
			first ??= start;
			// Nothing was stored: it says so, and after five minutes it is an error naming the cause.
			if (output instanceof Error) {
				expect(start - first).toBeGreaterThanOrEqual(5 * MINUTE);
				expect(output.message).toMatch(/too slow/);
				expect(JSON.stringify(output)).toMatch(/Poll Times/);
				return;
			}
			expect(output).toBeNull();
			expect(harness.warnings().join('\n')).toMatch(/next poll/);
			world.tick(MINUTE - took);
		}
		throw new Error('eight polls against a service too slow for them, and no error');
	});

	it('against answers of 12-15 s, an article trigger reports every completion once, each poll within 55 s', async () => {
		const random = prng(5);
		service.latency = () => 12_000 + Math.round(random() * 3_000);
		const ids = [0, 1, 2, 3].map(() => world.create('article', 'queued'));
		const harness = trigger({ events: ['articleCompleted'] });
		const seen: unknown[] = [];
		for (let poll = 0; poll < 8; poll++) {
			if (poll > 0 && poll <= ids.length) world.set('article', ids[poll - 1], 'cms');
			const { output, took } = await timed(harness);
			expect(took).toBeLessThanOrEqual(55_000);
			seen.push(...reported(output));
			world.tick(MINUTE - took);
		}
		expect(seen).toEqual(ids.map((id) => [id, 'queued', 'cms']));
	});
});

describe("the service's clock moves no cursor past what the trigger can vouch for", () => {
	it.each(['hour', 'day', 'week'] as const)(
		'with a reset header of a %s window and one article stamped 45 minutes ahead, later completions are all reported',
		async (window) => {
			service.reset = RESET_WINDOWS[window];
			const ids = [0, 1, 2, 3].map(() => world.create('article', 'queued'));
			const harness = trigger({ events: ['articleCompleted'] });
			await timed(harness);
			const seen: unknown[] = [];
			for (const [n, id] of ids.entries()) {
				world.tick(MINUTE);
				// The first writer's clock is 45 minutes fast; the others are right.
				world.set('article', id, 'cms', n === 0 ? AHEAD : 0);
				seen.push(...reported((await timed(harness)).output));
			}
			for (let i = 0; i < 3; i++) {
				world.tick(MINUTE);
				seen.push(...reported((await timed(harness)).output));
			}
			expect(seen).toEqual(ids.map((id) => [id, 'queued', 'cms']));
		},
	);

	it.each(['hour', 'day'] as const)(
		'with a reset header of a %s window and one social record created 45 minutes ahead, later new records are all reported',
		async (window) => {
			service.reset = RESET_WINDOWS[window];
			for (let i = 0; i < 20; i++) world.create('social', 'completed', { created: world.now - i });
			const harness = trigger({ events: ['socialFinished'] });
			await timed(harness);
			const born: string[] = [];
			const seen: unknown[] = [];
			for (let n = 0; n < 3; n++) {
				world.tick(MINUTE);
				born.push(world.create('social', 'completed', { skew: n === 0 ? AHEAD : 0 }));
				seen.push(...reported((await timed(harness)).output));
			}
			for (let i = 0; i < 3; i++) {
				world.tick(MINUTE);
				seen.push(...reported((await timed(harness)).output));
			}
			expect(seen).toEqual(born.map((id) => [id, null, 'completed']));
		},
	);

	it('with the host clock 2 minutes ahead and no usable reset header, an article edited 45 minutes ahead hides no later completion', async () => {
		stopClock();
		stopClock = useVirtualClock(world, 2 * MINUTE);
		service.reset = RESET_WINDOWS.week;
		const edited = world.create('article', 'cms');
		const ids = [0, 1, 2].map(() => world.create('article', 'queued'));
		const harness = trigger({ events: ['articleCompleted'] });
		// Quiet for longer than the look-back: the next read starts at the cursor.
		for (let i = 0; i < 7; i++) {
			await timed(harness);
			world.tick(MINUTE);
		}
		// An edit (no status change) by a writer whose clock is 45 minutes fast.
		world.set('article', edited, 'cms', AHEAD);
		await timed(harness);
		const seen: unknown[] = [];
		for (const id of ids) {
			world.tick(20_000);
			world.set('article', id, 'cms');
			world.tick(40_000);
			seen.push(...reported((await timed(harness)).output));
		}
		expect(seen).toEqual(ids.map((id) => [id, 'queued', 'cms']));
	});
});

describe('the trigger knows its cost', () => {
	const events = ['articleCompleted', 'socialPublished'];

	it('warns once per activation, in the log and in Fetch Test Event, when it would spend over half the daily limit', async () => {
		service.dailyLimit = 5_000;
		world.create('article', 'cms');
		const harness = trigger({ events });
		await timed(harness);
		const warning = harness.warnings().find((w) => /requests a day/.test(w));
		// Every minute, 1 request for articles and 7 for social content: 8 x 1,440.
		expect(warning).toMatch(/11,520 requests a day/);
		expect(warning).toMatch(/5,000/);
		expect(warning).toMatch(/every 5 minutes/i);

		world.tick(MINUTE);
		await timed(harness);
		expect(harness.warnings().filter((w) => /requests a day/.test(w))).toEqual([]);

		const test = await timed(harness, 'manual');
		expect(test.output).not.toBeInstanceOf(Error);
		const item = (test.output as INodeExecutionData[][])[0][0].json;
		expect(String(item.warning)).toMatch(/11,520 requests a day.*every 5 minutes/i);
	});

	it('says nothing in the item when the plan pays for it', async () => {
		service.dailyLimit = 50_000;
		world.create('article', 'cms');
		const harness = trigger({ events });
		await timed(harness);
		expect(harness.warnings().filter((w) => /requests a day/.test(w))).toEqual([]);
		const test = await timed(harness, 'manual');
		expect((test.output as INodeExecutionData[][])[0][0].json.warning).toBeUndefined();
	});
});
