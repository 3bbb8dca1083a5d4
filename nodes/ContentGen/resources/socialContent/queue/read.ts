import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { ListedPost } from './claims';
import type { Queued } from './plan';
import { slotKey } from './slots';
import { PAGE_SIZE_MAX, PLATFORMS } from '../../../../shared/constants';
import { countOf, MAX_PAGES } from '../../../../shared/transport/pages';
import type { CallOptions, Connection } from '../../../../shared/transport/request';
import { request } from '../../../../shared/transport/request';
import type { ApiResponse } from '../../../../shared/types';
import { pathId } from '../../../../shared/validation';

/** A record's platforms: a list of names while generating, an object of captions once finished. */
export function platformsOf(value: unknown): string[] {
	if (Array.isArray(value)) return value.filter((p): p is string => typeof p === 'string');
	if (value !== null && typeof value === 'object') return Object.keys(value);
	return [];
}

/** A record's id as the queue compares ids (in lower case); undefined without one. */
const idOf = (record: IDataObject) =>
	typeof record?.id === 'string' ? record.id.toLowerCase() : undefined;

/** A listed or read record as the queue counts it; undefined when it takes no slot. */
export function postOf(record: IDataObject): ListedPost | undefined {
	const at = Date.parse(String(record.scheduled_publish_at ?? ''));
	const id = idOf(record);
	if (id === undefined || Number.isNaN(at)) return undefined;
	// A service may apply the status filter loosely: the record's own status decides.
	if (record.status !== undefined && record.status !== 'scheduled') return undefined;
	return {
		id,
		at,
		platforms: platformsOf(record.platforms),
		updatedAt: Date.parse(String(record.updated_at ?? '')),
	};
}

/** One read of the scheduled list, whole or not. */
export interface Scheduled {
	qs: IDataObject;
	/** What takes a slot: a record, on every platform it holds (the list hides a publish's subset). */
	posts: ListedPost[];
	/** Every id the list gave, other statuses let through included. */
	ids: Set<string>;
	/** The service's latest count of the list. */
	total: number;
	/** Requests the read took, and the pages it takes in a stable order. */
	reads: number;
	pages: number;
	/** Why the list could not be read whole. */
	shortfall?: string;
}

export type ListAnswer = ApiResponse<IDataObject[]>;

/** Page `page` of the scheduled list (`qs`: status scheduled, a platform maybe). */
export async function listPage(
	connection: Connection,
	call: CallOptions,
	qs: IDataObject,
	page: number,
): Promise<ListAnswer> {
	return await request<IDataObject[]>(connection, 'GET', '/social/content', {
		...call,
		qs: { ...qs, page, limit: PAGE_SIZE_MAX },
	});
}

/** Reads of a list's pages, at most, per page it has: a bound on reading again. */
export const SAMPLE_READS_PER_PAGE = 30;
/** Reads in a row, per page, that bring no record not seen before: the list will not give more. */
export const STALL_READS_PER_PAGE = 8;

/**
 * The page to read after `read` reads: each in turn, then again, a short last page once in 4
 * rounds: it costs a request as a full one does, and on a list reshuffled on every request any
 * full page shows any record (a stable order still has it read within the stall rule's reach).
 */
function pageAt(read: number, total: number, size: number): number {
	const full = Math.floor(total / size);
	const last = Math.max(1, Math.ceil(total / size));
	if (read < last || full === 0) return Math.min(read, last - 1) + 1;
	const step = (read - last) % (full * 4 + last - full);
	return step >= full * 4 ? last : (step % full) + 1;
}

/**
 * The scheduled list, each record once by id, read page after page until the ids seen cover the
 * service's latest count (the count may move meanwhile, as others schedule; a service without a
 * count is read while it says there is more). The spec gives the list no order: when the service
 * reorders it on every request, seeing every record is a coupon collector's problem (about
 * pages x (ln records + 0.58) reads), and the pages are read again until it is solved. Gives up
 * when the ids seen stop growing for STALL_READS_PER_PAGE reads per page (a record still unseen
 * would have escaped each of them: (1 - 1/pages)^(8 x pages), under 0.04 %), or after
 * SAMPLE_READS_PER_PAGE reads per page. `first` is the answer for page 1 when it was read already.
 */
