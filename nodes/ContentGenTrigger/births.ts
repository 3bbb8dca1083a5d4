/**
 * New social records ("births") and followed records to find again, in a list without order.
 * The list's `total` says how many records were born since the baseline. A birth is a record
 * created after the watermark minus the look-back that the trigger does not know: it knows every
 * record created within the look-back of the watermark (`known`), so a writer's clock behind, or
 * a late commit, cannot pass an old record off as new. The watermark is learnt at activation
 * (./census; a record created after activation is a birth even then) and moves with the births
 * found, never ahead of the host's clock. A count that falls (records lost) is not trusted: a
 * whole pass looks for births the loss hid, and so does a followed record found gone.
 * Births that skipped the followed lists are searched for on page 1 (all there when the list is
 * newest first), then page by page from where the last search stopped, within the poll's request
 * budget: late, and saying so, never silent. Followed records that left the followed lists are
 * fetched one by one while few and their ids whole, else met in the same search.
 */
import { censusFloor, learn, learnFrom, trimKnown } from './census';
import { Book, FULL_KEY } from './ids';
import { keep, Walker } from './lists';
import type { BirthMemory, SocialMemory } from './state';
import {
	PAGE_SIZE,
	time,
	type ListResult,
	type PollContext,
	type Reads,
	type TrackedRecord,
} from './types';

/** Whole passes over the list without finding what is missing, before giving up on it. */
const MAX_PASSES = 2;

export class Search {
	readonly births: BirthMemory;
	scan: number;
	passes: number;
	unordered: boolean;
	/** Followed records met this poll outside the followed lists. */
	readonly met: Book<TrackedRecord>;
	/** The births taken in this poll, and their keys. */
	readonly newRecords: TrackedRecord[] = [];
	readonly claimed = new Set<string>();
	/** The count fell in this poll, and the baseline with it. */
	private readonly lowered: boolean;
	/** Followed records gone for good (404, or not in the list), to stop following. */
	readonly gone: Book<true>;
	private readonly walker: Walker;
	/** Newest created_at among the records learnt this poll: the label of their group. */
	private newest = -Infinity;

	constructor(
		previous: SocialMemory,
		private readonly ctx: PollContext,
		private readonly count: number,
		private readonly seeding: boolean,
		private readonly followed: (key: string) => boolean,
		readonly targets: Book<string>,
	) {
		this.births = { ...previous.births };
		this.met = new Book(targets.width);
		this.gone = new Book(targets.width);
		this.scan = previous.scan;
		this.passes = previous.passes;
		this.unordered = previous.unordered;
		this.walker = new Walker(ctx, count, previous.unstable, (key, record) =>
			this.consider(key, record),
		);
		this.lowered = count < this.births.count + this.found && !this.births.census;
		if (this.lowered) {
			// A loss can hide births of the same interval: the count alone cannot be trusted.
			this.births.count = Math.max(0, count - this.found);
			if (!this.births.hunt) this.passes = 0;
			this.births.hunt = true;
		}
		if (this.births.hunt)
			ctx.notes.push('social records disappeared from the list: searching it for new ones');
	}

	get learning(): boolean {
		return this.births.census !== undefined;
	}
	/** Learning, and reading for it in this poll (a list only sampled is idle between births). */
	busy = false;
	/** Created after activation: new, even while the account is being learnt. */
	bornWhileLearning = (created: number): boolean =>
		!this.seeding && created > (this.births.census?.since ?? Infinity);

	get unstable(): boolean {
		return this.walker.unstable;
	}
	/** Births found since the baseline, keyed or not. */
	private get found(): number {
		return this.births.found.size + this.births.followedFound.count;
	}
	get expected(): number {
		return Math.max(0, this.count - this.births.count - this.found);
	}
	get missing(): number {
		return [...this.targets].filter(([key]) => !this.met.has(key) && !this.gone.has(key)).length;
	}

