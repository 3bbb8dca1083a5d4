/**
 * New social records, in a list without order. The list's `total` says how many records were
 * created since `count` was taken. A new record is one created after newestCreated minus the
 * look-back that the trigger does not remember: it remembers every record created within the
 * look-back of newestCreated (`recent`), so a writer's clock behind, or a late commit, cannot pass
 * an old record off as new. newestCreated is learnt at activation (below; a record created after
 * activation is new even then) and moves with the new records found, never ahead of the
 * host's clock. A count that falls (records lost) is not trusted: a whole pass looks for the new
 * records the loss hid, and so does a followed record found gone (./followed).
 */
import type { PollRun } from '../poll-run';
import { time, type ListResult, type TrackedRecord } from '../reader';
import { CAPS, put, size, trim, type Learning, type NewRecordMemory } from '../state/memory';
import type { FindAgain } from './followed';
import { pageCap, type WholeList } from './whole-list';

const TOO_MANY = 'too many new social records at once: some may go unreported';

export class NewRecords {
	readonly memory: NewRecordMemory;
	/** The new records taken in this poll, and their keys. */
	readonly taken: TrackedRecord[] = [];
	readonly takenKeys = new Set<string>();
	/** The count fell in this poll (records were lost), and `count` with it. */
	readonly countFell: boolean;
	/** A loss first seen in this poll: the search starts its passes again. */
	readonly newLoss: boolean;
	/** Learning, and reading for it in this poll (a list only sampled is idle between new records). */
	readingToLearn = false;
	/** Newest created_at among the records taken or kept in this poll: the bound of their group. */
	private newest = -Infinity;

	constructor(
		previous: NewRecordMemory,
		private readonly ctx: PollRun,
		/** The whole list's total now. */
		private readonly total: number,
		private readonly activating: boolean,
		/** Newest created_at on the page that gave `total`: those records existed at the count. */
		private readonly countedNewest: number,
		private readonly isFollowed: (key: string) => boolean,
		private readonly findAgain: FindAgain,
	) {
		this.memory = { ...previous };
		this.countFell = total < this.memory.count + this.reported && !this.memory.learning;
		this.newLoss = this.countFell && !this.memory.hiddenByLoss;
		if (this.countFell) {
			// A loss can hide new records of the same interval: the count alone cannot be trusted.
			this.memory.count = Math.max(0, total - this.reported);
			this.memory.hiddenByLoss = true;
		}
		if (this.memory.hiddenByLoss)
			ctx.notes.add('social records disappeared from the list: searching it for new ones');
	}

	get learning(): boolean {
		return this.memory.learning !== undefined;
	}

	/**
	 * Created after activation (the first poll's start): new, even while the account is being
	 * learnt, also when met by that first poll's own reading of the list. The first poll judges by
	 * n8n's clock and by the newest record of the page it counted on, whichever is later, so a
	 * service whose clock runs ahead does not make records that existed at the count look new.
	 */
	private createdSinceActivation(created: number): boolean {
		const since = this.activating
			? Math.max(this.ctx.startedAt, this.countedNewest)
			: this.memory.learning?.since;
		return created > (since ?? Infinity);
	}

	/** New records reported since `count` was taken, keyed or not. */
	private get reported(): number {
		return size(this.memory.reported) + this.memory.reportedFollowed.count;
	}

	/** New records the count says exist and that were not found yet. */
	get expected(): number {
		return Math.max(0, this.total - this.memory.count - this.reported);
	}

	/** New records still to look for; none can be told apart while learning. */
	get toFind(): number {
		return this.learning ? 0 : this.expected;
	}

	/** Records created after this may be new; the recent ones above it are remembered. */
	get newAfter(): number {
		return this.memory.newestCreated - this.ctx.lookBackMs;
	}

	/**
	 * Takes a record created after newAfter that is not remembered as new, while the count says new
	 * records may be still to find (a record forgotten past a cap is not one).
	 */
	takeIfNew(key: string, record: TrackedRecord): boolean {
		const created = time(record.created_at);
		// The first poll reports nothing: what it meets created since is taken by the next ones.
		if (this.activating) return false;
		if (this.learning ? !this.createdSinceActivation(created) : !(created > this.newAfter))
			return false;
		// A followed record out of sight may be lost, and hide a new record from the count.
		const mayHide =
			!this.learning && (this.memory.hiddenByLoss === true || size(this.findAgain.toFind) > 0);
		if (this.expected === 0 && !mayHide) return false;
		if (this.isFollowed(key) || this.findAgain.toFind[key] !== undefined) return false;
		if (this.memory.recent[key] !== undefined || this.memory.reported[key] !== undefined)
			return false;
		this.remember(this.memory.reported, key);
		this.newest = Math.max(this.newest, created);
		this.taken.push(record);
		this.takenKeys.add(key);
		return true;
	}

	/** A record no longer followed stays remembered while it is recent. */
	keepIfRecent(key: string, record: TrackedRecord): void {
		const created = time(record.created_at);
		if (!(created > this.newAfter)) return;
		this.remember(this.memory.recent, key);
		this.newest = Math.max(this.newest, created);
	}

