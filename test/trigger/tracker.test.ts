import {
	pickTestEvent,
	runPoll,
	type Lag,
	type TrackerConfig,
	type TriggerEvent,
} from '../../nodes/ContentGenTrigger/tracker';
import { CAPS } from '../../nodes/ContentGenTrigger/tracker/state/memory';
import { STATE_LIMIT } from '../../harness/trigger/month-run';
import { EVENT_NAMES } from '../../nodes/ContentGenTrigger/events';
import { prng, toRecord, World, type SocialOrder } from '../../harness/trigger/world';

const ALL: TriggerEvent[] = [...EVENT_NAMES];
const MINUTE = 60_000;

/** A tracker polling `world`; each poll gives its items as "events id previous>status". */
function tracker(world: World, config: Partial<TrackerConfig> = {}) {
	let stored: unknown = {};
	let lag: Lag | undefined;
	return {
		async poll() {
			world.log.length = 0;
			const settings = { events: ALL, scope: 'all', now: world.now, ...config };
			const outcome = await runPoll(stored, settings, (request) => world.answer(request));
			stored = JSON.parse(JSON.stringify(outcome.state));
			lag = outcome.lag;
			return outcome.items.map(
				(e) =>
					`${e.events.join('+')} ${e.record.id.slice(0, 8)} ${e.previousStatus ?? '-'}>${e.record.status}`,
			);
		},
		get state() {
			return stored as Record<string, Record<string, unknown>>;
		},
		get lag() {
			return lag as Lag;
		},
	};
}

const short = (id: string) => id.slice(0, 8);