export async function readScheduled(
	connection: Connection,
	call: CallOptions,
	qs: IDataObject,
	first?: ListAnswer,
): Promise<Scheduled> {
	const seen = new Map<string, IDataObject>();
	let total = 0;
	let size = 1;
	let pages = 1;
	let reads = 0;
	let stalled = 0;
	let why = `the budget of ${SAMPLE_READS_PER_PAGE} reads per page ran out`;
	let counted = true;
	const done = (shortfall?: string): Scheduled => {
		const posts: ListedPost[] = [];
		for (const record of seen.values()) {
			const post = postOf(record);
			if (post) posts.push(post);
		}
		return { qs, posts, ids: new Set(seen.keys()), total, reads, pages, shortfall };
	};
	while (reads < Math.min(pages * SAMPLE_READS_PER_PAGE, MAX_PAGES)) {
		const answer =
			reads === 0 && first
				? first
				: await listPage(connection, call, qs, pageAt(reads, total, size));
		reads++;
		const data = Array.isArray(answer.data) ? answer.data : [];
		let grew = false;
		for (const record of data) {
			const id = idOf(record);
			if (id !== undefined && !seen.has(id)) {
				seen.set(id, record);
				grew = true;
			}
		}
		const count = countOf(answer.pagination?.total);
		counted = count !== undefined;
		// Without a count, one more than seen while the service says there is more.
		total = count ?? seen.size + (answer.pagination?.has_more === true ? 1 : 0);
		// The page size the service serves (a gateway may cap it below the asked 100).
		size = Math.min(PAGE_SIZE_MAX, Math.max(size, data.length));
		pages = Math.max(1, Math.ceil(total / size));
		if (seen.size >= total) return done();
		stalled = grew ? 0 : stalled + 1;
		if (stalled >= pages * STALL_READS_PER_PAGE) {
			why = `${stalled} reads in a row brought no record not already read`;
			break;
		}
	}
	const got = counted
		? `${seen.size} of the ${total} records the service last reported were read`
		: `${seen.size} records were read and the service still said there were more`;
	return done(`Incomplete list: ${got}, in ${reads} reads of its pages; ${why}`);
}

/** The scheduled posts to choose slots from; a shortfall throws: part of the list could double-book. */
export async function readEveryScheduled(
	context: IExecuteFunctions,
	connection: Connection,
	call: CallOptions,
	qs: IDataObject,
): Promise<Scheduled> {
	const read = await readScheduled(connection, call, qs);
	if (!read.shortfall) return read;
	throw new NodeOperationError(
		context.getNode(),
		'Could not read every scheduled post, so the free slots are unknown',
		{
			itemIndex: call.itemIndex,
			description: `${read.shortfall}. Nothing was scheduled from this read; run the node again.`,
		},
	);
}

/** A queued record's platforms, read by id (a free read); a failure is kept for its item's turn. */
export async function readPlatforms(connection: Connection, q: Queued): Promise<void> {
	q.read = true;
	try {
		q.platforms = platformsOf((await readRecord(connection, q.contentId, q.call)).platforms);
		if (q.platforms.length === 0) q.platforms = q.chosen ?? [];
	} catch (error) {
		q.unread = error;
	}
}

/**
 * The list to read: the scheduled posts, of one platform alone when every queued record holds
 * that one (the service's platform filter keeps the posts on it). The records are read in item
 * order while they all hold the same one platform; the others, at their items' turns.
 */
