import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { crowded, overFull, reassign, tiedAfter, type ListedPost } from './claims';
import { windowOf, type QueueSettings } from './settings';
import {
	countIn,
	firstFree,
	occupancyOf,
	release,
	slotsBetween,
	take,
	type Occupancy,
	type Slot,
} from './slots';
import type { Explain } from '../../../../shared/transport/refusals';
import { connect, request, type Connection } from '../../../../shared/transport/request';
import { ItemRun, type ItemWork } from '../../../helpers/items';
import { isQueued, planQueued, queuedOutput, type Queued } from './plan';
import {
	listQuery,
	readEveryScheduled,
	readPlatforms,
	readScheduled,
	unchanged,
	type Scheduled,
} from './read';

/** Reads of the scheduled list after scheduling: the last only checks, the others may move posts. */
export const VERIFY_READS = 6;
/** Reads that must find a tie the ids broke still there before our post leaves the slot to the other. */
export const TIE_READS = 2;

type Plan = { work: ItemWork } | { queued: Queued };

/**
 * Publish when at least one item is queued: the item runner one item at a time in item order, so
 * they take distinct slots in that order. Each queued record is read first (its platforms: when
 * they are one platform, the list is read for it alone), the scheduled list once before the first
 * queued item, and after the last the list's count and the posts that may still move (claim and
 * verify, see claims.ts): a post that another workflow or the dashboard scheduled first in the same
 * slot moves to the next free one; one that still shares a slot after the last read is reported on
 * its item and in an execution hint. What that read back cannot see (docs/operations.md): an older
 * post moved by hand into the slot, a post scheduled while another is unscheduled.
 */
export async function publishWithQueue(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	direct: (itemIndex: number) => ItemWork,
	explain: Explain,
): Promise<INodeExecutionData[]> {
	const run = new ItemRun(this, items.length);
	const plans = run.prepareAll((itemIndex): Plan => {
		if (isQueued(this, itemIndex)) return { queued: planQueued(this, itemIndex) };
		return { work: direct(itemIndex) };
	});
	run.stopIfFailed();
	const connection = await connect(this, 1);
	const now = Date.now();
	const queued = plans.flatMap((plan) => (plan && 'queued' in plan ? [plan.queued] : []));
	const qs = await listQuery(this, connection, queued);
	let list: Scheduled | undefined;
	let occupancy: Occupancy | undefined;
	const placed: Queued[] = [];
	await run.each(1, async (itemIndex) => {
		const plan = plans[itemIndex];
		if (!plan) return;
		if ('work' in plan) {
			run.done(itemIndex, await plan.work(connection));
			return;
		}
		const q = plan.queued;
		if (!q.read) await readPlatforms(connection, q);
		if (q.unread !== undefined) throw q.unread;
		list ??= await readEveryScheduled(this, connection, q.call, qs);
		occupancy ??= occupancyOf(list.posts);
		release(occupancy, q.contentId);
		const slot = pick(this, occupancy, q, now);
		await schedule(connection, q, slot, explain);
		take(occupancy, { id: q.contentId, at: slot.at, platforms: q.platforms });
		placed.push(q);
	});
	if (list && placed.length) await verify(this, connection, placed, now, explain, list);
	const hint = (message: string) =>
		this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
	const itemsOf = (of: Queued[]) =>
		`item${of.length > 1 ? 's' : ''} ${of.map((q) => q.itemIndex).join(', ')}`;
	if (list && list.reads > list.pages) {
		hint(
			`Reading the scheduled list took ${list.reads} requests, where its ${list.total} posts fill ${list.pages} page${list.pages > 1 ? 's' : ''}: the service served it in another order on each request, so its pages were read again until every post was seen. Each run of the queue pays about this (${itemsOf(queued)}).`,
		);
	}
	const conflicts = placed.filter((q) => q.conflict);
	if (conflicts.length) {
		hint(
			`${conflicts.length} queued post${conflicts.length > 1 ? 's' : ''} may share a slot over 'Posts per Slot' with posts scheduled elsewhere (${itemsOf(conflicts)}): see slot_conflict on the item.`,
		);
	}
	const unchecked = placed.filter((q) => q.unchecked && !q.conflict);
	if (unchecked.length) {
		hint(
			`${unchecked.length} queued post${unchecked.length > 1 ? 's were' : ' was'} scheduled but not checked against other workflows: the scheduled list could not be read back (${itemsOf(unchecked)}).`,
		);
	}
	for (const q of placed) run.done(q.itemIndex, queuedOutput(q));
	run.stopIfFailed();
	return run.items();
}

/** Two items queue alike (an item's settings may come from expressions). */
function sameQueue(a: QueueSettings, b: QueueSettings): boolean {
	const key = (s: QueueSettings) =>
		JSON.stringify([s.times, s.clock.zone, s.perSlot, s.leadMinutes, s.horizonDays]);
	return a === b || key(a) === key(b);
}

