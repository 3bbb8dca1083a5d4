/**
 * The census: at activation the trigger reads the whole social list once, for the newest creation
 * time (the watermark) and every record created within the look-back below it (`known`), so that
 * no existing record can later pass for a new one. Within one poll when the request budget allows;
 * else page by page over the next polls, which needs an order that holds between requests
 * (insertions only push records further along, never back past the pages already read). A list
 * reshuffled on every request must be read whole within one poll; when that takes more requests
 * than a poll has, it is only sampled, and only while its count says records were born: each
 * page is then a fresh sample, and a record created after activation is new wherever it is met.
 */
import { pageCap, type Walker } from './lists';
import type { NewRecordMemory, Learning } from './state/memory';
import { type PollContext } from './context';
import { time, type ListResult, type TrackedRecord } from './requests';

/** Records created above this are the ones to know. */
export function censusFloor(census: Learning, ctx: PollContext): number {
	return Math.min(census.newest, ctx.now) - ctx.lookBackMs;
}

export function trimKnown(births: NewRecordMemory, floor: number): void {
	for (const [key, label] of [...births.recent]) if (label <= floor) births.recent.delete(key);
}

/** Notes a record read during the census; followed records need no entry (they are known). */
export function learnFrom(
	births: NewRecordMemory,
	key: string,
	record: TrackedRecord,
	ctx: PollContext,
	followed: boolean,
): void {
	const census = births.learning as Learning;
	const created = time(record.created_at);
	if (!Number.isFinite(created)) return;
	census.newest = Math.max(census.newest, created);
	// Labelled by a coarse bound of its own time, so the window can be trimmed as it moves.
	const bucket = ctx.lookBackMs / 4;
	if (created > censusFloor(census, ctx) && !followed)
		births.recent.set(key, Math.ceil(created / bucket) * bucket);
}

const SAMPLED =
	'the service reorders its social list on every request and it is too long to read in one poll: it is sampled only when its count grows';

/**
 * Reads on from where the census stopped; ends it when the whole list has been read. Says whether
 * it is still learning (false: a list that can only be sampled, with no birth to look for).
 */
export async function learn(
	births: NewRecordMemory,
	walker: Walker,
	first: ListResult,
	count: number,
	ctx: PollContext,
): Promise<boolean> {
	const census = births.learning as Learning;
	const budget = ctx.budgetLeft;
	// Reordered on every request and too long for this poll's requests: it can only be sampled.
	const onlySampled = () => walker.unstable && pageCap(count) > budget;
	const born = () => count - census.count - (births.reported.size + births.reportedFollowed.count);
	if (onlySampled() && born() <= 0) return false;
	let page = walker.unstable ? 2 : census.page;
	let passEnded = !first.hasMore;
	while (!walker.all && !passEnded) {
		const reply = await walker.page(page);
		if (!reply) break;
		if (reply.hasMore && reply.items.length > 0) page++;
		else if (walker.unstable) page = 2;
		else passEnded = true;
	}
	trimKnown(births, censusFloor(census, ctx));
	if (walker.all || passEnded) {
		births.newestCreated = Math.min(census.newest, ctx.now);
		births.count = census.count;
		// Records born meanwhile and not found: a writer's clock behind made them look older.
		births.uncertain = Math.max(0, born());
		births.learning = undefined;
		return false;
	}
	census.page = walker.unstable ? 2 : page;
	ctx.notes.add(
		onlySampled()
			? SAMPLED
			: 'still reading the whole social list once, to learn which records are new',
	);
	return true;
}
