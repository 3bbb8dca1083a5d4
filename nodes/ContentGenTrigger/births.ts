/**
 * New social records ("births") and followed records to find again, in a list without order.
 *
 * The list's `total` says how many records were born since the baseline (none is ever deleted).
 * A birth is a record created after the watermark minus the look-back that the trigger does not
 * know: it knows every record created within the look-back of the watermark (`known`), so a
 * writer's clock behind, or a late commit, cannot pass an old record off as new. The watermark is
 * learnt once, at activation, by reading the whole list (the census: within one poll when it
 * fits the request budget, else page by page over the next polls, which needs an order that
 * holds between requests); it then moves with the births found, never ahead of the host's clock.
 *
 * Births that skipped the followed lists are searched for on page 1 (read every poll for the
 * count; when the list is newest first they are all there, and the pages below are read only
 * while they may hold more), then page by page from where the last search stopped, within the
 * poll's request budget: the trigger is then late, and says so, never silent. Followed records
 * that left the followed lists are fetched one by one while they are few and their ids whole,
 * else met in the same search.
 */
import { Book, FULL_KEY, keyOf } from './ids';
import { keep } from './lists';
import type { BirthMemory, SocialMemory } from './state';
import {
	isOutOfTime,
	PAGE_SIZE,
	time,
	type ListResult,
	type PollContext,
	type Reads,
	type TrackedRecord,
	type TrackerReply,
} from './types';

/** Whole passes over the list without finding what is missing, before giving up on it. */
const MAX_PASSES = 2;

export class Search {
	readonly births: BirthMemory;
	scan: number;
	passes: number;
	unordered: boolean;
	unstable: boolean;
	/** Followed records met this poll outside the followed lists. */
	readonly met: Book<TrackedRecord>;
	readonly newRecords: TrackedRecord[] = [];
	private readonly gone: Book<true>;
	/** Newest created_at among the records learnt this poll: the label of their group. */
	private newest = -Infinity;
	/** Every record met this poll (all of them: nothing else exists), and those met in whole-list pages. */
	private readonly everyone = new Set<string>();
	private readonly paged = new Set<string>();
	private repeated = 0;

	constructor(
		previous: SocialMemory,
		private readonly ctx: PollContext,
		private readonly count: number,
		private readonly followed: (key: string) => boolean,
		readonly targets: Book<string>,
	) {
		this.births = { ...previous.births };
		this.met = new Book(targets.width);
		this.gone = new Book(targets.width);
		this.scan = previous.scan;
		this.passes = previous.passes;
		this.unordered = previous.unordered;
		this.unstable = previous.unstable;
		const accounted = this.births.count + this.births.found.size;
		if (count < accounted && !this.births.census) {
			ctx.notes.push('social records disappeared from the list');
			this.births.count = Math.max(0, count - this.births.found.size);
		}
	}

	get learning(): boolean {
		return this.births.census !== undefined;
	}

