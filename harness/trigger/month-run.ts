/* eslint-disable @n8n/community-nodes/require-node-api-error -- a simulation outside n8n: an unexpected error passes through as is */
/**
 * Plays a month (./month) against the tracker, poll by poll, and holds it to an oracle written
 * from the account's own timeline, not from the tracker:
 *
 * - a status is settled at a committed poll when the record held it from the poll's first request
 *   to its last; a record whose settled status differs from the one it had at its last settled
 *   poll made an obliged change when a selected event matches it (articles: every change; social:
 *   a record followed then, a birth, or one entering a followed list), and some item must give that
 *   status within LATE committed polls;
 * - no ghost: an item's status is one the record held during the poll that gave it, its previous
 *   status one it held before; a new record was born after activation;
 * - Exactly Once: no event id twice; At Least Once: an event id again only as the same change;
 * - requests per poll and the stored state within their bounds.
 *
 * Out of reach, as docs/trigger.md says: a social birth in an interval in which as many or more
 * social records not followed were deleted, with the count not falling (`hiddenBirth`); and the
 * next move of a record that came into `publishing` from a status not followed (`published`,
 * `failed`) without a committed poll seeing it in a followed list (`unseenPublishing`): no list
 * shows `publishing` and no count the trigger reads changes.
 */
import {
	runPoll,
	type EmittedItem,
	type TriggerEvent,
	type TrackerReply,
	type TrackerRequest,
} from '../../nodes/ContentGenTrigger/tracker';
import type { History, Kind } from './month';
import { Account, FOLLOWED } from './month-account';
import { EPOCH } from './world';

export type Delivery = 'exactlyOnce' | 'atLeastOnce';

/**
 * Committed polls within which an obliged change must be reported: one the lists show (articles,
 * moves among the followed lists) at once or at the next poll; one found by id or by the search
 * (a followed record out of sight, a birth outside the followed lists) within LATE.
 */
export const LATE = 30;
export const SHOWN = 1;
/** Requests one poll may make: 60 article pages, 7 social lists, 30 search, lists read whole. */
export const MAX_REQUESTS = 160;
/** The stored state at 10,000 + 10,000 records and more: within the caps (docs/trigger.md). */
export const STATE_LIMIT = 4_000_000;

export const ALL_EVENTS: TriggerEvent[] = [
	'articleCompleted',
	'articleFailed',
	'articleCreated',
	'articleStatusChanged',
	'socialFinished',
	'socialFailed',
	'socialScheduled',
	'socialPublished',
	'socialStatusChanged',
];
const MINUTE = 60_000;

export interface MonthResult {
	/** Every problem found, and how many. */
	problems: string[];
	problemCount: number;
	/** Requests of each committed poll after the warm-up, and of an idle poll. */
	requests: number[];
	idle: number;
	largestState: number;
	/** The minute of the first problem (for shrinking), or -1. */
	firstBad: number;
	/** Each committed poll: its minute and items as `id previous>status`. */
	polls: Array<{ minute: number; items: string[]; notes: string[] }>;
	/** The state stored last. */
	stored: unknown;
}

interface Poll {
	minute: number;
	start: number;
	end: number;
	items: EmittedItem[];
	requests: number;
	notes: string[];
}