	/** An entry of this poll, bounded when it closes. */
	private remember(map: Record<string, number>, key: string): void {
		put(map, key, NaN);
	}

	/** While learning, every record met counts, but one created since activation (it is new). */
	learnFrom(key: string, record: TrackedRecord): void {
		if (!this.learning || this.createdSinceActivation(time(record.created_at))) return;
		learnRecord(this.memory, key, record, this.ctx, this.isFollowed(key));
	}

	/** A followed record found gone while the count held: a new record hides behind the loss. */
	lostWhileCountHeld(): void {
		if (!this.countFell) this.memory.count = Math.max(0, this.memory.count - 1);
	}

	/** Bounds what this poll took or kept by its newest record, and goes on learning if it is. */
	closePoll(): void {
		// A new record that is followed is in the followed map: it is only counted, not kept twice.
		let { count, newest } = this.memory.reportedFollowed;
		for (const [key, value] of Object.entries(this.memory.reported)) {
			if (!Number.isNaN(value) || !this.isFollowed(key)) continue;
			delete this.memory.reported[key];
			count++;
			newest = Math.max(newest, this.newest);
		}
		this.memory.reportedFollowed = { count, newest };
		// Entries of this poll belong to its group: created at or before its newest record.
		for (const map of [this.memory.recent, this.memory.reported]) {
			for (const [key, value] of Object.entries(map))
				if (Number.isNaN(value)) map[key] = this.newest;
			if (trim(map, CAPS.recent) > 0) this.ctx.notes.add(TOO_MANY);
		}
		const learning = this.memory.learning;
		if (!learning) return;
		// Activation's time by n8n's clock, or its newest record when the service's runs ahead.
		if (this.activating) learning.since = Math.max(learning.newest, this.ctx.startedAt);
		trimRecent(this.memory, learningFloor(learning, this.ctx));
	}

	/**
	 * After a poll that is not learning: gives up on what whole searches did not find (`gaveUp`),
	 * and once every new record is found, counts from here (`count`, newestCreated). Says whether
	 * it did.
	 */
	recount(gaveUp: boolean): boolean {
		const m = this.memory;
		// New records found beyond what the count said were hidden by a loss: `count` was lower.
		m.count = Math.min(m.count, Math.max(0, this.total - this.reported));
		if (this.expected > 0 && gaveUp) {
			const uncertain = Math.min(this.expected, m.uncertain);
			if (this.expected > uncertain) {
				this.ctx.notes.add(
					`gave up looking for ${this.expected - uncertain} new social record(s) after searching the whole list`,
				);
			}
			m.count += this.expected;
		}
		const allFound = this.expected === 0;
		if (allFound) {
			let newest = Math.max(m.newestCreated, Math.min(m.reportedFollowed.newest, this.ctx.now));
			for (const [key, created] of Object.entries(m.reported)) {
				// A followed record cannot pass for new; it is remembered when it stops being followed.
				if (!this.isFollowed(key)) put(m.recent, key, created);
				newest = Math.max(newest, Math.min(created, this.ctx.now));
			}
			if (trim(m.recent, CAPS.recent) > 0) this.ctx.notes.add(TOO_MANY);
			m.count += this.reported;
			m.reported = {};
			m.reportedFollowed = { count: 0, newest: 0 };
			// While a pass looks for what a loss hid, records older than those found may still be new.
			if (!m.hiddenByLoss) m.newestCreated = newest;
			m.uncertain = 0;
		}
		trimRecent(m, this.newAfter);
		if (this.expected > m.uncertain) {
			this.ctx.notes.add(`${this.expected} new social record(s) still to find`);
		} else if (this.expected > 0) {
			this.ctx.notes.add(
				`checking ${this.expected} social record(s) created while it was learning the account`,
			);
		}
		return allFound;
	}
}

// ----- learning the account -----

/*
 * After activation the trigger reads the whole social list once, for the
 * newest creation time (newestCreated) and every record created within the look-back below it
 * (`recent`), so that no existing record can later pass for a new one. Within one poll when the
 * request budget allows; else page by page over the next polls, which needs an order that holds
 * between requests (insertions only push records further along, never back past the pages already
 * read). A list reordered on every request must be read whole within one poll; when that takes
 * more requests than a poll has, it is only sampled, and only while its count says records were
 * created: each page is then a fresh sample, and a record created after activation is new wherever
 * it is met.
 */
/** Records created above this are the ones to remember. */
export function learningFloor(learning: Learning, ctx: PollRun): number {
	return Math.min(learning.newest, ctx.now) - ctx.lookBackMs;
}

export function trimRecent(memory: NewRecordMemory, floor: number): void {
	for (const [key, bound] of Object.entries(memory.recent))
		if (bound <= floor) delete memory.recent[key];
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
		put(memory.recent, key, Math.ceil(created / bucket) * bucket);
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
		count - learning.count - (size(memory.reported) + memory.reportedFollowed.count);
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
