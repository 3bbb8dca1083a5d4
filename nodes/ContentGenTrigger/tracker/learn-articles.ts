/**
 * The statuses of finished articles last changed before the trigger began to watch (or before an
 * earlier build's state), learnt once by reading the list further down, a few pages a poll: a
 * later move of one of them is then reported with the status it left. Without it, an article
 * that is not remembered and moves between finished statuses cannot be told from an edit.
 *
 *   requests per poll while learning = + LEARN_PAGES_PER_POLL (5), for ceil(articles / 100) / 5
 *   polls after activation (3,000 articles: 6 polls; 20,000: 40); none afterwards. It stops once
 *   CAPS.finished are remembered: older articles stay unknown.
 *
 * The list is newest change first and a change moves a record to the top, so a record below the
 * page read at one poll is still below it at the next: reading on from that page skips nobody.
 */
import { ARTICLE_LIFECYCLE } from '../../shared/domain/statuses';
import type { PollRun } from './poll-run';
import { keyOf, time, type TrackedRecord } from './reader';
import { CAPS, size, type ArticleMemory, type Statuses } from './state/memory';

export const LEARN_PAGES_PER_POLL = 5;
export const FINISHED_FULL = `more than ${CAPS.finished} finished articles: those changed longest ago are forgotten`;

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
	const first = memory.learn;
	if (first === 0) return;
	for (let page = first; page < first + LEARN_PAGES_PER_POLL; page++) {
		const result = await ctx.articles(page, ctx.articlePageSize, { met });
		const full = !learnFrom(memory, result.items);
		if (full) ctx.notes.add(FINISHED_FULL);
		memory.learn = !result.hasMore || result.items.length === 0 || full ? 0 : page + 1;
		if (memory.learn === 0) return;
	}
}

/**
 * Remembers the records stamped below the floor that are not remembered yet, as they are now:
 * changed before any remembered, so first in the map. False when the cap left some out.
 */
export function learnFrom(memory: ArticleMemory, records: TrackedRecord[]): boolean {
	const learnt: Statuses = {};
	const below = records
		.filter((record) => time(record.updated_at) < memory.floor)
		.sort((a, b) => time(a.updated_at) - time(b.updated_at));
	for (const record of below) {
		const key = keyOf(record.id);
		if (!key || PENDING.includes(record.status)) continue;
		if (memory.pending[key] !== undefined || memory.finished[key] !== undefined) continue;
		learnt[key] = record.status;
	}
	const room = CAPS.finished - size(memory.finished);
	const keys = Object.keys(learnt);
	for (const key of keys.slice(0, Math.max(0, keys.length - room))) delete learnt[key];
	memory.finished = { ...learnt, ...memory.finished };
	return keys.length <= room;
}