/** Plays `history` (its first `minutes` minutes) under a Delivery; what the oracle found. */
export async function runMonth(
	history: History,
	delivery: Delivery,
	minutes = history.list.length,
	/** Changes the state between polls (tests of the oracle itself). */
	tamper: (state: Record<string, unknown>) => void = () => undefined,
): Promise<MonthResult> {
	const account = new Account(history.seed, history);
	const w = account.world;
	// Old records, a month and more ago: finished articles, social content mostly published.
	const since = w.now - 40 * 86_400_000;
	const step = (40 * 86_400_000) / Math.max(1, history.articles + history.social);
	const oldArticle = ['cms', 'cms', 'needs_editing', 'archived', 'failed'];
	// One in 20 old social records still waits in completed (followed for the publish events).
	const oldSocial = [
		...new Array<string>(16).fill('published'),
		'failed',
		'failed',
		'failed',
		'completed',
	];
	for (let i = 0; i < history.articles; i++)
		account.create('article', oldArticle[i % 5], since + i * step);
	for (let i = 0; i < history.social; i++)
		account.create('social', oldSocial[i % 20], since + (history.articles + i) * step);

	let stored: unknown = {};
	const committed: Poll[] = [];
	const problems: string[] = [];
	const requests: number[] = [];
	let idle = 0;
	let largestState = 0;
	let firstBad = -1;
	let problemCount = 0;
	const bad = (minute: number, problem: string) => {
		problemCount++;
		if (firstBad < 0) firstBad = minute;
		problems.push(`minute ${minute}: ${problem}`);
	};

	for (let m = 0; m < minutes; m++) {
		const minute = history.list[m];
		const start = w.now;
		// Time-ordered ids: a burst's records come four to a millisecond.
		const together = history.ids === 'v7' && minute.actions.length >= 50 ? 4 : 1;
		minute.actions.forEach((action, index) => {
			if (index % together === 0)
				w.tick(together * Math.floor(50_000 / Math.max(1, minute.actions.length)));
			account.apply(action);
		});
		// A busy minute's changes (and quick regenerations) may run past it: the poll comes after.
		w.now = Math.max(w.now + 1, start + MINUTE);
		const pollStart = w.now;
		let count = 0;
		const reader = (request: TrackerRequest): TrackerReply => {
			count++;
			if (count === minute.at && minute.fault === 'error')
				throw new Error('503 Service Unavailable');
			if (count === minute.at && minute.fault === 'slow') {
				for (const action of minute.during) {
					w.tick(3_000);
					account.apply(action);
				}
			}
			return w.answer(request);
		};
		let outcome;
		try {
			outcome = await runPoll(
				stored,
				{ events: ALL_EVENTS, scope: 'all', now: pollStart, delivery },
				reader,
			);
		} catch (error) {
			if (minute.fault !== 'error') throw error;
			continue;
		}
		const pollEnd = w.now;
		if (minute.fault === 'discard') continue;
		const json = JSON.stringify(outcome.state);
		largestState = Math.max(largestState, json.length);
		if (json.length > STATE_LIMIT) bad(m, `state of ${json.length} characters`);
		if (count > MAX_REQUESTS) bad(m, `${count} requests`);
		stored = JSON.parse(json);
		tamper(stored as Record<string, unknown>);
		committed.push({
			minute: m,
			start: pollStart,
			end: pollEnd,
			items: outcome.items,
			requests: count,
			notes: outcome.lag.notes,
		});
		if (m >= history.warmup) requests.push(count);
		// The idle price: the last poll of the warm-up, the account learnt and nothing moving.
		else idle = count;
		// Each minute's own world time passes in the next iteration.
		w.now = Math.max(w.now, pollEnd);
	}
	check(account, committed, history, delivery, bad, minutes);
	const polls = committed.map((p) => ({
		minute: p.minute,
		notes: p.notes,
		items: p.items.map((item) => `${item.record.id} ${item.previousStatus}>${item.record.status}`),
	}));
	return { problems, problemCount, requests, idle, largestState, firstBad, polls, stored };
}

/**
 * Every event is selected: an article's every move matches Status Changed and its birth Created;
 * a social record's move matches Status Changed, its birth only an event of the status it is
 * born in (finished, failed, scheduled, published).
 */
function matches(kind: Kind, previous: string | null | undefined, status: string): boolean {
	if (kind === 'article' || previous !== undefined) return true;
	return ['ready', 'completed', 'failed', 'scheduled', 'published'].includes(status);
}

