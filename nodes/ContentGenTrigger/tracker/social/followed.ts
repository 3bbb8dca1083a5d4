/**
 * The followed lists: the social statuses whose records the trigger follows one by one (draft,
 * queued, generating; plus ready, completed and scheduled for the events that come after a
 * finish). Each poll reads page 1 of each; they are read whole only when a count or page 1 says
 * something moved among them. Lists of more than CAPS.followedList records are not followed.
 * A followed record that leaves them is found again (FindAgain, below).
 */
import { isSocialListStatus } from '../../../shared/domain/statuses';
import type { Notes, PollRun } from '../poll-run';
import { keyOf, PAGE_SIZE, type ListResult, type TrackedRecord } from '../reader';
import { CAPS, put, trim, type SocialMemory, type Statuses } from '../state/memory';
import { keep, pageCap } from './whole-list';

const FOLLOW_MAX = CAPS.followedList;

export interface FollowedRead {
	/** Every record met in the followed lists, as it is now. */
	listed: Map<string, TrackedRecord>;
	/** Lists read whole in this poll: a member of the last poll not met there has left. */
	readWhole: Set<string>;
	/** The lists whose members are all remembered after this poll. */
	complete: string[];
	/** Each complete list's count, by status. */
	counts: Record<string, number>;
	/** Lists too long to follow. */
	tooLong: Set<string>;
}

/** Page 1 of each followed list; all of them whole only when something moved among them. */
export async function readFollowed(
	statuses: readonly string[],
	previous: SocialMemory,
	ctx: PollRun,
): Promise<FollowedRead> {
	const listed = new Map<string, TrackedRecord>();
	const firsts = new Map<string, ListResult>();
	for (const status of statuses) {
		const first = await ctx.social(1, status);
		firsts.set(status, first);
		for (const record of first.items) keep(listed, record);
	}
	const tooLong = new Set(statuses.filter((s) => (firsts.get(s) as ListResult).total > FOLLOW_MAX));
	const result: FollowedRead = { listed, readWhole: new Set(), complete: [], counts: {}, tooLong };
	const partial: string[] = [];
	if (nothingMoved(statuses, firsts, previous)) {
		for (const status of statuses) {
			if (previous.completeLists.includes(status)) result.complete.push(status);
			result.counts[status] = (firsts.get(status) as ListResult).total;
		}
	} else {
		for (const status of statuses) {
			const read = await readList(status, listed, firsts.get(status) as ListResult, ctx);
			if (read.tooLong) continue;
			if (!read.complete) partial.push(status);
			else {
				result.readWhole.add(status);
				result.complete.push(status);
				result.counts[status] = read.total;
			}
		}
	}
	if (partial.length > 0) {
		// Its list order moved too much between requests: what left it is seen at a later poll.
		ctx.notes.add(`the ${partial.join(', ')} social list could not be read whole in this poll`);
	}
	if (tooLong.size > 0) {
		ctx.notes.add(
			`${[...tooLong].join(', ')} social content is not followed one by one (more than ${FOLLOW_MAX} records)`,
		);
	}
	return result;
}

/**
 * Whether nothing entered or left a followed list since the last poll: its count is the same and
 * page 1 shows no record elsewhere than the memory says. Statuses move forward, so a record enters
 * a followed list only from an earlier followed one, or by being created; a move among them
 * changes at least one count, and a new record or a loss the count of the whole list.
 */
function nothingMoved(
	statuses: readonly string[],
	firsts: Map<string, ListResult>,
	previous: SocialMemory,
): boolean {
	return statuses.every((status) => {
		const first = firsts.get(status) as ListResult;
		if (first.total > FOLLOW_MAX) return true;
		// A list's count is kept only while the list is followed whole.
		if (previous.listCounts[status] !== first.total) return false;
		return first.items.every((record) => previous.followed[keyOf(record.id) ?? ''] === status);
	});
}

/** Every member of one status list, whatever order the pages come in (none when too long). */
async function readList(
	status: string,
	into: Map<string, TrackedRecord>,
	first: ListResult,
	ctx: PollRun,
): Promise<{ total: number; complete: boolean; tooLong: boolean }> {
	const members = new Set<string>();
	let result = first;
	for (let read = 1; ; read++) {
		const total = result.total;
		const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
		if (total > FOLLOW_MAX) return { total, complete: false, tooLong: true };
		for (const record of result.items) {
			const key = keep(into, record);
			if (key) members.add(key);
		}
		if (members.size >= total || result.items.length === 0)
			return { total, complete: members.size >= total, tooLong: false };
		if (read >= pageCap(total)) return { total, complete: false, tooLong: false };
		const page = (read % pages) + 1;
		result = await ctx.social(page, status);
	}
}

