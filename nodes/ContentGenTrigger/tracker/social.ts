/**
 * Social content: the list has no sort and no promised order, so the tracker never depends on
 * one. It follows every record in a followed status F (draft, queued, generating; plus ready,
 * completed and scheduled for the events that come after a finish) and any record in a status
 * the list filter does not know (`publishing`). Each poll reads page 1 of each list of F and of
 * the whole list; the lists of F are read on only when a count or page 1 says something moved
 * among them (see unmoved). Terminal lists (published, failed) are never read: a followed record
 * that left its list is fetched by id or found again (./births), and so are the new records the
 * count says exist.
 *
 *   idle poll = |F| + 1 requests: 4 for finished/failed events, 7 with the others, at any size.
 *   a poll after a move = that + (pages of the lists of F beyond their first) + 1 per record that
 *     left them + (when ids are not whole) the search, at most the poll's request budget.
 *
 * An unfollowed record found in a followed list is a birth if it is new (./births); otherwise it
 * entered F, which is reported (previous status unknown) only when that list was read whole at
 * this poll and the last one. Lists of more than FOLLOW_MAX records are not followed.
 */
import { followedStatuses, type TriggerEvent } from '../events';
import { Search } from './births';
import { RecordMap, codeStatus, keyOf, statusCode } from './state/keys';
import { FOLLOW_MAX, keep, readWhole } from './lists';
import type { SocialMemory } from './state/memory';
import { type PollContext } from './context';
import { type Change, type ListResult, type TrackedRecord } from './requests';
import { isSocialListStatus } from '../../shared/domain/statuses';

interface SocialPoll {
	changes: Change[];
	memory: SocialMemory;
	/** Work left for later polls. */
	missing: number;
	births: number;
	learning: boolean;
}

/** Where a record is followed next: in its list, one by one (a status no list filter accepts), or not. */
function follow(
	key: string,
	status: string,
	followed: readonly string[],
	into: { listed: RecordMap<string>; byId: RecordMap<string> },
): boolean {
	if (followed.includes(status)) into.listed.set(key, statusCode(status));
	else if (!isSocialListStatus(status)) into.byId.set(key, statusCode(status));
	else return false;
	return true;
}

interface Followed {
	listed: Map<string, TrackedRecord>;
	/** Lists read whole in this poll: a member of the last poll not met there has left. */
	whole: Set<string>;
	/** Codes of the lists whose members are all known after this poll. */
	exact: string;
	counts: Record<string, number>;
	oversized: Set<string>;
}

/**
 * Whether nothing entered or left a followed list since the last poll: its count is the same and
 * page 1 shows no record elsewhere than the memory says. Statuses move forward, so a record enters
 * a followed list only from an earlier followed one, or by being born; a move among them changes
 * at least one count, and a birth or a loss the count of the whole list.
 */
function unmoved(
	followed: readonly string[],
	firsts: Map<string, ListResult>,
	previous: SocialMemory,
): boolean {
	return followed.every((status) => {
		const code = statusCode(status);
		const first = firsts.get(status) as ListResult;
		if (first.total > FOLLOW_MAX) return true;
		if (previous.listCounts[code] !== first.total) return false;
		const complete = previous.completeLists.includes(code);
		return first.items.every((record) => {
			const known = previous.followed.get(keyOf(record.id) ?? '');
			return known === code || (known === undefined && !complete);
		});
	});
}

/** Page 1 of each followed list; all of them whole only when something moved among them. */
async function readFollowed(
	followed: readonly string[],
	previous: SocialMemory,
	ctx: PollContext,
): Promise<Followed> {
	const listed = new Map<string, TrackedRecord>();
	const firsts = new Map<string, ListResult>();
	for (const status of followed) {
		const first = await ctx.social(1, status);
		firsts.set(status, first);
		for (const record of first.items) keep(listed, record);
	}
	const oversized = new Set(
		followed.filter((s) => (firsts.get(s) as ListResult).total > FOLLOW_MAX),
	);
	const result: Followed = { listed, whole: new Set(), exact: '', counts: {}, oversized };
	const partial: string[] = [];
	if (unmoved(followed, firsts, previous)) {
		for (const status of followed) {
			const code = statusCode(status);
			if (previous.completeLists.includes(code)) result.exact += code;
			else if (!oversized.has(status)) ctx.notes.addUnfollowed();
			result.counts[code] = (firsts.get(status) as ListResult).total;
		}
	} else {
		for (const status of followed) {
			const code = statusCode(status);
			const read = await readWhole(status, listed, firsts.get(status) as ListResult, ctx);
			if (read.oversized) continue;
			if (!read.complete) partial.push(status);
			else {
				result.whole.add(status);
				result.exact += code;
				result.counts[code] = read.total;
			}
		}
	}
	if (partial.length > 0) {
		// Its list order moved too much between requests: what left it is seen at a later poll.
		ctx.notes.add(`the ${partial.join(', ')} social list could not be read whole in this poll`);
	}
	if (oversized.size > 0) {
		ctx.notes.add(
			`${[...oversized].join(', ')} social content is not followed one by one (more than ${FOLLOW_MAX} records)`,
		);
	}
	return result;
}