describe('tracker: articles', () => {
	it('costs one request for an idle poll, and reports a completion once, with where it came from', async () => {
		const world = new World();
		for (let i = 0; i < 250; i++) {
			world.tick(1000);
			world.create('article', i % 2 ? 'cms' : 'queued');
		}
		const id = world.create('article', 'queued');
		const t = tracker(world, { events: ['articleCompleted'] });
		expect(await t.poll()).toEqual([]);
		// Within the look-back of the newest change, a poll reads those changes again (3 pages)...
		world.tick(MINUTE);
		expect(await t.poll()).toEqual([]);
		expect(world.log).toHaveLength(3);
		// ...until a poll has seen the list quiet for a whole look-back: then one request.
		world.tick(5 * MINUTE);
		await t.poll();
		world.tick(MINUTE);
		expect(await t.poll()).toEqual([]);
		expect(world.log).toEqual([{ kind: 'articleList', page: 1, limit: 100 }]);
		world.set('article', id, 'cms');
		expect(await t.poll()).toEqual([`articleCompleted ${short(id)} queued>cms`]);
		expect(await t.poll()).toEqual([]);
		world.tick(10);
		world.set('article', id, 'needs_editing'); // still complete: not a second completion
		expect(await t.poll()).toEqual([]);
	});

	it('names both selected events of one change in one item', async () => {
		const world = new World();
		const id = world.create('article', 'queued');
		const t = tracker(world, { events: ['articleStatusChanged', 'articleCompleted'] });
		await t.poll();
		world.tick(10);
		world.set('article', id, 'cms');
		expect(await t.poll()).toEqual([
			`articleCompleted+articleStatusChanged ${short(id)} queued>cms`,
		]);
	});

	it('reports a change stamped behind the newest one seen, once', async () => {
		const world = new World();
		const [a, b] = [world.create('article', 'queued'), world.create('article', 'queued')];
		const t = tracker(world);
		await t.poll();
		world.tick(MINUTE);
		world.set('article', a, 'cms');
		expect(await t.poll()).toEqual([
			`articleCompleted+articleStatusChanged ${short(a)} queued>cms`,
		]);
		// Committed late by a writer whose clock is 2 s behind the change already seen.
		world.set('article', b, 'failed', -2000);
		expect(await t.poll()).toEqual([
			`articleFailed+articleStatusChanged ${short(b)} queued>failed`,
		]);
		expect(await t.poll()).toEqual([]);
	});

	it('keeps reporting after an article stamped an hour ahead', async () => {
		const world = new World();
		const ids = [0, 1, 2].map(() => world.create('article', 'queued'));
		const t = tracker(world, { events: ['articleCompleted'] });
		await t.poll();
		world.tick(MINUTE);
		world.set('article', ids[0], 'cms', 3_600_000);
		expect(await t.poll()).toEqual([`articleCompleted ${short(ids[0])} queued>cms`]);
		for (const id of ids.slice(1)) {
			world.tick(MINUTE);
			world.set('article', id, 'cms');
			expect(await t.poll()).toEqual([`articleCompleted ${short(id)} queued>cms`]);
		}
		expect(t.state.articles.cursor).toBeLessThanOrEqual(world.now); // the cursor never passes the host's clock
	});

	it('reports all of 2,500 completions exactly once, in one poll of 26 requests', async () => {
		const world = new World();
		for (let i = 0; i < 3000; i++) world.create('article', 'cms', { created: world.now - 1e9 + i });
		world.tick(10 * MINUTE);
		const queued = Array.from({ length: 2500 }, () => world.create('article', 'queued'));
		const t = tracker(world, { events: ['articleCompleted'] });
		await t.poll();
		world.tick(MINUTE);
		for (const id of queued) world.set('article', id, 'cms');
		const reported = await t.poll();
		expect(new Set(reported).size).toBe(2500);
		expect(world.log).toHaveLength(26);
		expect(t.lag.behind).toBe(false);
		expect(await t.poll()).toEqual([]);
		expect(JSON.stringify(t.state).length).toBeLessThan(STATE_LIMIT);
	});

	it('treats a changed article beyond what it learns as previously finished', async () => {
		const world = new World();
		const old = world.create('article', 'cms');
		world.tick(10 * MINUTE);
		// One record a page: `old` is past the 60 pages learnt.
		for (let i = 0; i < 70; i++) world.create('article', 'cms');
		const t = tracker(world, { articlePageSize: 1 });
		for (let i = 0; i < 15; i++) await t.poll();
		world.tick(1);
		world.set('article', old, 'archived'); // finished -> finished: indistinguishable from an edit
		expect(await t.poll()).toEqual([]);
		world.tick(1);
		world.set('article', old, 'queued'); // back in flight: certainly a change
		expect(await t.poll()).toEqual([`articleStatusChanged ${short(old)} archived>queued`]);
	});

	it('resumes a window too long for one poll without repeating or losing events', async () => {
		const world = new World();
		const ids = Array.from({ length: 30 }, () => world.create('article', 'queued'));
		const t = tracker(world, {
			events: ['articleCompleted'],
			articlePageSize: 5,
			maxArticlePages: 3,
		});
		await t.poll();
		for (const id of ids) {
			world.tick(1);
			world.set('article', id, 'cms');
		}
		const first = await t.poll();
		expect(first).toHaveLength(15); // the newest 15: three pages of five
		expect(t.state.articles.unread).toEqual({ position: 15, floor: expect.any(Number) }); // the rest is remembered as a band
		world.tick(1);
		const extra = world.create('article', 'cms');
		const second = await t.poll();
		expect(second).toContain(`articleCompleted ${short(extra)} ->cms`);
		const rest = [...second, ...(await t.poll()), ...(await t.poll())].filter(
			(e) => !e.includes(short(extra)),
		);
		expect(new Set([...first, ...rest]).size).toBe(30);
		expect(rest).toHaveLength(15);
		expect(t.state.articles.unread).toBeUndefined();
	});
});

/** An account of `finished` old social records, `inFlight` generating, listed in `order`. */
function socialAccount(order: SocialOrder, finished: number, inFlight = 0) {
	const world = new World(prng(5), { socialOrder: order });
	for (let i = 0; i < finished; i++)
		world.create('social', i % 5 ? 'completed' : 'published', {
			created: world.now - 1e10 + i * 1e5,
		});
	const generating = Array.from({ length: inFlight }, () => world.create('social', 'generating'));
	world.tick(MINUTE);
	return { world, generating };
}

