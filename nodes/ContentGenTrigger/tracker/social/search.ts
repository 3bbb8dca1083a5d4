/**
 * The search of the whole social list, for what a poll may have to look for there: new records
 * that skipped the followed lists (./new-records) and followed records out of sight
 * (./followed: FindAgain). New records are all on page 1 when the list is newest first; otherwise the
 * search goes page by page from where the last one stopped, within the poll's request budget:
 * late, and saying so, never silent. What whole passes do not find is given up.
 */
import type { PollRun } from '../poll-run';
import { PAGE_SIZE, time, type ListResult, type TrackedRecord } from '../reader';
import type { SocialMemory } from '../state/memory';
import type { FindAgain } from './followed';
import { readToLearn, type NewRecords } from './new-records';
import { WholeList } from './whole-list';

/** Whole passes over the list that find nothing, before what is looked for is given up. */
const MAX_PASSES = 2;

export class Search {
	/** Next page of the whole list to read. */
	page: number;
	/** Whole passes in a row that found nothing. */
	passes: number;
	/** The list proved not to be newest first: page 1 does not show every new record. */
	notNewestFirst: boolean;
	readonly list: WholeList;
	/** The first of the last pages this poll read back from the end. */
	private readBackTo = Infinity;

	constructor(
		previous: SocialMemory,
		private readonly ctx: PollRun,
		private readonly total: number,
		private readonly newRecords: NewRecords,
		private readonly findAgain: FindAgain,
	) {
		this.page = previous.searchPage;
		this.passes = newRecords.newLoss ? 0 : previous.passes;
		this.notNewestFirst = previous.notNewestFirst;
		this.list = new WholeList(ctx, total, previous.reorders, (key, record) =>
			this.meet(key, record),
		);
	}

	get reorders(): boolean {
		return this.list.reorders;
	}

	/** Passes before giving up; a list reordered on every request is sampled, so it takes more. */
	private get passLimit(): number {
		return MAX_PASSES * (this.reorders ? 3 + Math.ceil(Math.log(this.total + 1)) : 1);
	}

	/** Takes a record as new (./new-records); a find starts the count of passes again. */
	takeIfNew(key: string, record: TrackedRecord): boolean {
		if (!this.newRecords.takeIfNew(key, record)) return false;
		this.passes = 0;
		return true;
	}

	/** A record of a followed list: it exists, and while learning it counts like any other. */
	sawListed(key: string, record: TrackedRecord): void {
		this.list.met.add(key);
		this.newRecords.learnFrom(key, record);
	}

	/** A record of the whole list. */
	private meet(key: string, record: TrackedRecord): void {
		this.newRecords.learnFrom(key, record);
		if (this.findAgain.wants(key)) {
			this.findAgain.meet(record);
			this.passes = 0;
		} else this.takeIfNew(key, record);
	}

	/** Page 1 (read already), learning if the trigger is, then what is out of sight, then pages. */
	async run(first: ListResult): Promise<void> {
		this.list.take(first);
		const times = first.items.map((r) => time(r.created_at));
		if (times.some((t, i) => i > 0 && !(times[i - 1] >= t))) this.notNewestFirst = true;
		// Newest first, as far as page 1 shows (it shows nothing when all its times are equal).
		const newestFirst = !this.notNewestFirst && new Set(times).size > 1;
		if (this.newRecords.learning) {
			const memory = this.newRecords.memory;
			this.newRecords.readingToLearn = await readToLearn(
				memory,
				this.list,
				first,
				this.total,
				this.ctx,
			);
		}
		// Followed records out of sight are looked for even while learning.
		const pages = Math.ceil(this.total / PAGE_SIZE);
		// A record out of sight can be on any page, also one a search under way has passed: only a
		// whole pass is sure to meet it.
		const searchCost = pages;
		await this.findAgain.fetchById(this.ctx, searchCost, () =>
			this.newRecords.lostWhileCountHeld(),
		);
		if (!newestFirst) await this.readLastPages();
		await this.readPages(newestFirst);
	}

	/**
	 * A list in the order of time-ordered ids (a table read by its key) shows its new records on its
	 * last pages: while only new records are looked for, read from the end back while the pages go
	 * oldest first and are not older than any new record can be (1 request in a list of no order).
	 * The search page by page goes on with what that does not find, and ends its pass there.
	 */
	private async readLastPages(): Promise<void> {
		const onlyNew = () =>
			this.newRecords.toFind > 0 &&
			this.findAgain.left === 0 &&
			this.newRecords.memory.hiddenByLoss !== true;
		for (let page = Math.ceil(this.total / PAGE_SIZE); page >= 2 && onlyNew(); page--) {
			// Read already this poll (while learning the list): its records were taken then.
			if (!this.list.reorders && this.list.pagesRead.has(page)) return;
			const reply = await this.list.page(page);
			if (!reply) return;
			this.readBackTo = page;
			const times = reply.items.map((record) => time(record.created_at));
			const oldestFirst = times.every((t, i) => i === 0 || times[i - 1] <= t);
			if (!oldestFirst || !(times[0] > this.newRecords.newAfter)) return;
		}
	}

	/**
	 * Page by page from where the last search stopped, while something is looked for. A pass ends
	 * at the last page; when the list is newest first and only new records are looked for, it
	 * ends as soon as the pages are older than any new record can be.
	 */
	private async readPages(newestFirst: boolean): Promise<void> {
		const lookingFor = () =>
			this.newRecords.toFind > 0 ||
			this.findAgain.left > 0 ||
			this.newRecords.memory.hiddenByLoss === true;
		while (lookingFor() && this.passes < this.passLimit) {
			// Every record met in this poll: whatever is still looked for is not in the list.
			if (this.list.allMet) {
				this.passes = this.passLimit;
				this.newRecords.memory.hiddenByLoss = false;
				break;
			}
			// A page read again in the same poll shows the same records, unless the order moves; from
			// the pages read back from the end on, the pass is done.
			if (!this.reorders && this.list.pagesRead.has(this.page)) {
				if (this.page < this.readBackTo) break;
				this.page = 2;
				this.passes++;
				this.newRecords.memory.hiddenByLoss = false;
				continue;
			}
			const reply = await this.list.page(this.page);
			if (!reply) return;
			const oldest = reply.items[reply.items.length - 1];
			const olderThanNew =
				newestFirst &&
				this.findAgain.left === 0 &&
				!(time(oldest?.created_at) > this.newRecords.newAfter);
			if (reply.hasMore && reply.items.length > 0 && !olderThanNew) this.page++;
			else {
				this.page = 2;
				this.passes++;
				this.newRecords.memory.hiddenByLoss = false;
			}
		}
	}

	/** Closes the poll: new records are bounded and recounted, what whole passes missed given up. */
	finish(): void {
		this.newRecords.closePoll();
		if (!this.newRecords.learning) {
			const gaveUp = this.passes >= this.passLimit;
			if (gaveUp) this.findAgain.giveUp(this.ctx.notes);
			// Nothing left to find: the next search starts at the top, where new records show first.
			// A pass for what a loss hid goes on from where it stopped until it reaches the end.
			const passUnderWay = this.newRecords.memory.hiddenByLoss === true;
			if (this.newRecords.recount(gaveUp) && this.findAgain.left === 0 && !passUnderWay) {
				this.passes = 0;
				this.page = 2;
			}
		}
		const left = this.findAgain.left;
		if (left > 0)
			this.ctx.notes.add(`${left} followed social record(s) left their list, still to find`);
	}
}