	/** Passes before giving up; a list reshuffled on every request is sampled, so it takes more. */
	private get passLimit(): number {
		return MAX_PASSES * (this.unstable ? 3 + Math.ceil(Math.log(this.count + 1)) : 1);
	}
	private get threshold(): number {
		return this.births.watermark - this.ctx.lookBackMs;
	}

	/**
	 * Takes a record created after the threshold that nobody knows as a birth, while the count
	 * says births may be still to find (a record forgotten to keep the state small is not one).
	 */
	claim(key: string, record: TrackedRecord): boolean {
		const created = time(record.created_at);
		if (this.learning ? !this.bornWhileLearning(created) : !(created > this.threshold))
			return false;
		// A followed record out of sight may be lost, and hide a birth from the count.
		const mayHide = !this.learning && (this.births.hunt || this.targets.size > 0);
		if (this.expected === 0 && !mayHide) return false;
		if (this.followed(key) || this.targets.has(key)) return false;
		if (this.births.known.has(key) || this.births.found.has(key)) return false;
		this.births.found.set(key, NaN);
		this.newest = Math.max(this.newest, created);
		this.newRecords.push(record);
		this.claimed.add(key);
		this.passes = 0;
		return true;
	}

	/** A record no longer followed stays known while it is recent. */
	remember(key: string, record: TrackedRecord): void {
		const created = time(record.created_at);
		if (!(created > this.threshold)) return;
		this.births.known.set(key, NaN);
		this.newest = Math.max(this.newest, created);
	}

	/** A record of a followed list: it exists, and during the census it counts like any other. */
	saw(key: string, record: TrackedRecord): void {
		this.walker.everyone.add(key);
		this.learnFrom(key, record);
	}

	private learnFrom(key: string, record: TrackedRecord): void {
		if (!this.learning || this.bornWhileLearning(time(record.created_at))) return;
		learnFrom(this.births, key, record, this.ctx, this.followed(key));
	}

	private consider(key: string, record: TrackedRecord): void {
		this.learnFrom(key, record);
		if (this.targets.has(key) && !this.met.has(key)) {
			keep(this.met, record);
			this.passes = 0;
		} else this.claim(key, record);
	}

	/** New records still to find; none can be told apart while the census is on. */
	private get toFind(): number {
		return this.learning ? 0 : this.expected;
	}

	*run(first: ListResult): Reads<void> {
		this.walker.take(first);
		const times = first.items.map((r) => time(r.created_at));
		if (times.some((t, i) => i > 0 && !(times[i - 1] >= t))) this.unordered = true;
		// Newest first, as far as page 1 shows (it shows nothing when all its times are equal).
		const newestFirst = !this.unordered && new Set(times).size > 1;
		if (this.learning)
			this.busy = yield* learn(this.births, this.walker, first, this.count, this.ctx);
		// Followed records out of sight are looked for even while the census goes on.
		yield* this.fetchTargets();
		yield* this.sweep(newestFirst);
	}

	/** Closes the poll: labels what was learnt, then settles the births (see settle). */
	finish(): void {
		// A birth that is followed is known by the followed books: it is only counted, not stored twice.
		let { count, newest } = this.births.followedFound;
		for (const [key, value] of [...this.births.found]) {
			if (!Number.isNaN(value) || !this.followed(key)) continue;
			this.births.found.delete(key);
			count++;
			newest = Math.max(newest, this.newest);
		}
		this.births.followedFound = { count, newest };
		// Entries learnt this poll belong to its group: created at or before its newest record.
		for (const book of [this.births.known, this.births.found]) {
			for (const [key, value] of [...book]) if (Number.isNaN(value)) book.set(key, this.newest);
		}
		const census = this.births.census;
		// Activation's time by n8n's clock, or its newest record when the service's runs ahead.
		if (census && this.seeding) census.since = Math.max(census.newest, this.ctx.startedAt);
		if (census) trimKnown(this.births, censusFloor(census, this.ctx));
		else this.settle();
		const left = this.missing;
		if (left > 0)
			this.ctx.notes.push(`${left} followed social record(s) left their list, still to find`);
	}