describe('tracker: social content', () => {
	it('costs 4 requests for an idle poll (3 followed lists and page 1), 7 with the publish events', async () => {
		const { world } = socialAccount('shuffled', 60, 20);
		const finished = tracker(world, { events: ['socialFinished', 'socialFailed'] });
		await finished.poll();
		expect(await finished.poll()).toEqual([]);
		expect(world.log.map((r) => (r.kind === 'socialList' ? (r.status ?? 'all') : r.kind))).toEqual([
			'draft',
			'queued',
			'generating',
			'all',
		]);
		const everything = tracker(world, { events: ['socialStatusChanged'] });
		await everything.poll();
		expect(await everything.poll()).toEqual([]);
		expect(world.log).toHaveLength(7);
	});

	it.each<SocialOrder>(['newest', 'id', 'oldest', 'shuffled'])(
		'finds 5 records born and finished between two polls among 6,000 finished (%s order)',
		async (order) => {
			const { world } = socialAccount(order, order === 'shuffled' ? 1500 : 6000);
			const t = tracker(world, { events: ['socialFinished'], requestBudget: Infinity });
			await t.poll(); // activation reads the whole list once
			const born = Array.from({ length: 5 }, () => world.create('social', 'completed'));
			world.tick(MINUTE);
			const reported = await t.poll();
			expect(reported.sort()).toEqual(
				born.map((id) => `socialFinished ${short(id)} ->completed`).sort(),
			);
			// Newest first, page 1 (read every poll for the count) holds them all: no extra request.
			if (order === 'newest') expect(world.log).toHaveLength(4);
			expect(await t.poll()).toEqual([]);
			expect(t.lag.behind).toBe(false);
		},
	);

	it('within its request budget, is late finding births in a list without order, and says so', async () => {
		const { world } = socialAccount('id', 6000);
		const t = tracker(world, { events: ['socialFinished'], requestBudget: 10 });
		const reported: string[] = [];
		let polls = 0;
		do reported.push(...(await t.poll()));
		while (t.lag.learning && ++polls < 20);
		expect(polls).toBeGreaterThan(3); // 60 pages at 10 a poll
		const born = Array.from({ length: 5 }, () => world.create('social', 'completed'));
		world.tick(MINUTE);
		let behind = 0;
		for (let i = 0; i < 10; i++) {
			reported.push(...(await t.poll()));
			if (t.lag.newRecords > 0) behind++;
			expect(
				world.log.filter((r) => r.kind === 'socialList' && !r.status).length,
			).toBeLessThanOrEqual(11);
		}
		expect(behind).toBeGreaterThan(0);
		expect(reported.sort()).toEqual(
			born.map((id) => `socialFinished ${short(id)} ->completed`).sort(),
		);
		expect(t.lag.behind).toBe(false);
	});

	it('reports every completion among 1,100 generating', async () => {
		const { world, generating } = socialAccount('id', 3000, 1100);
		const t = tracker(world, { events: ['socialFinished'] });
		await t.poll();
		for (const id of generating.slice(0, 5)) world.set('social', id, 'completed');
		world.tick(MINUTE);
		expect((await t.poll()).sort()).toEqual(
			generating
				.slice(0, 5)
				.map((id) => `socialFinished ${short(id)} generating>completed`)
				.sort(),
		);
	});

	it('fetches followed records that left the followed lists one by one, and follows `publishing`', async () => {
		// Oldest first, so page 1 (read every poll) does not show the two records that matter.
		const { world } = socialAccount('oldest', 150);
		const a = world.create('social', 'generating');
		const b = world.create('social', 'generating');
		const t = tracker(world, { events: ['socialFinished', 'socialFailed', 'socialPublished'] });
		await t.poll();
		world.tick(10);
		world.set('social', a, 'completed');
		world.set('social', b, 'failed');
		expect((await t.poll()).sort()).toEqual(
			[
				`socialFinished ${short(a)} generating>completed`,
				`socialFailed ${short(b)} generating>failed`,
			].sort(),
		);
		expect(world.log.filter((r) => r.kind === 'socialRecord')).toEqual([
			{ kind: 'socialRecord', id: b, optional: true },
		]);
		world.tick(10);
		world.set('social', a, 'publishing'); // not a list status: followed one by one
		expect(await t.poll()).toEqual([]);
		expect(world.log.filter((r) => r.kind === 'socialRecord')).toEqual([
			{ kind: 'socialRecord', id: a, optional: true },
		]);
		world.tick(10);
		world.set('social', a, 'published');
		expect(await t.poll()).toEqual([`socialPublished ${short(a)} publishing>published`]);
		expect(await t.poll()).toEqual([]);
	});
});

