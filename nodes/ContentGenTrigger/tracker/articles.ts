/**
 * Articles: the list sorts by updated_at, newest first. A poll reads it from the top down to the
 * floor: the cursor (the newest stamp accepted, never ahead of the n8n host's clock) minus the
 * look-back, so a change stamped by a writer whose clock is behind, or committed late, is still
 * read. Records read again are recognised by their remembered status; records in the look-back
 * and every pending article (draft, queued) are always remembered.
 *
 *   requests per poll = max(1, ceil((changes since the last poll + changes within the
 *   look-back) / 100)), at most maxArticlePages; an idle poll is 1 request. A longer window is
 *   finished over the next polls from the list position where it stopped (changes only move
 *   records to the top, so nothing below that position is skipped).
 *
 * A changed record that is not remembered was created after the floor of the last complete
 * read (new), or was finished before the trigger last saw it. Finished articles changed before
 * activation are learnt from the rest of the list (./learn-articles), so a later move of theirs
 * has a known previous status. One still unknown (beyond what was learnt, or forgotten past
 * `CAPS.finished`) is reported only when it moves back to pending: a move between finished
 * statuses cannot be told from an edit.
 */
import { ARTICLE_LIFECYCLE } from '../../shared/domain/statuses';
import type { Previous } from '../events';
import type { PollRun } from './poll-run';
import type { Change } from './items';
import { FINISHED_FULL, learnArticles, learnFrom } from './learn-articles';
import { keyOf, newest, time, type TrackedRecord } from './reader';
import { CAPS, put, trim, type ArticleMemory } from './state/memory';

const PENDING: readonly string[] = ARTICLE_LIFECYCLE.pending;
/** The read at activation never stops part-way: it is what every later poll relies on. */
const ACTIVATION_PAGE_CAP = 500;

/** Every article the whole list showed in this poll (at-least-once delivery's repeats take theirs). */
type Met = Map<string, TrackedRecord> | undefined;

interface ArticlePoll {
	changes: Change[];
	memory: ArticleMemory;
	/** A window too long for this poll is still being read. */
	behind: boolean;
}

/**
 * `lastPoll`: host time of the last poll that completed; `met` keeps every article the list showed
 * (for ./repeats).
 */
export async function pollArticles(
	previous: ArticleMemory | undefined,
	lastPoll: number,
	ctx: PollRun,
	met?: Met,
): Promise<ArticlePoll> {
	if (!previous) return await activate(ctx, met);
	const read = await readChanges(previous, lastPoll, ctx, met);
	const memory = new Recorder({ ...previous, unread: read.unread }, ctx);
	// Whether a record is new is judged against the last read that reached its floor.
	const lowFloor = previous.unread ? previous.unread.floor : previous.floor;
	const { changes, active } = compare(read.window, memory, lowFloor);
	const cursor = Math.max(previous.cursor, Math.min(read.stamp, ctx.now));
	memory.state.cursor = cursor;
	memory.state.floor = Math.max(read.floor, cursor - ctx.lookBackMs);
	// A stamp ahead of the clock (a writer's fast clock) leaves the cursor at the clock, which may
	// itself be ahead of the service's: the look-back stays until the clock has passed that point.
	// Anything stamped after the cursor, an edit too, is new: the look-back stays open after it.
	if (
		(active || read.stamp > previous.cursor || read.stamp > ctx.now) &&
		Number.isFinite(ctx.startedAt)
	)
		memory.state.quietSince = ctx.startedAt;
	if (read.unread) ctx.notes.add('article changes are being read over several polls');
	// A poll that read one page learns; a busy one leaves it to a quieter poll.
	else if (read.pages <= 1) await learnArticles(memory.state, ctx, met);
	return { changes, memory: memory.close(), behind: read.unread !== undefined };
}

/**
 * The changes since the last poll: the list from the top down to the floor, then what is left of
 * a window too long for the last poll. `stamp`: the newest updated_at read from the top.
 */