	/** One request each, while cheaper than the rest of the search (whole ids only). */
	private *fetchTargets(): Reads<void> {
		const left = [...this.targets]
			.filter(([key]) => !this.met.has(key) && key.length >= FULL_KEY)
			.map(([key]) => key);
		const pages = Math.ceil(this.count / PAGE_SIZE);
		// A search under way costs what is left of its pass; a new one, the whole list.
		const searchCost = this.scan > 2 ? pages - this.scan + 1 : pages;
		if (left.length === 0 || left.length >= searchCost) return;
		for (const key of left) {
			const reply = yield* this.walker.record(this.targets.idOf(key) as string);
			if (reply === undefined) return;
			if (reply === null) {
				this.gone.set(key, true);
				// Lost while the count held: a birth hides behind it, to be looked for.
				if (!this.lowered) this.births.count = Math.max(0, this.births.count - 1);
			} else keep(this.met, reply);
		}
	}

	/**
	 * Page by page from where the last search stopped, while something is missing. A pass ends at
	 * the last page; when the list is newest first and only births are missing, it ends as soon
	 * as the pages are older than any birth can be.
	 */
	private *sweep(newestFirst: boolean): Reads<void> {
		while (
			(this.toFind > 0 || this.missing > 0 || this.births.hunt) &&
			this.passes < this.passLimit
		) {
			// Every record met in this poll: whatever is still missing is not in the list.
			if (this.walker.all) {
				this.passes = this.passLimit;
				this.births.hunt = false;
				break;
			}
			// A page read again in the same poll shows the same records, unless the order moves.
			if (!this.unstable && this.walker.pages.has(this.scan)) break;
			const reply = yield* this.walker.page(this.scan);
			if (!reply) return;
			const oldest = reply.items[reply.items.length - 1];
			const deepEnough =
				newestFirst && this.missing === 0 && !(time(oldest?.created_at) > this.threshold);
			if (reply.hasMore && reply.items.length > 0 && !deepEnough) this.scan++;
			else {
				this.scan = 2;
				this.passes++;
				this.births.hunt = false;
			}
		}
	}

	/** Gives up on what whole searches did not find, and moves the baseline once every birth is. */
	private settle(): void {
		// Births found beyond what the count said were hidden by a loss: the baseline was lower.
		this.births.count = Math.min(this.births.count, Math.max(0, this.count - this.found));
		const gaveUp = this.passes >= this.passLimit;
		if (this.missing > 0 && gaveUp) {
			this.ctx.notes.push(
				`stopped following ${this.missing} social record(s) no longer in the list`,
			);
			for (const [key] of this.targets) if (!this.met.has(key)) this.gone.set(key, true);
		}
		if (this.expected > 0 && gaveUp) {
			const absorbed = Math.min(this.expected, this.births.slack);
			if (this.expected > absorbed) {
				this.ctx.notes.push(
					`gave up looking for ${this.expected - absorbed} new social record(s) after searching the whole list`,
				);
			}
			this.births.count += this.expected;
		}
		if (this.expected === 0) {
			const counted = this.births.followedFound;
			let newest = Math.max(this.births.watermark, Math.min(counted.newest, this.ctx.now));
			for (const [key, created] of this.births.found) {
				// A followed record cannot pass for new; it is remembered when it stops being followed.
				if (!this.followed(key)) this.births.known.set(key, created);
				newest = Math.max(newest, Math.min(created, this.ctx.now));
			}
			this.births.count += this.found;
			this.births.found = new Book<number>(this.births.known.width);
			this.births.followedFound = { count: 0, newest: -Infinity };
			this.births.watermark = newest;
			this.births.slack = 0;
			if (this.missing === 0) {
				// Nothing left to find: the next search starts at the top, where new records show first.
				this.passes = 0;
				this.scan = 2;
			}
		}
		trimKnown(this.births, this.threshold);
		if (this.expected > this.births.slack) {
			this.ctx.notes.push(`${this.expected} new social record(s) still to find`);
		} else if (this.expected > 0) {
			this.ctx.notes.push(
				`checking ${this.expected} social record(s) created while it was learning the account`,
			);
		}
	}
}