/** The first free slot for the item, or the error that says the horizon is full. */
function pick(context: IExecuteFunctions, occupancy: Occupancy, q: Queued, now: number): Slot {
	const { settings } = q;
	const { from, to } = windowOf(now, settings);
	const found = firstFree(
		slotsBetween(settings.clock, settings.times, from, to),
		occupancy,
		{ id: q.contentId, platforms: q.platforms },
		settings.perSlot,
	);
	if (found.slot) return found.slot;
	const horizon = new Date(to).toISOString();
	// Only the platforms that filled a slot: a LinkedIn + X post may find LinkedIn free throughout.
	const full = new Set<string>();
	for (const slot of slotsBetween(settings.clock, settings.times, from, to)) {
		for (const platform of q.platforms) {
			if (countIn(occupancy, slot.at, platform, q.contentId) >= settings.perSlot)
				full.add(platform);
		}
	}
	const on = q.platforms.filter((platform) => full.has(platform)).join(', ');
	throw new NodeOperationError(
		context.getNode(),
		`No free slot before the horizon, ${horizon} ('Horizon (Days)': ${settings.horizonDays})`,
		{
			itemIndex: q.itemIndex,
			description:
				found.slots === 0
					? `The posting times give no slot between ${new Date(from).toISOString()} and the horizon in ${settings.clock.zone}. Add 'Posting Times' or widen 'Horizon (Days)'. Nothing was scheduled for this item.`
					: `All ${found.full} slots of the posting times up to the horizon are full on ${on} ('Posts per Slot': ${settings.perSlot}). Widen 'Horizon (Days)', raise 'Posts per Slot' or add 'Posting Times'. Nothing was scheduled for this item.`,
		},
	);
}

async function schedule(connection: Connection, q: Queued, slot: Slot, explain: Explain) {
	const body: IDataObject = { content_id: q.contentId };
	if (q.chosen) body.platforms = q.chosen;
	body.scheduled_at = new Date(slot.at).toISOString();
	const { data } = await request<IDataObject>(connection, 'POST', '/social/publish', {
		...q.call,
		body,
		explain,
	});
	q.result = (data ?? {}) as IDataObject;
	if (q.slot) q.movedFrom.push(q.slot.local);
	q.slot = slot;
}

/** Publishes the post again into the slot `choose` gives; a refusal is its conflict. */
async function moveTo(
	connection: Connection,
	q: Queued,
	choose: () => Slot,
	explain: Explain,
): Promise<Slot | undefined> {
	try {
		const slot = choose();
		await schedule(connection, q, slot, explain);
		return slot;
	} catch (error) {
		q.conflict = `another post was scheduled first in its slot, and moving it failed: ${(error as Error).message}`;
		return undefined;
	}
}

/**
 * Reads the list back; moves each of this run's posts that another post reached first. A read
 * that fails leaves the posts where they are, unchecked; after the last read every post of the run
 * in a slot over Posts per Slot is reported, the one that keeps it too.
 */
async function verify(
	context: IExecuteFunctions,
	connection: Connection,
	placed: Queued[],
	now: number,
	explain: Explain,
	base: Scheduled,
): Promise<void> {
	/** Reads in a row that found a post of ours tied with a later one in an over-full slot. */
	const ties = new Map<Queued, number>();
	const call = placed[0].call;
	for (let read = 1; read <= VERIFY_READS; read++) {
		let posts: ListedPost[];
		let shortfall: string | undefined;
		try {
			const check = read === 1 ? await unchanged(connection, call, base, placed, now) : undefined;
			// Nothing else changed: every post keeps the slot it took with room.
			if (check?.same) return;
			({ posts, shortfall } = await readScheduled(connection, call, base.qs, check?.page));
		} catch (error) {
			shortfall = (error as Error).message;
			posts = [];
		}
		if (shortfall) {
			for (const q of placed) if (!q.conflict) q.unchecked = shortfall;
			return;
		}
		const listed = new Set(posts.map((post) => post.id));
		const moving: Queued[] = [];
		const yielding: Queued[] = [];
		let waiting = false;
		for (const q of placed) {
			q.listed = listed.has(q.contentId);
			if (q.conflict) continue;
			const [over] = crowded(posts, [q.contentId], q.settings.perSlot);
			// A tie the ids broke in our favour: the other post's execution may be done. Read
			// again; when the other post is still there, leave the slot to it.
			const tied = !over && tiedAfter(posts, q.contentId, q.settings.perSlot);
			ties.set(q, tied ? (ties.get(q) ?? 0) + 1 : 0);
			if (read < VERIFY_READS) {
				if (over) moving.push(q);
				else if ((ties.get(q) ?? 0) >= TIE_READS) yielding.push(q);
				else if (tied) waiting = true;
				continue;
			}
			const shared = overFull(posts, q.contentId, q.settings.perSlot);
			const where = `${q.slot?.local.replace('T', ' ')} (${q.settings.clock.zone})`;
			if (over) {
				q.conflict = `${over.before} other post${over.before > 1 ? 's were' : ' was'} scheduled first in ${where} on ${over.platform}, and the slot still held too many after ${VERIFY_READS - 1} moves`;
			} else if (shared) {
				q.conflict = `${where} holds ${shared.count} posts on ${shared.platform}, over 'Posts per Slot' (${q.settings.perSlot}); this post was scheduled first and stays`;
			}
		}
		const taken = occupancyOf(posts);
		for (const q of yielding) {
			release(taken, q.contentId);
			const slot = await moveTo(connection, q, () => pick(context, taken, q, now), explain);
			if (slot) take(taken, { id: q.contentId, at: slot.at, platforms: q.platforms });
			ties.set(q, 0);
		}
		if (moving.length === 0) {
			if (waiting || yielding.length) continue;
			return;
		}
		// Every crowded post of the list placed as every reader of this list would place it.
		const { settings } = moving[0];
		const { from, to } = windowOf(now, settings);
		const next = reassign(posts, settings.perSlot, () =>
			slotsBetween(settings.clock, settings.times, from, to),
		);
		const occupancy = occupancyOf(posts);
		for (const q of moving) {
			release(occupancy, q.contentId);
			const planned = next.get(q.contentId);
			// Another item's settings may differ: its own first free slot then.
			const slot = await moveTo(
				connection,
				q,
				() =>
					planned && sameQueue(q.settings, settings) ? planned : pick(context, occupancy, q, now),
				explain,
			);
			if (slot) take(occupancy, { id: q.contentId, at: slot.at, platforms: q.platforms });
		}
	}
}
