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
import type { PollContext } from './context';
import { time, type TrackedRecord } from './requests';
import { keyOf, statusCode } from './state/keys';
import type { ArticleMemory } from './state/memory';

export const LEARN_PAGES_PER_POLL = 5;
/** About what the stored state holds of finished articles at its shortest keys (60,000 / 10). */
export const LEARN_MAX_PAGES = 60;

const PENDING: readonly string[] = ARTICLE_LIFECYCLE.pending;

/**
 * Reads the next pages to learn from, after the poll's own read: a record not remembered and
 * stamped below the floor (no later read reaches it) is remembered as it is now. Records at or
 * above the floor are left to the next poll's read, which remembers what it meets.
 */
export async function learnArticles(
	memory: ArticleMemory,
	ctx: PollContext,
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
	// Oldest first, so that the oldest are the first forgotten when the state is full.
	const below = records
		.filter((record) => time(record.updated_at) < floor)
		.sort((a, b) => time(a.updated_at) - time(b.updated_at));
	for (const record of below) {
		const key = keyOf(record.id);
		if (!key || PENDING.includes(record.status)) continue;
		if (memory.pending.has(key) || memory.seen.has(key)) continue;
		// Stamped below the floor: a bound just under it holds for all, and is forgotten first.
		memory.seen.set(key, { code: statusCode(record.status), bound: floor - 1 });
	}
}