/** The followed records after this poll, against what the last poll remembered. */
export class Following {
	/** Records in the followed lists. */
	readonly listed: Statuses = {};
	/** Records in a status no list filter accepts, read by id (there are few). */
	readonly byId: Statuses = {};
	/** Records reported in `failed`, which a new generation leaves for a followed list. */
	readonly unfollowed: Statuses;

	constructor(
		private readonly previous: SocialMemory,
		private readonly statuses: readonly string[],
		private readonly ctx: PollRun,
	) {
		this.unfollowed = previous.unfollowed;
	}

	/** Whether records in this status are followed in its list. */
	follows(status: string): boolean {
		return this.statuses.includes(status);
	}

	/** The status the last poll remembered for a record it followed. */
	remembered(key: string): string | undefined {
		const p = this.previous;
		return p.followed[key] ?? p.byId[key] ?? p.missing[key];
	}

	/** Followed now, or by the last poll. */
	has(key: string): boolean {
		return (
			this.listed[key] !== undefined ||
			this.byId[key] !== undefined ||
			this.remembered(key) !== undefined
		);
	}

	/** Follows a record in its status: in its list, by id (no list shows it), or not (false). */
	follow(key: string, status: string): boolean {
		delete this.unfollowed[key];
		if (this.follows(status)) this.listed[key] = status;
		else if (!isSocialListStatus(status)) put(this.byId, key, status);
		else {
			// Failed is left by a new generation, into a followed list: the move it then makes.
			if (status === 'failed') put(this.unfollowed, key, status);
			return false;
		}
		return true;
	}

	/** The records read by id, and those not followed, held to their caps. */
	close(): void {
		if (trim(this.byId, CAPS.byId) > 0)
			this.ctx.notes.add(
				`more than ${CAPS.byId} social records in publishing: the oldest are no longer followed`,
			);
		if (trim(this.unfollowed, CAPS.unfollowed) > 0)
			this.ctx.notes.add(
				`more than ${CAPS.unfollowed} social records in failed: those longest in failed are forgotten`,
			);
	}
}

// ----- out of sight, found again -----

/**
 * Followed social records out of sight, found again: gone from a followed list read whole, or in
 * a status no list filter accepts (`publishing`). Those in `publishing` fetched by id every poll;
 * the others by id while fewer than the search's pages, else met in the search of the whole list
 * (./search); what whole searches do not meet is no longer followed.
 */
export class FindAgain {
	/** Followed records out of sight in this poll, with the status remembered. */
	readonly toFind: Statuses = {};
	/** Those met in this poll, as they are now. */
	readonly met = new Map<string, TrackedRecord>();
	/** Those gone for good (404, or not in the list): no longer followed. */
	readonly gone = new Set<string>();

	/** Out of sight and not met yet. */
	wants(key: string): boolean {
		return this.toFind[key] !== undefined && !this.met.has(key);
	}

	meet(record: TrackedRecord): void {
		keep(this.met, record);
	}

	/** How many are still to find: neither met nor gone. */
	get left(): number {
		return Object.keys(this.toFind).filter((key) => !this.met.has(key) && !this.gone.has(key))
			.length;
	}

	/**
	 * One request each: a record in a status no list shows (`publishing`) at every poll, outside the
	 * search's budget; the others within it, while fewer than the `searchCost` pages that would meet
	 * them too. `lost` is told of each one gone.
	 */
	async fetchById(ctx: PollRun, searchCost: number, lost: () => void): Promise<void> {
		const left = Object.keys(this.toFind).filter((key) => !this.met.has(key));
		const listed = left.filter((key) => isSocialListStatus(this.toFind[key]));
		const byId = left.filter((key) => !isSocialListStatus(this.toFind[key]));
		const wanted = [...byId, ...(listed.length < searchCost ? listed : [])];
		for (const key of wanted) {
			const alone = !isSocialListStatus(this.toFind[key]);
			const reply = await (alone ? ctx.recordIfTime(key) : ctx.searchRecord(key));
			if (reply === undefined) {
				if (alone) continue;
				return;
			}
			if (reply === null) {
				this.gone.add(key);
				lost();
			} else this.meet(reply);
		}
	}

	/** After whole searches that did not meet them: the rest are no longer followed. */
	giveUp(notes: Notes): void {
		const left = this.left;
		if (left === 0) return;
		notes.add(`stopped following ${left} social record(s) no longer in the list`);
		for (const key of Object.keys(this.toFind)) if (!this.met.has(key)) this.gone.add(key);
	}
}
