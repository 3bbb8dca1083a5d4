/**
 * Learning the account: after activation the trigger reads the whole social list once, for the
 * newest creation time (newestCreated) and every record created within the look-back below it
 * (`recent`), so that no existing record can later pass for a new one. Within one poll when the
 * request budget allows; else page by page over the next polls, which needs an order that holds
 * between requests (insertions only push records further along, never back past the pages already
 * read). A list reordered on every request must be read whole within one poll; when that takes
 * more requests than a poll has, it is only sampled, and only while its count says records were
 * created: each page is then a fresh sample, and a record created after activation is new wherever
 * it is met.
 */
import type { PollRun } from '../poll-run';
import { time, type ListResult, type TrackedRecord } from '../reader';
import type { Learning, NewRecordMemory } from '../state/memory';
import { pageCap, type WholeList } from './whole-list';

/** Records created above this are the ones to remember. */
export function learningFloor(learning: Learning, ctx: PollRun): number {
	return Math.min(learning.newest, ctx.now) - ctx.lookBackMs;
}

export function trimRecent(memory: NewRecordMemory, floor: number): void {
	for (const [key, bound] of [...memory.recent]) if (bound <= floor) memory.recent.delete(key);
}

/** Notes a record read while learning; followed records need no entry (they are remembered). */
export function learnRecord(
	memory: NewRecordMemory,
	key: string,
	record: TrackedRecord,
	ctx: PollRun,
	followed: boolean,
): void {
	const learning = memory.learning as Learning;
	const created = time(record.created_at);
	if (!Number.isFinite(created)) return;
	learning.newest = Math.max(learning.newest, created);
	// Bounded by its own time rounded up to a quarter of the look-back: trimmed as the look-back
	// moves, in few groups.
	const bucket = ctx.lookBackMs / 4;
	if (created > learningFloor(learning, ctx) && !followed)
		memory.recent.set(key, Math.ceil(created / bucket) * bucket);
}

const SAMPLED =
	'the service reorders its social list on every request and it is too long to read in one poll: it is sampled only when its count grows';

/**
 * Reads on from where learning stopped; ends it when the whole list has been read. Says whether
 * it is still learning (false: a list that can only be sampled, with no new record to look for).
 */
export async function readToLearn(
	memory: NewRecordMemory,
	list: WholeList,
	first: ListResult,
	count: number,
	ctx: PollRun,
): Promise<boolean> {
	const learning = memory.learning as Learning;
	const budget = ctx.budgetLeft;
	// Reordered on every request and too long for this poll's requests: it can only be sampled.
	const onlySampled = () => list.reorders && pageCap(count) > budget;
	const created = () =>
		count - learning.count - (memory.reported.size + memory.reportedFollowed.count);
	if (onlySampled() && created() <= 0) return false;
	let page = list.reorders ? 2 : learning.page;
	let passEnded = !first.hasMore;
	while (!list.allMet && !passEnded) {
		const reply = await list.page(page);
		if (!reply) break;
		if (reply.hasMore && reply.items.length > 0) page++;
		else if (list.reorders) page = 2;
		else passEnded = true;
	}
	trimRecent(memory, learningFloor(learning, ctx));
	if (list.allMet || passEnded) {
		memory.newestCreated = Math.min(learning.newest, ctx.now);
		memory.count = learning.count;
		// Records created meanwhile and not found: a writer's clock behind made them look older.
		memory.uncertain = Math.max(0, created());
		memory.learning = undefined;
		return false;
	}
	learning.page = list.reorders ? 2 : page;
	ctx.notes.add(
		onlySampled()
			? SAMPLED
			: 'still reading the whole social list once, to learn which records are new',
	);
	return true;
}
