/**
 * The statuses of finished articles last changed before the trigger began to watch (or before an
 * earlier build's state), learnt once by reading the list further down, a few pages a poll: a
 * later move of one of them is then reported with the status it left. Without it, an article
 * that is not remembered and moves between finished statuses cannot be told from an edit.
 *
 *   requests per poll while learning = + LEARN_PAGES_PER_POLL (5), for ceil(articles / 100) / 5
 *   polls after activation (3,000 articles: 6 polls); none afterwards. At most LEARN_MAX_PAGES
 *   pages are read: a longer list's older articles stay unknown, as the state could not hold them.
 *
 * The list is newest change first and a change moves a record to the top, so a record below the
 * page read at one poll is still below it at the next: reading on from that page skips nobody.
 */
import { ARTICLE_LIFECYCLE } from '../../shared/domain/statuses';
import type { PollRun } from './poll-run';
import { time, type TrackedRecord } from './reader';
import { keyOf, OLD_KEY, RecordMap, statusCode } from './state/keys';
import type { ArticleMemory, Seen } from './state/memory';

export const LEARN_PAGES_PER_POLL = 5;
/** Finished articles remembered below the floor: 10 characters each, 40,000 of the state's 60,000. */
export const OLD_MAX = 4000;
export const LEARN_MAX_PAGES = OLD_MAX / 100;

const PENDING: readonly string[] = ARTICLE_LIFECYCLE.pending;

/**
 * Reads the next pages to learn from, after the poll's own read: a record not remembered and
 * stamped below the floor (no later read reaches it) is remembered as it is now. Records at or
 * above the floor are left to the next poll's read, which remembers what it meets.
 */
export async function learnArticles(
	memory: ArticleMemory,
	ctx: PollRun,
	met?: Map<string, TrackedRecord>,
): Promise<void> {
	const first = memory.learn ?? 1;
	if (first === 0) return;
	for (let page = first; page < first + LEARN_PAGES_PER_POLL; page++) {
		if (page > LEARN_MAX_PAGES) {
			memory.learn = 0;
			return;
		}
		const result = await ctx.articles(page, ctx.articlePageSize, { met });
		learnFrom(memory, result.items);
		if (!result.hasMore || result.items.length === 0) {
			memory.learn = 0;
			return;
		}
		memory.learn = page + 1;
	}
}

/** Remembers the records stamped below the floor that are not remembered yet, as they are now. */
export function learnFrom(memory: ArticleMemory, records: TrackedRecord[]): void {
	const floor = memory.floor;
	const old = oldOf(memory);
	// Oldest first, so that the oldest are the first forgotten when the state is full.
	const below = records
		.filter((record) => time(record.updated_at) < floor)
		.sort((a, b) => time(a.updated_at) - time(b.updated_at));
	for (const record of below) {
		const key = keyOf(record.id);
		if (!key || PENDING.includes(record.status)) continue;
		if (memory.pending.has(key) || memory.seen.has(key) || old.has(key)) continue;
		old.set(key, { code: statusCode(record.status), bound: dayOf(time(record.updated_at), floor) });
	}
}

/**
 * At the end of a poll: finished articles now below the floor move to the old ones (short keys,
 * so the state's other keys stay whole), and the old ones are held to OLD_MAX, those changed
 * longest ago forgotten first (a later move of one between finished statuses goes unreported).
 */
export function keepOld(memory: ArticleMemory): void {
	const old = oldOf(memory);
	for (const [key, entry] of [...memory.seen]) {
		if (!(entry.bound < memory.floor)) continue;
		memory.seen.delete(key);
		old.set(key, { code: entry.code, bound: dayOf(entry.bound, Infinity) });
	}
	forgetLeastRecent(old, old.size - OLD_MAX, Infinity);
}

function oldOf(memory: ArticleMemory): RecordMap<Seen> {
	memory.old ??= new RecordMap<Seen>(OLD_KEY);
	return memory.old;
}

/** The end of the day of a time (so few groups are stored), under `cap`. */
function dayOf(stamp: number, cap: number): number {
	const day = 86_400_000;
	return Number.isFinite(stamp)
		? Math.min(cap - 1, Math.ceil((stamp + 1) / day) * day - 1)
		: cap - 1;
}

/** Forgets up to `count` finished articles below the floor, those changed longest ago first. */
export function forgetLeastRecent(seen: RecordMap<Seen>, count: number, floor: number): void {
	if (count <= 0) return;
	const old = [...seen].filter(([, entry]) => entry.bound < floor);
	old.sort(([, x], [, y]) => x.bound - y.bound);
	for (const [key] of old.slice(0, count)) seen.delete(key);
}