	get expected(): number {
		return Math.max(0, this.count - this.births.count - this.births.found.size);
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

	/** During the census: records created above this are the ones to know. */
	private get censusFloor(): number {
		const census = this.births.census!;
		return Math.min(census.newest, this.ctx.now) - this.ctx.lookBackMs;
	}

	private trim(floor: number): void {
		for (const [key, label] of [...this.births.known])
			if (label <= floor) this.births.known.delete(key);
	}

	/** Takes a record created after the threshold that nobody knows as a birth; true if it was one. */
	claim(key: string, record: TrackedRecord): boolean {
		const created = time(record.created_at);
		if (this.learning || !(created > this.threshold)) return false;
		if (this.followed(key) || this.targets.has(key)) return false;
		if (this.births.known.has(key) || this.births.found.has(key)) return false;
		this.births.found.set(key, NaN);
		this.newest = Math.max(this.newest, created);
		this.newRecords.push(record);
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
		this.everyone.add(key);
		if (this.learning) this.learnFrom(key, record);
	}

	private learnFrom(key: string, record: TrackedRecord): void {
		const created = time(record.created_at);
		if (!Number.isFinite(created)) return;
		const census = this.births.census!;
		census.newest = Math.max(census.newest, created);
		// Labelled by a coarse bound of its own time, so the window can be trimmed as it moves.
		const bucket = this.ctx.lookBackMs / 4;
		const recent = created > this.censusFloor && !this.followed(key);
		if (recent) this.births.known.set(key, Math.ceil(created / bucket) * bucket);
	}

	/** A page of the whole list. */
	private take(page: ListResult): void {
		for (const record of page.items) {
			const key = keyOf(record.id);
			if (!key) continue;
			if (this.paged.has(key)) this.repeated++;
			this.paged.add(key);
			this.everyone.add(key);
			if (this.learning) this.learnFrom(key, record);
			else if (this.targets.has(key) && !this.met.has(key)) {
				keep(this.met, record);
				this.passes = 0;
			} else this.claim(key, record);
		}
		// In an order that holds, pages overlap only by the records inserted meanwhile.
		if (this.repeated > Math.max(0, page.total - this.count)) this.unstable = true;
	}

	private get everyoneMet(): boolean {
		return this.everyone.size >= this.count;
	}

	private *read(request: { page: number } | { id: string }): Reads<TrackerReply | undefined> {
		if (this.ctx.budget <= 0) return undefined;
		this.ctx.budget--;
		const reply =
			'id' in request
				? yield { kind: 'socialRecord', id: request.id, optional: true }
				: yield { kind: 'socialList', page: request.page, limit: PAGE_SIZE, optional: true };
		if (isOutOfTime(reply)) {
			this.ctx.budget = 0;
			return undefined;
		}
		return reply;
	}

	*run(first: ListResult): Reads<void> {
		this.take(first);
		const times = first.items.map((r) => time(r.created_at));
		if (times.some((t, i) => i > 0 && !(times[i - 1] >= t))) this.unordered = true;
		// Newest first, as far as page 1 shows (it shows nothing when all its times are equal).
		const newestFirst = !this.unordered && new Set(times).size > 1;
		if (this.learning) yield* this.learn(first);
		if (this.learning) return;
		yield* this.fetchTargets();
		yield* this.sweep(newestFirst);
	}

	/** Closes the poll: labels what was learnt, then settles the births (see settle). */
	finish(): void {
		// Entries learnt this poll belong to its group: created at or before its newest record.
		for (const book of [this.births.known, this.births.found]) {
			for (const [key, value] of [...book]) if (Number.isNaN(value)) book.set(key, this.newest);
		}
		if (!this.learning) this.settle();
	}

	/** The census: the whole list once, for the newest record and everything within the look-back. */
	private *learn(first: ListResult): Reads<void> {
		const census = this.births.census!;
		// A read that must continue at the next poll starts where it stopped, unless the order moves.
		let page = this.unstable ? 2 : census.page;
		let passEnded = !first.hasMore;
		while (!this.everyoneMet && !passEnded) {
			const reply = (yield* this.read({ page })) as ListResult | undefined;
			if (!reply) break;
			this.take(reply);
			if (reply.hasMore && reply.items.length > 0) page++;
			else if (this.unstable) page = 2;
			// Past the last page of an order that held: every record was read once (insertions only
			// push records further along, never back past the pages already read).
			else passEnded = true;
		}
		if (this.everyoneMet || passEnded) return this.endCensus();
		census.page = this.unstable ? 2 : page;
		this.trim(this.censusFloor);
		this.ctx.notes.push('still reading the whole social list once, to learn which records are new');
	}

	private endCensus(): void {
		const census = this.births.census!;
		this.trim(this.censusFloor);
		this.births.watermark = Math.min(census.newest, this.ctx.now);
		this.births.count = census.count;
		this.births.slack = Math.max(0, this.count - census.count);
		this.births.census = undefined;
	}

	/** One request each, while cheaper than searching the list for them (whole ids only). */
	private *fetchTargets(): Reads<void> {
		const left = [...this.targets]
			.filter(([key]) => !this.met.has(key) && key.length >= FULL_KEY)
			.map(([key]) => key);
		const pages = Math.ceil(this.count / PAGE_SIZE);
		if (left.length === 0 || left.length > pages) return;
		for (const key of left) {
			const reply = yield* this.read({ id: this.targets.idOf(key) as string });
			if (reply === undefined) return;
			if (reply === null) this.gone.set(key, true);
			else keep(this.met, reply as TrackedRecord);
		}
	}

	/**
	 * Page by page from where the last search stopped, while something is missing. A pass ends at
	 * the last page; when the list is newest first and only births are missing, it ends as soon
	 * as the pages are older than any birth can be.
	 */
	private *sweep(newestFirst: boolean): Reads<void> {
		while ((this.expected > 0 || this.missing > 0) && this.passes < this.passLimit) {
			// Every record met in this poll: whatever is still missing is not in the list.
			if (this.everyoneMet) {
				this.passes = this.passLimit;
				break;
			}
			const reply = (yield* this.read({ page: this.scan })) as ListResult | undefined;
			if (!reply) return;
			this.take(reply);
			const oldest = reply.items[reply.items.length - 1];
			const deepEnough =
				newestFirst && this.missing === 0 && !(time(oldest?.created_at) > this.threshold);
			if (reply.hasMore && reply.items.length > 0 && !deepEnough) this.scan++;
			else {
				this.scan = 2;
				this.passes++;
			}
		}
	}

	/** Gives up on what whole searches did not find, and moves the baseline once every birth is. */
	private settle(): void {
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
			let newest = this.births.watermark;
			for (const [key, created] of this.births.found) {
				// A followed record cannot pass for new; it is remembered when it stops being followed.
				if (!this.followed(key)) this.births.known.set(key, created);
				newest = Math.max(newest, Math.min(created, this.ctx.now));
			}
			this.births.count += this.births.found.size;
			this.births.found = new Book<number>(this.births.known.width);
			this.births.watermark = newest;
			this.births.slack = 0;
			if (this.missing === 0) {
				// Nothing left to find: the next search starts at the top, where new records show first.
				this.passes = 0;
				this.scan = 2;
			}
		}
		this.trim(this.threshold);
		if (this.expected > this.births.slack) {
			this.ctx.notes.push(`${this.expected} new social record(s) still to find`);
		} else if (this.expected > 0) {
			this.ctx.notes.push(
				`checking ${this.expected} social record(s) created while it was learning the account`,
			);
		}
	}

	/** Followed records gone for good (404, or not in the list), to stop following. */
	isGone(key: string): boolean {
		return this.gone.has(key);
	}
}