async function readChanges(previous: ArticleMemory, lastPoll: number, ctx: PollRun, met: Met) {
	const limit = ctx.articlePageSize;
	const unread = previous.unread;
	const window = new Map<string, TrackedRecord>();
	const same = (key: string, record: TrackedRecord) => remembered(previous, key) === record.status;
	const floor = floorOf(previous, lastPoll, ctx);
	const belowFloor = (record: TrackedRecord) => time(record.updated_at) < floor;
	// While a part is unread, the top is read only down to what the last poll already handled.
	const handled = (record: TrackedRecord, key: string | undefined) =>
		belowFloor(record) ||
		(!(time(record.updated_at) > previous.cursor) && key !== undefined && same(key, record));
	const stop = unread ? handled : belowFloor;
	const top = await readWindow(ctx, met, 1, stop, ctx.maxArticlePages, window, same);
	const stamp = Math.max(0, newest([...window.values()], 'updated_at'));
	let next: ArticleMemory['unread'];
	let rest: WindowRead | undefined;
	if (!top.complete && !top.unchanged) {
		next = { position: top.lastPage * limit, floor: unread ? unread.floor : previous.floor };
	} else if (unread) {
		// Records below that position then are below it now (changes only go to the top).
		const first = Math.floor(unread.position / limit) + 1;
		const pagesLeft = ctx.maxArticlePages - top.pages;
		const below = (record: TrackedRecord) => time(record.updated_at) < unread.floor;
		rest = await readWindow(ctx, met, first, below, pagesLeft, window);
		if (!rest.complete) next = { position: rest.lastPage * limit, floor: unread.floor };
	} else if (!top.complete) {
		// A look-back longer than the page budget, with nothing new where it stopped: shortened.
		ctx.notes.add('more article changes within the look-back than one poll reads again');
	}
	return { window, floor, unread: next, stamp, pages: top.pages + (rest?.pages ?? 0) };
}

/** Each record read, oldest change first, against its remembered status; remembers it as it is. */
function compare(window: Map<string, TrackedRecord>, memory: Recorder, lowFloor: number) {
	const changes: Change[] = [];
	let active = false;
	const ordered = [...window].sort(
		([, a], [, b]) => (time(a.updated_at) || 0) - (time(b.updated_at) || 0),
	);
	for (const [key, record] of ordered) {
		const was = remembered(memory.state, key);
		memory.remember(key, record.status);
		// Same status: an edit, or a change already reported.
		if (was === record.status) continue;
		active = true;
		let previous: Previous;
		if (was !== undefined) previous = was;
		else if (!(time(record.created_at) < lowFloor)) previous = undefined;
		// Existed, finished, and not remembered: only a move back to pending is a certain change.
		else if (PENDING.includes(record.status)) previous = null;
		else continue;
		changes.push({ previous, record });
	}
	return { changes, active };
}

/** The first poll: the cursor, what is within the look-back below it, and every pending article. */
async function activate(ctx: PollRun, met: Met): Promise<ArticlePoll> {
	const window = new Map<string, TrackedRecord>();
	// The newest page sets the cursor; everything within the look-back below it must be remembered.
	const top = await ctx.articles(1, ctx.articlePageSize, { met });
	const stamp = Math.max(0, newest(top.items, 'updated_at'));
	const cursor = Math.min(stamp, ctx.now);
	const floor = cursor - ctx.lookBackMs;
	const below = (record: TrackedRecord) => time(record.updated_at) < floor;
	const rest = top.hasMore
		? await readWindow(ctx, met, 2, below, ACTIVATION_PAGE_CAP, window)
		: undefined;
	for (const record of top.items) {
		const key = keyOf(record.id);
		if (key && !(time(record.updated_at) < floor) && !window.has(key)) window.set(key, record);
	}
	if (rest && !rest.complete)
		ctx.notes.add('articles changed within the look-back could not all be read');
	const memory = new Recorder(
		{
			cursor,
			floor,
			quietSince: Number.isFinite(ctx.startedAt) ? ctx.startedAt : 0,
			pending: {},
			finished: {},
			// Page 1 is learnt here; the rest of the list at this poll and the next ones.
			learn: top.hasMore ? 2 : 0,
		},
		ctx,
	);
	for (const [key, record] of window) memory.remember(key, record.status);
	learnFrom(memory.state, top.items);
	for (const status of PENDING) {
		for (const record of await readStatus(status, ctx)) {
			memory.remember(keyOf(record.id) as string, record.status);
		}
	}
	await learnArticles(memory.state, ctx, met);
	return { changes: [], memory: memory.close(), behind: false };
}

