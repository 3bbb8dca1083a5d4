/**
 * Social content: the list has no sort and no promised order, so the tracker never depends on
 * one. It follows every record in a followed status F (draft, queued, generating; plus ready,
 * completed and scheduled for the events that come after a finish) and any record in a status
 * the list filter does not know (`publishing`). Each poll reads each list of F whole, and page 1
 * of the whole list for the count; a followed record no longer in its list is fetched or found
 * again (./births), and so are the new records the count says exist.
 *
 *   social requests per poll = |F| + (extra pages of followed lists over 100 records) + 1
 *     + (only when something moved out of sight) the search: at most the poll's request budget.
 *   An idle poll is 4 requests for finished/failed events, 7 with the others.
 *
 * An unfollowed record found in a followed list is a birth if it is new (./births); otherwise it
 * entered F, which is reported (previous status unknown) only when that list was read whole at
 * this poll and the last one. Lists of more than FOLLOW_MAX records are not followed.
 */
import { followedStatuses, type TriggerEvent } from './events';
import { Search } from './births';
import { Book, codeStatus, keyOf, statusCode } from './ids';
import { FOLLOW_MAX, readWhole } from './lists';
import type { SocialMemory } from './state';
import {
	PAGE_SIZE,
	type Change,
	type ListResult,
	type PollContext,
	type Reads,
	type TrackedRecord,
} from './types';
import { isSocialListStatus } from '../shared/domain/statuses';

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
	books: { listed: Book<string>; single: Book<string> },
): boolean {
	if (followed.includes(status)) books.listed.set(key, statusCode(status));
	else if (!isSocialListStatus(status)) books.single.set(key, statusCode(status));
	else return false;
	return true;
}

function* readFollowed(
	followed: readonly string[],
	ctx: PollContext,
): Reads<{ listed: Map<string, TrackedRecord>; exact: string; oversized: Set<string> }> {
	const listed = new Map<string, TrackedRecord>();
	let exact = '';
	const oversized = new Set<string>();
	for (const status of followed) {
		const read = yield* readWhole(status, listed);
		if (read.complete) exact += statusCode(status);
		if (read.oversized) oversized.add(status);
	}
	const partial = followed.filter((s) => !exact.includes(statusCode(s)) && !oversized.has(s));
	if (partial.length > 0) {
		// Its list order moved too much between requests: what left it is seen at a later poll.
		ctx.notes.push(`the ${partial.join(', ')} social list could not be read whole in this poll`);
	}
	if (oversized.size > 0) {
		ctx.notes.push(
			`${[...oversized].join(', ')} social content is not followed one by one (more than ${FOLLOW_MAX} records)`,
		);
	}
	return { listed, exact, oversized };
}

const fresh = (watched: string): SocialMemory => ({
	watched,
	exact: '',
	followed: new Book(),
	single: new Book(),
	missing: new Book(),
	births: {
		count: 0,
		watermark: 0,
		known: new Book(),
		found: new Book(),
		followedFound: { count: 0, newest: -Infinity },
		slack: 0,
	},
	scan: 2,
	passes: 0,
	unordered: false,
	unstable: false,
});

export function* pollSocial(
	stored: SocialMemory | undefined,
	events: readonly TriggerEvent[],
	ctx: PollContext,
): Reads<SocialPoll> {
	const followed = followedStatuses(events);
	const signature = followed.map(statusCode).join('');
	const seeding = !stored || stored.watched !== signature;
	const previous = seeding ? fresh(signature) : stored;

	const { listed, exact, oversized } = yield* readFollowed(followed, ctx);
	const first = (yield { kind: 'socialList', page: 1, limit: PAGE_SIZE }) as ListResult;
	if (seeding) {
		// Activation: learn the newest record from the whole list before telling births apart.
		previous.births.count = first.total;
		previous.births.census = { page: 2, newest: 0, count: first.total };
	}

	// Every book of this poll compares keys at the width the state was stored with.
	const width = previous.followed.width;
	const next = new Book<string>(width);
	// Fetched one by one, so kept with whole ids whatever the width (there are few).
	const single = new Book<string>();
	const books = { listed: next, single };
	const before = (key: string) =>
		previous.followed.get(key) ?? previous.single.get(key) ?? previous.missing.get(key);
	const targets = new Book<string>(width);
	const search = new Search(
		previous,
		ctx,
		first.total,
		(key) => next.has(key) || single.has(key) || before(key) !== undefined,
		targets,
	);
	const changes: Change[] = [];
	const wasExact = (status: string) =>
		exact.includes(statusCode(status)) && previous.exact.includes(statusCode(status));

	for (const [key, record] of listed) {
		if (!followed.includes(record.status)) continue; // moved on between two list reads
		const known = before(key);
		if (known !== undefined) {
			if (known !== statusCode(record.status))
				changes.push({ previous: codeStatus(known), record });
		} else if (search.claim(key, record)) {
			changes.push({ previous: undefined, record });
		} else if (!search.learning && !seeding && wasExact(record.status)) {
			// Not new, not followed, and not in this list at the last poll: it came in since.
			changes.push({ previous: null, record });
		}
		next.set(key, statusCode(record.status));
	}
	for (const [key, record] of listed) search.saw(key, record);
	// Followed records out of sight: gone from a list read whole, or in a status no list shows.
	for (const book of [previous.followed, previous.single, previous.missing]) {
		for (const [key, code] of book) {
			if (next.has(key) || targets.has(key)) continue;
			const status = codeStatus(code);
			if (status !== null && oversized.has(status)) continue; // no longer followed
			if (status !== null && followed.includes(status) && !exact.includes(code))
				next.set(key, code);
			else targets.set(key, code);
		}
	}

	yield* search.run(first);
	for (const record of search.newRecords) {
		if (listed.has(keyOf(record.id) as string)) continue; // already reported from its list
		changes.push({ previous: undefined, record });
		follow(keyOf(record.id) as string, record.status, followed, books);
	}
	const missing = new Book<string>(width);
	for (const [key, code] of targets) {
		const record = search.met.get(key);
		if (!record) {
			if (!search.isGone(key)) missing.set(key, code);
			continue;
		}
		if (statusCode(record.status) !== code) changes.push({ previous: codeStatus(code), record });
		// The record met carries its whole id, whatever width the state had narrowed to.
		const whole = keyOf(record.id) as string;
		if (!follow(whole, record.status, followed, books)) search.remember(whole, record);
	}

	search.finish();
	const memory: SocialMemory = {
		watched: signature,
		exact,
		followed: next,
		single,
		missing,
		births: search.births,
		scan: search.scan,
		passes: search.passes,
		unordered: search.unordered,
		unstable: search.unstable,
	};
	return {
		changes: seeding ? [] : changes,
		memory,
		missing: missing.size,
		births: search.expected,
		learning: search.learning,
	};
}