function check(
	account: Account,
	committed: Poll[],
	history: History,
	delivery: Delivery,
	bad: (minute: number, problem: string) => void,
	minutes: number,
): void {
	const warm = committed.findIndex((p) => p.minute >= history.warmup);
	if (warm < 0) return;
	const activation = committed[0].start;
	const ids = new Map<string, string>();
	const kinds = new Map<string, Kind>();
	for (const id of account.world.articles.keys()) kinds.set(id, 'article');
	for (const id of account.timeline.keys()) if (!kinds.has(id)) kinds.set(id, 'social');

	// Items: ghosts and duplicates.
	const given = new Map<string, Array<[number, string]>>();
	committed.forEach((poll, index) => {
		for (const item of poll.items) {
			const id = item.record.id;
			const key = `${item.eventId}`;
			const change = `${id} ${item.previousStatus}>${item.record.status}`;
			const earlier = ids.get(key);
			if (earlier !== undefined) {
				if (delivery === 'exactlyOnce') bad(poll.minute, `event id twice: ${change}`);
				// A repeat shows the record as it is now, and the change as it was.
				else if (earlier.split(' ')[1].split('>')[0] !== `${item.previousStatus}`)
					bad(poll.minute, `one event id, two changes: ${earlier} / ${change}`);
				continue;
			}
			ids.set(key, change);
			const status = item.record.status;
			const held = account.heldDuring(id, poll.start, poll.end);
			if (!held.has(status)) bad(poll.minute, `ghost: ${change}, held ${[...held].join(',')}`);
			const before = account.heldDuring(id, -Infinity, poll.end);
			if (item.previous === undefined) {
				const born = account.timeline.get(id)?.[0]?.[0] ?? -Infinity;
				if (born < activation) bad(poll.minute, `an old record reported as new: ${change}`);
			} else if (item.previous !== null && !before.has(item.previous))
				bad(poll.minute, `previous status never held: ${change}`);
			const list = given.get(id) ?? [];
			list.push([index, status]);
			given.set(id, list);
		}
	});

	// Obliged changes, from settled statuses.
	for (const [id, line] of account.timeline) {
		const kind = kinds.get(id) as Kind;
		// From activation on: the first polls (and a restart among them) oblige as much as any.
		// Born during the first poll: new to it.
		let last = line[0][0] > activation ? undefined : account.statusAt(id, committed[0].end);
		let lastIndex = 0;
		// The status a record out of sight had before: back in it before it was found, nothing moved.
		let unseenFrom: string | null | undefined;
		// In publishing, come from a status not followed: no list or count showed it (limits).
		let unseenPublishing = false;
		for (let i = 1; i < committed.length; i++) {
			const poll = committed[i];
			const held = account.heldDuring(id, poll.start, poll.end);
			if (held.size !== 1) continue;
			const now = [...held][0];
			if (now === last || now === null || now === undefined) {
				if (now === null) last = null;
				if (now !== last) last = now;
				lastIndex = i;
				continue;
			}
			const followed: boolean =
				last === undefined ||
				(last !== null && (FOLLOWED.has(last) || (last === 'publishing' && !unseenPublishing)));
			// A search meets a record as it is then: one that moved on meanwhile is reported so.
			const later = committed[Math.min(i + LATE, committed.length - 1)];
			const movedOn = account.heldDuring(id, poll.end, later.end).size > 1;
			const born = line[0][0];
			const searched = born > committed[Math.max(0, i - LATE)].start && !given.has(id);
			const obliged =
				kind === 'article' ||
				(last === undefined
					? !hiddenBirth(account, committed[lastIndex], poll) && !movedOn
					: // Out of sight (left the followed lists): found by id or search, as it is then.
						(followed && (FOLLOWED.has(now) || !movedOn)) ||
						(FOLLOWED.has(now) && !searched && now !== unseenFrom));
			unseenFrom = followed && !FOLLOWED.has(now) && movedOn ? last : undefined;
			if (
				obliged &&
				matches(kind, last, now) &&
				i + LATE < committed.length &&
				poll.minute < minutes
			) {
				const shown =
					kind === 'article' ||
					(FOLLOWED.has(now) && last !== undefined && FOLLOWED.has(`${last}`));
				const within = i + (shown ? SHOWN : LATE);
				const found = (given.get(id) ?? []).some(
					([at, status]) => at > lastIndex && at <= within && status === now,
				);
				if (!found) {
					const said = committed.slice(i, i + LATE + 1).flatMap((p) => p.notes);
					bad(
						poll.minute,
						`missed ${kind} ${id} ${last ?? 'new'}>${now} (${[...new Set(said)].join('; ')})`,
					);
				}
			}
			unseenPublishing = now === 'publishing' && !followed;
			last = now;
			lastIndex = i;
		}
	}
}

/**
 * A birth the counts may not show: in its interval a social record that was not followed was
 * deleted (a followed one found gone starts a search). As many births as such deletions can stay
 * hidden; which ones cannot be told from outside, so every birth of that interval is excused.
 */
function hiddenBirth(account: Account, from: Poll, to: Poll): boolean {
	for (const line of account.timeline.values()) {
		for (let k = 1; k < line.length; k++) {
			const [at, status] = line[k];
			if (status !== null || at <= from.start || at > to.end) continue;
			const before = line[k - 1][1];
			if (before !== null && !FOLLOWED.has(before) && before !== 'publishing') return true;
		}
	}
	return false;
}

export { EPOCH };