/** The status remembered for an article, if any. */
function remembered(state: ArticleMemory, key: string): string | undefined {
	return state.pending[key] ?? state.finished[key];
}

/** Writes what a poll read into the article memory, the latest change last. */
class Recorder {
	constructor(
		readonly state: ArticleMemory,
		private readonly ctx: PollRun,
	) {}

	remember(key: string, status: string): void {
		const pending = PENDING.includes(status);
		delete this.state[pending ? 'finished' : 'pending'][key];
		put(this.state[pending ? 'pending' : 'finished'], key, status);
	}

	/** Each map held to its cap, saying what went. */
	close(): ArticleMemory {
		if (trim(this.state.pending, CAPS.pending) > 0)
			this.ctx.notes.add(
				`more than ${CAPS.pending} articles in flight: the oldest are no longer followed`,
			);
		if (trim(this.state.finished, CAPS.finished) > 0) this.ctx.notes.add(FINISHED_FULL);
		return this.state;
	}
}

interface WindowRead {
	/** Reached where it was to stop (or the end of the list) within the page budget. */
	complete: boolean;
	lastPage: number;
	pages: number;
	/** Its last page held only records already remembered in their current status. */
	unchanged: boolean;
}

/** Reads the newest-first list from `firstPage` until `stop` holds or the page budget ends. */
async function readWindow(
	ctx: PollRun,
	met: Met,
	firstPage: number,
	stop: (record: TrackedRecord, key: string | undefined) => boolean,
	maxPages: number,
	window: Map<string, TrackedRecord>,
	same: (key: string, record: TrackedRecord) => boolean = () => false,
): Promise<WindowRead> {
	let page = firstPage;
	let unchanged = false;
	for (let used = 1; used <= maxPages; used++, page++) {
		const result = await ctx.articles(page, ctx.articlePageSize, { met });
		let stopped = false;
		unchanged = true;
		for (const record of result.items) {
			const key = keyOf(record.id);
			if (stop(record, key)) {
				stopped = true;
				break;
			}
			if (key && !same(key, record)) unchanged = false;
			if (key && !window.has(key)) window.set(key, record);
		}
		if (stopped || !result.hasMore || result.items.length === 0)
			return { complete: true, lastPage: page, pages: used, unchanged };
	}
	return { complete: false, lastPage: page - 1, pages: maxPages, unchanged };
}

/**
 * Where the next read stops. Changes not read by the last poll are stamped at most the look-back
 * behind the cursor. Once that poll came a whole look-back after the last change it had seen
 * (host time elapsed, which no clock offset skews), they are stamped after the cursor.
 */
function floorOf(memory: ArticleMemory, lastPoll: number, ctx: PollRun): number {
	const quiet = lastPoll - memory.quietSince >= ctx.lookBackMs;
	return Math.max(memory.floor, memory.cursor - ctx.lookBackMs, quiet ? memory.cursor : -Infinity);
}

/** Every record of one status, read again when the list changed while it was being read. */
async function readStatus(status: string, ctx: PollRun): Promise<TrackedRecord[]> {
	const records = new Map<string, TrackedRecord>();
	for (let attempt = 0; attempt < 3; attempt++) {
		let first: number | undefined;
		let last = 0;
		for (let page = 1; page <= ACTIVATION_PAGE_CAP; page++) {
			const result = await ctx.articles(page, ctx.articlePageSize, { status });
			first ??= result.total;
			last = result.total;
			for (const record of result.items) {
				const key = keyOf(record.id);
				if (key) records.set(key, record);
			}
			if (!result.hasMore || result.items.length === 0) break;
		}
		if (first === last) break;
	}
	return [...records.values()];
}
