/**
 * Social content, what one poll does (pollSocial below), in plain words. The list has no sort and
 * no promised order, so nothing here depends on one.
 *
 * 1. Read the followed lists (./followed.ts, readFollowed): the statuses the selected events come
 *    from (draft, queued, generating; also ready, completed, scheduled for the events after a
 *    finish). Page 1 of each; the rest of a list only when its count or page 1 shows a move.
 * 2. Read page 1 of the whole list. Its count says how many records were created since the last
 *    poll. At activation (the first poll, or other followed lists), only a starting point is
 *    taken: the whole list is then read once, over as many polls as it takes, to learn what exists
 *    (./new-records.ts, "learning the account").
 * 3. Compare each listed record with what is remembered of it (./followed.ts, Following): another
 *    status is a change; not remembered, it is a new record (./new-records.ts, NewRecords: created
 *    after the newest one counted, and not among the recent ones kept) or one that came into the
 *    list since (reported with its previous status unknown, only when the list was read whole now
 *    and at the last poll).
 * 4. Followed records out of sight (gone from a list read whole, or `publishing`, which no list
 *    filter shows) are fetched by id while few, else met in the search (./followed.ts, FindAgain);
 *    those whole searches never meet are no longer followed.
 * 5. The search (./search.ts) reads the whole list for what is still looked for (new records the
 *    count says exist and page 1 did not show, followed records out of sight), newest first when
 *    the list is, else from where the last poll stopped; its pages are optional reads within the
 *    poll's request budget (./whole-list.ts keeps what one poll met of the list).
 * 6. The changes go to the items (../items.ts); the memory for the next poll is returned
 *    (memoryAfter, stored as it is: ../state/memory.ts).
 *
 *   idle poll = followed lists + 1 requests: 4 for finished/failed events, 7 with the others, at
 *     any size.
 *   a poll after a move = that + (pages of the followed lists beyond their first) + 1 per record
 *     that left them (by id while fewer than the search's pages, else the search), at most the
 *     poll's request budget.
 */
import { followedStatuses, type TriggerEvent } from '../../events';
import type { PollRun } from '../poll-run';
import type { Change } from '../items';
import { isSocialPending } from '../../../shared/domain/statuses';
import { keyOf, newest, type TrackedRecord } from '../reader';
import type { NewRecordMemory, SocialMemory, Statuses } from '../state/memory';
import { FindAgain, Following, readFollowed, type FollowedRead } from './followed';
import { NewRecords } from './new-records';
import { Search } from './search';

interface SocialPoll {
	changes: Change[];
	memory: SocialMemory;
	/** Work left for later polls (see the tracker's Lag). */
	missing: number;
	newRecords: number;
	learning: boolean;
}

/** What one social poll works with. */
interface Run {
	read: FollowedRead;
	following: Following;
	findAgain: FindAgain;
	newRecords: NewRecords;
	search: Search;
	changes: Change[];
}

export async function pollSocial(
	stored: SocialMemory | undefined,
	events: readonly TriggerEvent[],
	ctx: PollRun,
): Promise<SocialPoll> {
	const statuses = followedStatuses(events);
	// The first poll, or one whose events follow other lists: a starting point, nothing reported.
	const activating = !stored || stored.followedLists.join() !== statuses.join();
	const previous = activating ? startingMemory(statuses) : stored;

	const read = await readFollowed(statuses, previous, ctx);
	const first = await ctx.social(1);
	// Activating: learn the newest record from the whole list before telling new records apart.
	if (activating) startLearning(previous.newRecords, first.total);
	const following = new Following(previous, statuses, ctx);
	const findAgain = new FindAgain();
	const isFollowed = (key: string) => following.has(key);
	const newRecords = new NewRecords(
		previous.newRecords,
		ctx,
		first.total,
		activating,
		newest(first.items, 'created_at'),
		isFollowed,
		findAgain,
	);
	const search = new Search(previous, ctx, first.total, newRecords, findAgain);
	const run: Run = { read, following, findAgain, newRecords, search, changes: [] };

	const unknown = compareListed(run);
	for (const [key, record] of read.listed) search.sawListed(key, record);
	outOfSight(previous, run);
	// What was learnt in this poll's reads counts from the next poll on.
	const learnt = !newRecords.learning && !activating;
	await search.run(first);
	reportNew(run);
	// Read whole now, and all its members remembered before: a record new to it came in since.
	tellUnknown(
		run,
		unknown,
		(status) => learnt && read.readWhole.has(status) && previous.completeLists.includes(status),
	);
	const missing = foundAgain(run);
	search.finish();
	return {
		changes: activating ? [] : run.changes,
		memory: memoryAfter(statuses, run, missing),
		missing: Object.keys(missing).length,
		newRecords: newRecords.expected,
		learning: newRecords.readingToLearn,
	};
}

