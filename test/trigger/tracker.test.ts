import {
	ARTICLE_EVENTS,
	LIMITS,
	packId,
	pickTestEvent,
	pollSteps,
	runPollSync,
	SOCIAL_EVENTS,
	unpackId,
	type TrackerConfig,
	type TrackerState,
	type TriggerEvent,
} from '../../nodes/ContentGenTrigger/tracker';
import { prng, toRecord, World } from './world';

const ALL: TriggerEvent[] = [...ARTICLE_EVENTS, ...SOCIAL_EVENTS];

function tracker(world: World, config: Partial<TrackerConfig> = {}) {
	let stored: unknown = {};
	const full: TrackerConfig = { events: ALL, scope: 'all', ...config };
	return {
		poll() {
			world.log.length = 0;
			const outcome = runPollSync(pollSteps(stored, full), (request) => world.answer(request));
			stored = JSON.parse(JSON.stringify(outcome.state));
			return outcome.events.map(
				(e) =>
					`${e.event} ${e.record.id.slice(0, 8)} ${e.previousStatus ?? '-'}>${e.record.status}`,
			);
		},
		get state() {
			return stored as TrackerState;
		},
	};
}

describe('tracker', () => {
	it('packs ids to 22 characters and back', () => {
		const id = '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
		expect(packId(id)).toHaveLength(22);
		expect(unpackId(packId(id) as string)).toBe(id);
		expect(unpackId(packId(id.toUpperCase()) as string)).toBe(id);
		expect(packId('not-a-uuid')).toBeUndefined();
	});

	it('knows every record of a crowded last instant after activation', () => {
		const world = new World();
		for (let i = 0; i < 250; i++) world.create('article', i % 2 ? 'cms' : 'failed'); // one instant
		const t = tracker(world, { events: [...ARTICLE_EVENTS] });
		expect(t.poll()).toEqual([]);
		expect(t.poll()).toEqual([]);
		expect(world.log).toHaveLength(3); // the tie group spans three pages
	});

	it('emits no backlog on the first poll', () => {
		const world = new World();
		for (let i = 0; i < 30; i++) world.create('article', ['queued', 'cms', 'failed'][i % 3]);
		for (let i = 0; i < 30; i++)
			world.create('social', ['generating', 'completed', 'published'][i % 3]);
		const t = tracker(world);
		expect(t.poll()).toEqual([]);
		expect(t.state.a?.c).toBe(world.now);
		world.tick(1);
		expect(t.poll()).toEqual([]);
	});

	it('costs exactly one request for an idle article poll, and |W| + 1 for social', () => {
		const world = new World();
		for (let i = 0; i < 250; i++) {
			world.tick(1);
			world.create('article', i % 2 ? 'cms' : 'queued');
		}
		const articles = tracker(world, { events: ['articleCompleted'] });
		articles.poll();
		world.tick(1000);
		expect(articles.poll()).toEqual([]);
		expect(world.log).toEqual([{ kind: 'articleList', page: 1, limit: 100 }]);

		for (let i = 0; i < 40; i++) world.create('social', i % 2 ? 'completed' : 'generating');
		const finished = tracker(world, { events: ['socialFinished', 'socialFailed'] });
		finished.poll();
		expect(finished.poll()).toEqual([]);
		expect(
			world.log.map((r) => (r.kind === 'socialRecord' ? r.kind : `${r.kind}:${r.status ?? 'all'}`)),
		).toEqual(['socialList:draft', 'socialList:queued', 'socialList:generating', 'socialList:all']);
		const everything = tracker(world, { events: ['socialStatusChanged'] });
		everything.poll();
		expect(everything.poll()).toEqual([]);
		expect(world.log).toHaveLength(7);
	});

	it('reports a completion once, with the status it came from, across polls', () => {
		const world = new World();
		const id = world.create('article', 'queued');
		const t = tracker(world, { events: ['articleCompleted'] });
		t.poll();
		world.tick(10);
		world.set('article', id, 'cms');
		expect(t.poll()).toEqual([`articleCompleted ${id.slice(0, 8)} queued>cms`]);
		expect(t.poll()).toEqual([]);
		world.tick(10);
		world.set('article', id, 'needs_editing'); // still complete: not a second completion
		expect(t.poll()).toEqual([]);
	});

	it('handles many records at the same updated_at across page boundaries', () => {
		const world = new World();
		const ids = Array.from({ length: 7 }, () => world.create('article', 'queued'));
		const t = tracker(world, { events: [...ARTICLE_EVENTS], articlePageSize: 2 });
		t.poll();
		world.tick(5);
		for (const id of ids.slice(0, 5)) world.set('article', id, 'cms'); // five changes in one instant
		const first = t.poll();
		expect(first.filter((e) => e.startsWith('articleCompleted'))).toHaveLength(5);
		expect(t.state.a?.t.length).toBe(5 * 22); // the five ids at the cursor instant
		// In the same millisecond, after that poll: one more change and one new article.
		world.set('article', ids[5], 'failed');
		const late = world.create('article', 'queued');
		expect(t.poll().sort()).toEqual(
			[
				`articleCreated ${late.slice(0, 8)} ->queued`,
				`articleFailed ${ids[5].slice(0, 8)} queued>failed`,
				`articleStatusChanged ${ids[5].slice(0, 8)} queued>failed`,
			].sort(),
		);
		expect(t.poll()).toEqual([]);
		// Idle at a crowded instant: 7 ties plus the rest still need only ceil(8 / 2) pages.
		expect(world.log.length).toBeLessThanOrEqual(5);
	});

	it('treats a changed article it never saw in flight as previously finished', () => {
		const world = new World();
		const old = world.create('article', 'cms');
		world.tick(1);
		for (let i = 0; i < 120; i++) world.create('article', 'cms'); // pushes `old` off the first page
		const t = tracker(world);
		t.poll();
		world.tick(1);
		world.set('article', old, 'archived'); // finished -> finished: indistinguishable from an edit
		expect(t.poll()).toEqual([]);
		world.tick(1);
		world.set('article', old, 'queued'); // back in flight: certainly a change
		expect(t.poll()).toEqual([`articleStatusChanged ${old.slice(0, 8)} archived>queued`]);
	});

	it('reports a status change into flight of a record unseen since activation with previousStatus null', () => {
		const world = new World();
		const old = world.create('article', 'failed');
		world.tick(1);
		for (let i = 0; i < 120; i++) world.create('article', 'cms');
		const t = tracker(world);
		t.poll();
		world.tick(1);
		world.set('article', old, 'queued');
		expect(t.poll()).toEqual([`articleStatusChanged ${old.slice(0, 8)} ->queued`]);
	});

	it('resumes a window too long for one poll without repeating or losing events', () => {
		const world = new World();
		const ids = Array.from({ length: 30 }, () => world.create('article', 'queued'));
		const t = tracker(world, {
			events: ['articleCompleted'],
			articlePageSize: 5,
			maxArticlePages: 3,
		});
		t.poll();
		for (const id of ids) {
			world.tick(1);
			world.set('article', id, 'cms');
		}
		const first = t.poll();
		expect(first).toHaveLength(15); // the newest 15: three pages of five
		expect(t.state.a?.r).toMatchObject({ p: 15 }); // the rest is remembered as a band
		// Changes meanwhile move to the top; the band is still read from where it stopped.
		world.tick(1);
		const extra = world.create('article', 'cms');
		const second = t.poll();
		expect(second).toContain(`articleCompleted ${extra.slice(0, 8)} ->cms`);
		const rest = [...second, ...t.poll(), ...t.poll()].filter(
			(e) => !e.includes(extra.slice(0, 8)),
		);
		expect(new Set([...first, ...rest]).size).toBe(30);
		expect(rest).toHaveLength(15);
		expect(t.state.a?.r).toBeUndefined();
		expect(t.poll()).toEqual([]);
		expect(world.log).toHaveLength(1);
	});

	it('finds social content created and finished between two polls, whatever the list order', () => {
		const world = new World(prng(7));
		for (let i = 0; i < 60; i++) world.create('social', 'completed');
		const t = tracker(world, { events: ['socialFinished'] });
		t.poll();
		world.tick(100);
		const fresh = world.create('social', 'generating');
		world.tick(100);
		world.set('social', fresh, 'completed');
		expect(t.poll()).toEqual([`socialFinished ${fresh.slice(0, 8)} ->completed`]);
		expect(t.poll()).toEqual([]);
		expect(world.log).toHaveLength(4);
	});

	it('follows tracked social records that left the watched lists, one request each', () => {
		const world = new World(prng(3));
		const a = world.create('social', 'generating');
		const b = world.create('social', 'generating');
		const t = tracker(world, { events: ['socialFinished', 'socialFailed', 'socialPublished'] });
		t.poll();
		world.tick(10);
		world.set('social', a, 'completed');
		world.set('social', b, 'failed');
		expect(t.poll().sort()).toEqual(
			[
				`socialFinished ${a.slice(0, 8)} generating>completed`,
				`socialFailed ${b.slice(0, 8)} generating>failed`,
			].sort(),
		);
		expect(world.log.filter((r) => r.kind === 'socialRecord')).toEqual([
			{ kind: 'socialRecord', id: b },
		]);
		world.tick(10);
		world.set('social', a, 'publishing'); // not a list status: followed one by one
		expect(t.poll()).toEqual([]);
		world.tick(10);
		world.set('social', a, 'published');
		expect(t.poll()).toEqual([`socialPublished ${a.slice(0, 8)} publishing>published`]);
		expect(t.poll()).toEqual([]);
	});

	it('keeps the stored state under 64 KB with 100,000 records and 1,000 in flight', () => {
		const world = new World(prng(11));
		for (let i = 0; i < 50_000; i++) world.create('article', i % 3 ? 'cms' : 'archived');
		for (let i = 0; i < 50_000; i++) world.create('social', i % 2 ? 'published' : 'completed');
		world.tick(1);
		for (let i = 0; i < 500; i++) world.create('article', 'queued');
		for (let i = 0; i < 500; i++) world.create('social', i % 2 ? 'generating' : 'scheduled');
		const t = tracker(world);
		t.poll();
		world.tick(1);
		t.poll();
		const size = JSON.stringify(t.state).length;
		expect(t.state.a?.m.length).toBe(500 * 23); // the 500 in flight (also the newest)
		expect(t.state.s?.m.length).toBe(500 * 23);
		expect(size).toBeLessThan(65536);
	});

	it('bounds the stored state at its caps, whatever the account', () => {
		const packed = 23;
		const worst =
			LIMITS.articleMap * packed +
			LIMITS.articleTies * 22 +
			LIMITS.socialMap * packed +
			(LIMITS.pendingBirths + LIMITS.birthTies) * 22 +
			200; // keys, numbers, scope
		expect(worst).toBeLessThan(65536);

		const world = new World();
		for (let i = 0; i < 1500; i++) world.create('article', 'queued');
		for (let i = 0; i < 1500; i++) world.create('social', 'generating');
		const t = tracker(world);
		t.poll();
		expect(t.state.a?.m.length).toBe(LIMITS.articleMap * packed);
		expect(t.state.s?.m.length).toBeLessThanOrEqual(LIMITS.socialMap * packed);
		expect(JSON.stringify(t.state).length).toBeLessThan(65536);
	});

	it('starts over silently when the filters change', () => {
		const world = new World();
		const id = world.create('article', 'queued');
		const t = tracker(world, { scope: 'project-a' });
		t.poll();
		world.tick(1);
		world.set('article', id, 'cms');
		const other = tracker(world, { scope: 'project-b' });
		expect(
			runPollSync(pollSteps(t.state, { events: ALL, scope: 'project-b' }), (r) => world.answer(r))
				.events,
		).toEqual([]);
		expect(other).toBeDefined();
	});

	it('picks the newest record fitting an event for a test event', () => {
		const world = new World();
		const done = world.create('article', 'cms');
		world.tick(5);
		const pending = world.create('article', 'queued');
		const records = [pending, done].map((id) => toRecord(world.articles.get(id)!));
		expect(pickTestEvent(records, ['articleCompleted'])).toMatchObject({
			event: 'articleCompleted',
			previousStatus: 'queued',
			record: { id: done },
		});
		expect(pickTestEvent(records, ['articleCreated'])?.record.id).toBe(pending);
		expect(pickTestEvent(records, ['articleFailed'])).toBeUndefined();
	});
});
