import fc from 'fast-check';

import {
	ARTICLE_EVENTS,
	pollSteps,
	runPollSync,
	SOCIAL_EVENTS,
	type EmittedEvent,
	type TrackerState,
	type TriggerEvent,
} from '../../nodes/ContentGenTrigger/tracker';
import { prng, World } from './world';
import {
	ARTICLE_STATUSES as SPEC_ARTICLE_STATUSES,
	SOCIAL_STATUSES as SPEC_SOCIAL_STATUSES,
} from '../../sandbox/constants';

/*
 * Ground truth: the statuses at the last poll that committed, against the statuses now. The
 * tracker must report exactly the documented events of those changes, whatever happened in
 * between (several steps, failed polls, restarts, equal timestamps, any social list order).
 */

// The model takes the spec's statuses from the sandbox (an independent copy), plus the
// `publishing` answer that no list filter accepts.
const ARTICLE_STATUSES: readonly string[] = SPEC_ARTICLE_STATUSES;
const SOCIAL_STATUSES: readonly string[] = [...SPEC_SOCIAL_STATUSES, 'publishing'];
const SOCIAL_LISTS = new Set(SOCIAL_STATUSES.filter((s) => s !== 'publishing'));
const ALL_EVENTS: TriggerEvent[] = [...ARTICLE_EVENTS, ...SOCIAL_EVENTS];

type Op =
	| { t: 'tick'; ms: number }
	| { t: 'create'; kind: 'article' | 'social'; status: number }
	| { t: 'set'; kind: 'article' | 'social'; pick: number; status: number }
	| { t: 'poll'; failAt: number | null }
	| { t: 'restart' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
	{
		weight: 3,
		arbitrary: fc.record({ t: fc.constant('tick' as const), ms: fc.constantFrom(0, 0, 1, 5) }),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			t: fc.constant('create' as const),
			kind: fc.constantFrom('article' as const, 'social' as const),
			status: fc.nat(20),
		}),
	},
	{
		weight: 6,
		arbitrary: fc.record({
			t: fc.constant('set' as const),
			kind: fc.constantFrom('article' as const, 'social' as const),
			pick: fc.nat(1000),
			status: fc.nat(20),
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			t: fc.constant('poll' as const),
			failAt: fc.option(fc.nat(12), { freq: 3 }),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ t: fc.constant('restart' as const) }) },
);

interface History {
	events: TriggerEvent[];
	pageSize: number;
	seed: number;
	initialArticles: number[];
	initialSocial: number[];
	ops: Op[];
}

const historyArb: fc.Arbitrary<History> = fc.record({
	events: fc.oneof(fc.constant(ALL_EVENTS), fc.subarray(ALL_EVENTS, { minLength: 1 })),
	pageSize: fc.constantFrom(2, 3, 100),
	seed: fc.nat(),
	initialArticles: fc.array(fc.nat(20), { maxLength: 8, size: 'max' }),
	initialSocial: fc.array(fc.nat(20), { maxLength: 8, size: 'max' }),
	ops: fc.array(opArb, { minLength: 5, maxLength: 60, size: 'max' }),
});

/** Creation mostly starts where the service starts it; anything else is possible too. */
function statusFor(kind: 'article' | 'social', n: number): string {
	const list = kind === 'article' ? ARTICLE_STATUSES : SOCIAL_STATUSES;
	if (n < 8) return kind === 'article' ? 'queued' : 'generating';
	return list[n % list.length];
}

function setStatusFor(kind: 'article' | 'social', n: number): string {
	const list = kind === 'article' ? ARTICLE_STATUSES : SOCIAL_STATUSES;
	return list[n % list.length];
}

const key = (event: string, id: string, previous: string | null, status: string) =>
	`${event}|${id}|${previous ?? '∅'}|${status}`;

// ----- the model's rules, written out independently of the tracker -----

function expectedArticleEvents(before: Map<string, string>, now: Map<string, string>): string[] {
	const out: string[] = [];
	const complete = (s: string | undefined) => s === 'cms' || s === 'needs_editing';
	for (const [id, status] of now) {
		const previous = before.get(id);
		if (previous === undefined) {
			out.push(key('articleCreated', id, null, status));
			if (complete(status)) out.push(key('articleCompleted', id, null, status));
			if (status === 'failed') out.push(key('articleFailed', id, null, status));
		} else if (previous !== status) {
			out.push(key('articleStatusChanged', id, previous, status));
			if (complete(status) && !complete(previous))
				out.push(key('articleCompleted', id, previous, status));
			if (status === 'failed') out.push(key('articleFailed', id, previous, status));
		}
	}
	return out;
}

function watched(events: TriggerEvent[]): Set<string> {
	const w = new Set(['draft', 'queued', 'generating']);
	if (
		events.some(
			(e) => e === 'socialScheduled' || e === 'socialPublished' || e === 'socialStatusChanged',
		)
	) {
		for (const s of ['ready', 'completed', 'scheduled']) w.add(s);
	}
	return w;
}