/**
 * The records of the followed lists against what the last poll remembered: a change of status,
 * a new record, or (returned) a record not remembered, told apart once the search knows what is
 * new.
 */
function compareListed({ read, following, search, changes }: Run): Array<[string, TrackedRecord]> {
	const unknown: Array<[string, TrackedRecord]> = [];
	for (const [key, record] of read.listed) {
		if (!following.follows(record.status)) continue; // moved on between two list reads
		const remembered = following.remembered(key);
		if (remembered !== undefined) {
			if (remembered !== record.status) changes.push({ previous: remembered, record });
		} else if (search.takeIfNew(key, record)) {
			changes.push({ previous: undefined, record });
		} else {
			unknown.push([key, record]);
			continue;
		}
		following.listed[key] = record.status;
	}
	return unknown;
}

/** Followed records out of sight: gone from a list read whole, or in a status no list shows. */
function outOfSight(previous: SocialMemory, { read, following, findAgain }: Run): void {
	// Those not found at the last poll before those read by id then: each has its turn.
	for (const map of [previous.followed, previous.missing, previous.byId]) {
		for (const [key, status] of Object.entries(map)) {
			if (following.listed[key] !== undefined || findAgain.toFind[key] !== undefined) continue;
			if (read.tooLong.has(status)) continue; // no longer followed
			// Its list was not read whole: it is where it was.
			if (map === previous.followed && !read.readWhole.has(status)) following.listed[key] = status;
			else findAgain.toFind[key] = status;
		}
	}
}

/** The new records the search took outside the followed lists: reported, and followed. */
function reportNew({ read, following, newRecords, changes }: Run): void {
	for (const record of newRecords.taken) {
		const key = keyOf(record.id) as string;
		if (read.listed.has(key)) continue; // reported from its list
		changes.push({ previous: undefined, record });
		following.follow(key, record.status);
	}
}

/** Records of the followed lists not remembered: new, come in since the last poll, or neither. */
function tellUnknown(
	{ following, newRecords, search, changes }: Run,
	unknown: Array<[string, TrackedRecord]>,
	cameIn: (status: string) => boolean,
): void {
	for (const [key, record] of unknown) {
		// Reported failed, now generating again: it comes from there.
		const was = isSocialPending(record.status) ? following.unfollowed[key] : undefined;
		if (newRecords.takenKeys.has(key) || search.takeIfNew(key, record))
			changes.push({ previous: undefined, record });
		// Not new, not followed, and not in this list at the last poll: it came in since.
		else if (was !== undefined || cameIn(record.status))
			changes.push({ previous: was ?? null, record });
		following.follow(key, record.status);
	}
}

/** Followed records out of sight that were found again; those still to find are returned. */
function foundAgain({ findAgain, following, newRecords, changes }: Run): Statuses {
	const missing: Statuses = {};
	for (const [key, status] of Object.entries(findAgain.toFind)) {
		const record = findAgain.met.get(key);
		if (!record) {
			if (!findAgain.gone.has(key)) missing[key] = status;
			continue;
		}
		if (record.status !== status) changes.push({ previous: status, record });
		if (!following.follow(key, record.status)) newRecords.keepIfRecent(key, record);
	}
	return missing;
}

/** What the next poll starts from. */
function memoryAfter(lists: readonly string[], run: Run, missing: Statuses): SocialMemory {
	const { read, following, newRecords, search } = run;
	following.close();
	return {
		followedLists: [...lists],
		completeLists: read.complete,
		listCounts: read.counts,
		followed: following.listed,
		byId: following.byId,
		unfollowed: following.unfollowed,
		missing,
		newRecords: newRecords.memory,
		searchPage: search.page,
		passes: search.passes,
		notNewestFirst: search.notNewestFirst,
		reorders: search.reorders,
	};
}

function startLearning(memory: NewRecordMemory, total: number): void {
	memory.count = total;
	// `since` is set when the first poll closes (./new-records).
	memory.learning = { page: 2, newest: 0, count: total, since: Infinity };
}

/** The memory a first poll starts from. */
const startingMemory = (lists: readonly string[]): SocialMemory => ({
	followedLists: [...lists],
	completeLists: [],
	listCounts: {},
	followed: {},
	byId: {},
	missing: {},
	unfollowed: {},
	newRecords: {
		count: 0,
		newestCreated: 0,
		recent: {},
		reported: {},
		reportedFollowed: { count: 0, newest: 0 },
		uncertain: 0,
	},
	searchPage: 2,
	passes: 0,
	notNewestFirst: false,
	reorders: false,
});
