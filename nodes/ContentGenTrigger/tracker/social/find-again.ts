/**
 * Followed social records out of sight, found again: gone from a followed list read whole, or in
 * a status no list filter accepts (`publishing`). Fetched one by one while few and their ids whole,
 * else met in the search of the whole list (./search); what whole searches do not meet is no
 * longer followed.
 */
import type { Notes, PollRun } from '../poll-run';
import type { TrackedRecord } from '../reader';
import { FULL_KEY, RecordMap } from '../state/keys';
import { keep } from './whole-list';

export class FindAgain {
	/** Followed records out of sight in this poll: key -> the status code remembered. */
	readonly toFind: RecordMap<string>;
	/** Those met in this poll, as they are now. */
	readonly met: RecordMap<TrackedRecord>;
	/** Those gone for good (404, or not in the list): no longer followed. */
	readonly gone: RecordMap<true>;

	constructor(keyLength: number) {
		this.toFind = new RecordMap(keyLength);
		this.met = new RecordMap(keyLength);
		this.gone = new RecordMap(keyLength);
	}

	/** Out of sight and not met yet. */
	wants(key: string): boolean {
		return this.toFind.has(key) && !this.met.has(key);
	}

	meet(record: TrackedRecord): void {
		keep(this.met, record);
	}

	/** How many are still to find: neither met nor gone. */
	get left(): number {
		return [...this.toFind].filter(([key]) => !this.met.has(key) && !this.gone.has(key)).length;
	}

	/**
	 * One request each, while fewer than the `searchCost` pages that would meet them too (whole
	 * ids only). `lost` is told of each one gone.
	 */
	async fetchById(ctx: PollRun, searchCost: number, lost: () => void): Promise<void> {
		const left = [...this.toFind]
			.filter(([key]) => !this.met.has(key) && key.length >= FULL_KEY)
			.map(([key]) => key);
		if (left.length === 0 || left.length >= searchCost) return;
		for (const key of left) {
			const reply = await ctx.searchRecord(this.toFind.idOf(key) as string);
			if (reply === undefined) return;
			if (reply === null) {
				this.gone.set(key, true);
				lost();
			} else this.meet(reply);
		}
	}

	/** After whole searches that did not meet them: the rest are no longer followed. */
	giveUp(notes: Notes): void {
		const left = this.left;
		if (left === 0) return;
		notes.add(`stopped following ${left} social record(s) no longer in the list`);
		for (const [key] of this.toFind) if (!this.met.has(key)) this.gone.set(key, true);
	}
}
