/**
 * The whole social list as one poll reads it. The list has no sort and no promised order. Its pages
 * beyond the first are optional reads, within the poll's request budget; every record met is noted
 * (all of them met means every record there is was seen), and pages that repeat more records than
 * were added meanwhile show an order that moves between requests.
 */
import type { PollRun } from '../poll-run';
import { keyOf, PAGE_SIZE, time, type ListResult, type TrackedRecord } from '../reader';

/**
 * Pages a list of `total` records may take to read whole: ceil(total / 100) when its order
 * holds between requests; one reordered on every request needs more (each page is then a
 * random sample, and the last members take longest to meet).
 */
export function pageCap(total: number): number {
	const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
	return pages * (4 + 2 * Math.ceil(Math.log(total + 1)));
}

/** Keeps the newest version of each record met (a record can move between two reads). */
export function keep(
	into: {
		get(key: string): TrackedRecord | undefined;
		set(key: string, record: TrackedRecord): unknown;
	},
	record: TrackedRecord,
): string | undefined {
	const key = keyOf(record.id);
	if (!key) return undefined;
	const earlier = into.get(key);
	if (!earlier || !(time(earlier.updated_at) > time(record.updated_at))) into.set(key, record);
	return key;
}

export class WholeList {
	/** Every record met this poll, in the whole list or a followed one. */
	readonly met = new Set<string>();
	/** Pages of the whole list read this poll. */
	readonly pagesRead = new Set<number>();
	private readonly onPages = new Set<string>();
	private repeated = 0;

	constructor(
		private readonly ctx: PollRun,
		private readonly count: number,
		/** Its order moves between requests (found by an earlier poll, or by this one). */
		public reorders: boolean,
		private readonly visit: (key: string, record: TrackedRecord) => void,
	) {}

	/** Every record of the list was met in this poll. */
	get allMet(): boolean {
		return this.met.size >= this.count;
	}

	take(page: ListResult): void {
		for (const record of page.items) {
			const key = keyOf(record.id);
			if (!key) continue;
			if (this.onPages.has(key)) this.repeated++;
			this.onPages.add(key);
			this.met.add(key);
			this.visit(key, record);
		}
		if (this.repeated > Math.max(0, page.total - this.count)) this.reorders = true;
	}

	/** A page, taken; undefined when the poll has no requests or time left. */
	async page(page: number): Promise<ListResult | undefined> {
		const reply = await this.ctx.searchPage(page);
		if (reply) {
			this.pagesRead.add(page);
			this.take(reply);
		}
		return reply;
	}
}