function expectedSocialEvents(
	before: Map<string, string>,
	now: Map<string, string>,
	tracked: Set<string>,
	w: Set<string>,
): { events: string[]; tracked: Set<string> } {
	const out: string[] = [];
	const nextTracked = new Set<string>();
	const entered = (id: string, previous: string | null, status: string) => {
		const finished = (s: string | null) => s === 'completed' || s === 'ready';
		if (finished(status) && !finished(previous))
			out.push(key('socialFinished', id, previous, status));
		if (status === 'failed') out.push(key('socialFailed', id, previous, status));
		if (status === 'scheduled') out.push(key('socialScheduled', id, previous, status));
		if (status === 'published') out.push(key('socialPublished', id, previous, status));
	};
	for (const [id, status] of now) {
		const previous = before.get(id);
		const birth = previous === undefined;
		if (birth) {
			entered(id, null, status);
		} else if (previous !== status) {
			if (tracked.has(id)) {
				out.push(key('socialStatusChanged', id, previous, status));
				entered(id, previous, status);
			} else if (w.has(status)) {
				out.push(key('socialStatusChanged', id, null, status));
				entered(id, null, status);
			}
		}
		// Listed statuses are seen every poll; unlisted ones (publishing) only if followed there.
		if (w.has(status) || (!SOCIAL_LISTS.has(status) && (tracked.has(id) || birth)))
			nextTracked.add(id);
	}
	return { events: out, tracked: nextTracked };
}

// ----- the run -----

type Mutant = (state: TrackerState) => TrackerState;

function keysOf(events: EmittedEvent[]): string[] {
	return events.map((e) => key(e.event, e.record.id, e.previousStatus, e.record.status));
}

/** Runs one history; returns a description of the first disagreement, or null. */
export function checkHistory(history: History, mutant?: Mutant): string | null {
	const world = new World(prng(history.seed));
	const config = {
		events: history.events,
		scope: 'all',
		articlePageSize: history.pageSize,
		maxArticlePages: 1000,
	};
	const wanted = new Set<string>(history.events);
	const w = watched(history.events);
	for (const n of history.initialArticles) world.create('article', statusFor('article', n));
	for (const n of history.initialSocial) world.create('social', statusFor('social', n));
	world.tick(1);

	let stored: unknown = {};
	let committed: {
		articles: Map<string, string>;
		social: Map<string, string>;
		tracked: Set<string>;
	} | null = null;
	const reported = new Set<string>();

	for (const [index, op] of history.ops.entries()) {
		if (op.t === 'tick') world.tick(op.ms);
		else if (op.t === 'create') world.create(op.kind, statusFor(op.kind, op.status));
		else if (op.t === 'set') {
			const ids = [...(op.kind === 'article' ? world.articles : world.social).keys()];
			if (ids.length > 0)
				world.set(op.kind, ids[op.pick % ids.length], setStatusFor(op.kind, op.status));
		} else if (op.t === 'restart') {
			stored = JSON.parse(JSON.stringify(stored));
		} else {
			let requests = 0;
			let outcome;
			try {
				outcome = runPollSync(pollSteps(stored, config), (request) => {
					if (op.failAt !== null && requests++ === op.failAt) throw new Error('HTTP 503');
					return world.answer(request);
				});
			} catch {
				continue; // nothing committed
			}
			const articles = world.snapshot('article');
			const social = world.snapshot('social');
			let expected: string[];
			let tracked: Set<string>;
			if (committed === null) {
				expected = [];
				tracked = new Set([...social].filter(([, s]) => w.has(s)).map(([id]) => id));
			} else {
				const s = expectedSocialEvents(committed.social, social, committed.tracked, w);
				expected = [...expectedArticleEvents(committed.articles, articles), ...s.events];
				tracked = s.tracked;
			}
			expected = expected.filter((k) => wanted.has(k.split('|')[0])).sort();
			const actual = keysOf(outcome.events).sort();
			if (JSON.stringify(actual) !== JSON.stringify(expected)) {
				return `poll at op ${index}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
			}
			for (const k of actual) {
				if (reported.has(`${k}@${index}`)) return `duplicate ${k}`;
				reported.add(`${k}@${index}`);
			}
			const size = JSON.stringify(outcome.state).length;
			if (size > 65536) return `state too large: ${size}`;
			stored = mutant ? mutant(JSON.parse(JSON.stringify(outcome.state))) : outcome.state;
			committed = { articles, social, tracked };
		}
	}
	return null;
}

describe('tracker against a ground-truth model', () => {
	it('reports every change visible at poll time exactly once (1,000 random histories)', () => {
		fc.assert(
			fc.property(historyArb, (history) => {
				const problem = checkHistory(history);
				if (problem) throw new Error(problem);
			}),
			{ numRuns: 1000 },
		);
	});

	// The property must be able to fail: broken trackers are caught.
	it.each<[string, Mutant]>([
		['forgets the article statuses', (s) => (s.a ? { ...s, a: { ...s.a, m: '' } } : s)],
		[
			'moves the article cursor 1 ms ahead',
			(s) => (s.a ? { ...s, a: { ...s.a, c: s.a.c + 1 } } : s),
		],
		['forgets the tracked social records', (s) => (s.s ? { ...s, s: { ...s.s, m: '' } } : s)],
		['miscounts social records by one', (s) => (s.s ? { ...s, s: { ...s.s, n: s.s.n + 1 } } : s)],
	])('catches a tracker that %s', (_name, mutant) => {
		const result = fc.check(
			fc.property(historyArb, (history) => checkHistory(history, mutant) === null),
			{ numRuns: 1000 },
		);
		expect(result.failed).toBe(true);
	});
});
