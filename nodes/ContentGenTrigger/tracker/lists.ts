/** Reading social lists, which have no sort and no promised order. */
import { keyOf } from './state/keys';
import { type PollContext } from './context';
import { PAGE_SIZE, time, type ListResult, type TrackedRecord } from './requests';

/** Lists longer than this are not followed one by one (state and requests would not scale). */
export const FOLLOW_MAX = 6000;

interface WholeRead {
	total: number;
	/** Every member was read. */
	complete: boolean;
	/** Too long to follow: only its first page was read. */
	oversized: boolean;
}

/**
 * Pages a list of `total` records may take to read whole: ceil(total / 100) when its order
 * holds between requests; one reshuffled on every request needs more (each page is then a
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

/** Every member of one status list, whatever order the pages come in (none when oversized). */
export async function readWhole(
	status: string,
	into: Map<string, TrackedRecord>,
	first: ListResult,
	ctx: PollContext,
): Promise<WholeRead> {
	const members = new Set<string>();
	let result = first;
	for (let read = 1; ; read++) {
		const total = result.total;
		const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
		if (total > FOLLOW_MAX) return { total, complete: false, oversized: true };
		for (const record of result.items) {
			const key = keep(into, record);
			if (key) members.add(key);
		}
		if (members.size >= total || result.items.length === 0)
			return { total, complete: members.size >= total, oversized: false };
		if (read >= pageCap(total)) return { total, complete: false, oversized: false };
		const page = (read % pages) + 1;
		result = await ctx.social(page, status);
	}
}

/**
 * Optional reads of the whole list within the poll's request budget, noting every record met: all
 * of them met means every record there is was seen; pages that repeat more records than were
 * added meanwhile mean an order that moves between requests.
 */
export class Walker {
	/** Every record met this poll, in the whole list or a followed one. */
	readonly everyone = new Set<string>();
	/** Pages of the whole list read this poll. */
	readonly pages = new Set<number>();
	private readonly paged = new Set<string>();
	private repeated = 0;

	constructor(
		private readonly ctx: PollContext,
		private readonly count: number,
		public unstable: boolean,
		private readonly visit: (key: string, record: TrackedRecord) => void,
	) {}

	/** Every record of the list was met in this poll. */
	get all(): boolean {
		return this.everyone.size >= this.count;
	}

	take(page: ListResult): void {
		for (const record of page.items) {
			const key = keyOf(record.id);
			if (!key) continue;
			if (this.paged.has(key)) this.repeated++;
			this.paged.add(key);
			this.everyone.add(key);
			this.visit(key, record);
		}
		if (this.repeated > Math.max(0, page.total - this.count)) this.unstable = true;
	}

	/** A page of the whole list, taken; undefined when the poll has no requests or time left. */
	async page(page: number): Promise<ListResult | undefined> {
		const reply = await this.ctx.searchPage(page);
		if (reply) {
			this.pages.add(page);
			this.take(reply);
		}
		return reply;
	}

	/** One record (null when gone); undefined when the poll has no requests or time left. */
	async record(id: string): Promise<TrackedRecord | null | undefined> {
		return await this.ctx.searchRecord(id);
	}
}