export async function listQuery(
	context: IExecuteFunctions,
	connection: Connection,
	queued: Queued[],
): Promise<IDataObject> {
	const held = new Set<string>();
	for (const q of queued) {
		await readPlatforms(connection, q);
		if (q.unread !== undefined && !context.continueOnFail()) break;
		q.platforms.forEach((platform) => held.add(platform));
		if (held.size > 1) return { status: 'scheduled' };
	}
	const [only] = held;
	const one = held.size === 1 && (PLATFORMS as readonly string[]).includes(only);
	return one ? { status: 'scheduled', platform: only } : { status: 'scheduled' };
}

/** One record, read from the service by its id (a free read). */
export async function readRecord(
	connection: Connection,
	contentId: string,
	call: CallOptions,
): Promise<IDataObject> {
	const { data } = await request<IDataObject>(
		connection,
		'GET',
		`/social/content/${pathId('Content ID', contentId)}`,
		call,
	);
	return (data ?? {}) as IDataObject;
}

/**
 * How long another execution may still move a post it scheduled: it moves its posts within its
 * reads back, at most 6 reads of the list; at 5,000 posts reshuffled on every request one read is
 * about 455 requests, 4.6 minutes at a Free key's 100 a minute, so 6 take 27 minutes. An hour
 * covers that twice.
 */
export const IN_FLIGHT_MS = 3_600_000;

const sameSlot = (a: ListedPost | undefined, b: ListedPost) =>
	a !== undefined &&
	slotKey(a.at) === slotKey(b.at) &&
	(a.updatedAt === b.updatedAt || (Number.isNaN(a.updatedAt) && Number.isNaN(b.updatedAt))) &&
	[...a.platforms].sort().join() === [...b.platforms].sort().join();

/**
 * Whether the list is as `base` left it but for our posts, learned from page 1 and by id instead
 * of the whole list: a post scheduled meanwhile changes the count; a post already listed is taken
 * to change slot only while its execution may move it, so the posts that may still move (changed in
 * the last IN_FLIGHT_MS or at an unknown time, and on a platform of ours) and those due within it
 * are read by id unless page 1 shows them (a move by hand of an older post goes unseen). Page 1 serves the whole read that follows a change; undefined when
 * those reads cost as much as the whole list.
 */
export async function unchanged(
	connection: Connection,
	call: CallOptions,
	base: Scheduled,
	ours: Queued[],
	now: number,
): Promise<{ same: boolean; page: ListAnswer } | undefined> {
	const mine = new Map(ours.map((q) => [q.contentId, q.slot?.at]));
	const platforms = new Set(ours.flatMap((q) => q.platforms));
	const listed = new Map(base.posts.map((post) => [post.id, post]));
	const moving = base.posts.filter(
		(post) =>
			!mine.has(post.id) &&
			// Published when its time comes, it leaves the list: the count would hide an arrival.
			(post.at < now + IN_FLIGHT_MS ||
				(!(post.updatedAt < now - IN_FLIGHT_MS) &&
					post.platforms.some((platform) => platforms.has(platform)))),
	);
	if (1 + moving.length >= base.reads) return undefined;
	const page = await listPage(connection, call, base.qs, 1);
	let added = 0;
	for (const id of mine.keys()) if (!base.ids.has(id)) added++;
	const differs = (record: IDataObject) => {
		const id = idOf(record) ?? '';
		const post = postOf(record);
		if (mine.has(id)) return !post || slotKey(post.at) !== slotKey(mine.get(id) ?? NaN);
		const before = listed.get(id);
		if (before) return !sameSlot(post, before);
		// Another status let through the filter stays out; anything else is new.
		return !base.ids.has(id) || post !== undefined;
	};
	const shown = Array.isArray(page.data) ? page.data : [];
	if (page.pagination?.total !== base.total + added || shown.some(differs)) {
		return { same: false, page };
	}
	const onPage = new Set(shown.map(idOf));
	for (const post of moving) {
		if (onPage.has(post.id)) continue;
		const record = await readRecord(connection, post.id, call).catch(() => undefined);
		if (!record || differs(record)) return { same: false, page };
	}
	return { same: true, page };
}