describe('tracker: state', () => {
	it('stays within its caps with 100,000 records and 1,000 in flight, and with 5,000 in flight', async () => {
		const world = new World(prng(11), { socialOrder: 'id' });
		for (let i = 0; i < 50_000; i++)
			world.create('article', i % 3 ? 'cms' : 'archived', { created: i });
		for (let i = 0; i < 50_000; i++)
			world.create('social', i % 2 ? 'published' : 'completed', { created: i });
		world.tick(1);
		for (let i = 0; i < 500; i++) world.create('article', 'queued');
		for (let i = 0; i < 500; i++) world.create('social', i % 2 ? 'generating' : 'scheduled');
		const t = tracker(world, { requestBudget: Infinity });
		await t.poll();
		world.tick(MINUTE);
		await t.poll();
		expect(JSON.stringify(t.state).length).toBeLessThan(STATE_LIMIT);
		for (let i = 0; i < 4000; i++) world.create('article', 'queued');
		world.tick(MINUTE);
		expect(await t.poll()).toHaveLength(4000); // articleCreated, each once
		expect(JSON.stringify(t.state).length).toBeLessThan(STATE_LIMIT);
		// 25,000 completed records are too many to follow for the publish events: it says so.
		expect(t.lag.notes).toEqual([
			`completed social content is not followed one by one (more than ${CAPS.followedList} records)`,
		]);
	});

	it('stores a burst of 5,000 births it follows once, while it still searches for another', async () => {
		const { world } = socialAccount('id', 6000);
		const t = tracker(world, { events: ['socialFinished'], requestBudget: 10 });
		do await t.poll();
		while (t.lag.learning);
		// A birth outside the followed lists, low in a list by id: found only by a search over polls.
		const elsewhere = world.create('social', 'completed');
		const burst = Array.from({ length: 5000 }, () => world.create('social', 'generating'));
		world.tick(MINUTE);
		const reported = await t.poll();
		expect(t.lag.newRecords).toBe(1);
		expect(JSON.stringify(t.state).length).toBeLessThan(STATE_LIMIT);
		for (const id of burst) world.set('social', id, 'completed');
		// Late (10 requests a poll for 5,000 records that left their list), never silent.
		let polls = 0;
		do {
			world.tick(MINUTE);
			reported.push(...(await t.poll()));
			expect(t.lag.notes.filter((note) => !note.endsWith('still to find'))).toEqual([]);
		} while (t.lag.behind && ++polls < 30);
		expect(reported.sort()).toEqual(
			[
				`socialFinished ${short(elsewhere)} ->completed`,
				...burst.map((id) => `socialFinished ${short(id)} generating>completed`),
			].sort(),
		);
		expect(t.lag.notes).toEqual([]);
	});

	it('follows 7,000 records in flight without forgetting any, and reports nothing while none moves', async () => {
		const { world } = socialAccount('id', 100);
		for (let i = 0; i < 7000; i++) world.create('social', i % 2 ? 'ready' : 'scheduled');
		world.tick(MINUTE);
		const t = tracker(world, { requestBudget: Infinity });
		await t.poll();
		for (let i = 0; i < 3; i++) {
			world.tick(MINUTE);
			expect(await t.poll()).toEqual([]);
			expect(t.lag.notes).toEqual([]);
		}
	});

	it('starts over silently when the filters change', async () => {
		const world = new World();
		const id = world.create('article', 'queued');
		const t = tracker(world, { scope: 'project-a' });
		await t.poll();
		world.tick(1);
		world.set('article', id, 'cms');
		const outcome = await runPoll(t.state, { events: ALL, scope: 'project-b' }, (r) =>
			world.answer(r),
		);
		expect(outcome.items).toEqual([]);
	});
});

describe('test event', () => {
	it('picks the newest record fitting an event, naming every selected event it could show', async () => {
		const world = new World();
		const done = world.create('article', 'cms');
		world.tick(5);
		const pending = world.create('article', 'queued');
		const records = [pending, done].map((id) => toRecord(world.articles.get(id)!));
		expect(pickTestEvent(records, ['articleCompleted', 'articleCreated'])).toMatchObject({
			event: 'articleCreated',
			record: { id: pending },
		});
		expect(pickTestEvent(records, ['articleCompleted', 'articleFailed'])).toMatchObject({
			event: 'articleCompleted',
			events: ['articleCompleted'],
			previousStatus: 'queued',
			record: { id: done },
		});
		expect(pickTestEvent(records, ['articleCreated'])?.record.id).toBe(pending);
		expect(pickTestEvent(records, ['articleFailed'])).toBeUndefined();
	});
});