const fresh = (watched: string): SocialMemory => ({
	followedLists: watched,
	completeLists: '',
	listCounts: {},
	followed: new RecordMap(),
	byId: new RecordMap(),
	missing: new RecordMap(),
	newRecords: {
		count: 0,
		newestCreated: 0,
		recent: new RecordMap(),
		reported: new RecordMap(),
		reportedFollowed: { count: 0, newest: -Infinity },
		uncertain: 0,
	},
	searchPage: 2,
	passes: 0,
	notNewestFirst: false,
	reorders: false,
});

export async function pollSocial(
	stored: SocialMemory | undefined,
	events: readonly TriggerEvent[],
	ctx: PollContext,
): Promise<SocialPoll> {
	const followed = followedStatuses(events);
	const signature = followed.map(statusCode).join('');
	const seeding = !stored || stored.followedLists !== signature;
	const previous = seeding ? fresh(signature) : stored;

	const { listed, whole, exact, counts, oversized } = await readFollowed(followed, previous, ctx);
	const first = await ctx.social(1);
	if (seeding) {
		// Activation: learn the newest record from the whole list before telling births apart.
		previous.newRecords.count = first.total;
		previous.newRecords.learning = { page: 2, newest: 0, count: first.total, since: Infinity };
	}

	// Every map of this poll compares keys at the length the state was stored with.
	const keyLength = previous.followed.keyLength;
	const next = new RecordMap<string>(keyLength);
	// Fetched one by one, so kept with whole ids whatever the key length (there are few).
	const single = new RecordMap<string>();
	const into = { listed: next, byId: single };
	const before = (key: string) =>
		previous.followed.get(key) ?? previous.byId.get(key) ?? previous.missing.get(key);
	const targets = new RecordMap<string>(keyLength);
	const search = new Search(
		previous,
		ctx,
		first.total,
		seeding,
		(key) => next.has(key) || single.has(key) || before(key) !== undefined,
		targets,
	);
	const changes: Change[] = [];
	// Read whole now, and all its members known before: a record new to it came in since.
	const wasExact = (status: string) =>
		whole.has(status) && previous.completeLists.includes(statusCode(status));

	// Unknown records of the followed lists: told apart once the search knows what is new.
	const strangers: Array<[string, TrackedRecord]> = [];
	for (const [key, record] of listed) {
		if (!followed.includes(record.status)) continue; // moved on between two list reads
		const known = before(key);
		if (known !== undefined) {
			if (known !== statusCode(record.status))
				changes.push({ previous: codeStatus(known), record });
		} else if (search.claim(key, record)) {
			changes.push({ previous: undefined, record });
		} else {
			strangers.push([key, record]);
			continue;
		}
		next.set(key, statusCode(record.status));
	}
	for (const [key, record] of listed) search.saw(key, record);
	// Followed records out of sight: gone from a list read whole, or in a status no list shows.
	for (const map of [previous.followed, previous.byId, previous.missing]) {
		for (const [key, code] of map) {
			if (next.has(key) || targets.has(key)) continue;
			const status = codeStatus(code);
			if (status !== null && oversized.has(status)) continue; // no longer followed
			// Its list was not read whole: it is where it was.
			if (map === previous.followed && status !== null && !whole.has(status)) next.set(key, code);
			else targets.set(key, code);
		}
	}

	// What was learnt in this poll's reads counts from the next poll on.
	const learnt = !search.learning && !seeding;
	await search.run(first);
	for (const record of search.newRecords) {
		if (listed.has(keyOf(record.id) as string)) continue; // reported from its list
		changes.push({ previous: undefined, record });
		follow(keyOf(record.id) as string, record.status, followed, into);
	}
	for (const [key, record] of strangers) {
		if (search.claimed.has(key) || search.claim(key, record))
			changes.push({ previous: undefined, record });
		else if (learnt && wasExact(record.status))
			// Not new, not followed, and not in this list at the last poll: it came in since.
			changes.push({ previous: null, record });
		next.set(key, statusCode(record.status));
	}
	const missing = new RecordMap<string>(keyLength);
	for (const [key, code] of targets) {
		const record = search.met.get(key);
		if (!record) {
			if (!search.gone.has(key)) missing.set(key, code);
			continue;
		}
		if (statusCode(record.status) !== code) changes.push({ previous: codeStatus(code), record });
		// The record met carries its whole id, whatever length the state had narrowed keys to.
		const whole = keyOf(record.id) as string;
		if (!follow(whole, record.status, followed, into)) search.remember(whole, record);
	}

	search.finish();
	const memory: SocialMemory = {
		followedLists: signature,
		completeLists: exact,
		listCounts: counts,
		followed: next,
		byId: single,
		missing,
		newRecords: search.births,
		searchPage: search.scan,
		passes: search.passes,
		notNewestFirst: search.unordered,
		reorders: search.unstable,
	};
	return {
		changes: seeding ? [] : changes,
		memory,
		missing: missing.size,
		births: search.expected,
		learning: search.busy,
	};
}
