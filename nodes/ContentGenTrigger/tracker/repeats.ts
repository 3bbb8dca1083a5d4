/**
 * At-least-once delivery. Under n8n's durable poll cursors a poll's state is committed with the
 * execution of its items, and that execution may never start (n8n stopped right then): the items
 * are lost, and the next poll, starting from that state, does not see those changes again. So
 * each item is reported again by the next REPEATS polls that complete, with the same eventId
 * (./items), for n8n's Remove Duplicates node to drop what did arrive.
 *
 * The memory keeps a journal of the items reported by recent polls (at most JOURNAL_MAX). A repeat
 * shows the record as it is now: an article from the list pages the poll read anyway, else from
 * the top of the list; social content read by id (1 request each).
 */
import type { TriggerEvent } from '../events';
import { eventId, itemOf, type EmittedItem } from './items';
import type { Notes, PollRun } from './poll-run';
import { keyOf, time, type TrackedRecord } from './reader';
import type { Journal, JournalEntry } from './state/memory';

/** How often a change is reported, first and again: 1 + REPEATS times. */
export const REPEATS = 2;
export const JOURNAL_MAX = 100;

export type Delivery = 'exactlyOnce' | 'atLeastOnce';
export const DELIVERIES: readonly Delivery[] = ['exactlyOnce', 'atLeastOnce'];

const idOf = (entry: JournalEntry) => eventId(entry.kind, entry.id, entry.status, entry.updatedAt);

/** Articles of the journal not among `met`: read from the top of the list down to their time. */
async function findArticles(
	wanted: JournalEntry[],
	met: Map<string, TrackedRecord>,
	ctx: PollRun,
): Promise<void> {
	const left = () => wanted.filter((entry) => !met.has(entry.id));
	for (let page = 1; left().length > 0 && page <= ctx.maxArticlePages; page++) {
		// Records already met keep the version read first.
		const list = await ctx.articles(page, ctx.articlePageSize);
		for (const record of list.items) {
			const key = keyOf(record.id);
			if (key && !met.has(key)) met.set(key, record);
		}
		const last = list.items[list.items.length - 1];
		const below = left().every((entry) => time(last?.updated_at) < Number(entry.updatedAt));
		if (!list.hasMore || list.items.length === 0 || below) return;
	}
}

/**
 * The repeats of this poll: the journal's items of the last REPEATS polls, with their records as
 * they are now. `met`: articles this poll has read already, by key.
 */
export async function repeats(
	journal: Journal,
	events: readonly TriggerEvent[],
	met: Map<string, TrackedRecord>,
	ctx: PollRun,
): Promise<EmittedItem[]> {
	const due = journal.entries.filter((entry) => entry.poll >= journal.poll - REPEATS);
	await findArticles(
		due.filter((entry) => entry.kind === 'article'),
		met,
		ctx,
	);
	const items: EmittedItem[] = [];
	let gone = 0;
	let late = 0;
	for (const entry of due) {
		let record: TrackedRecord | null | undefined;
		if (entry.kind === 'article') record = met.get(entry.id);
		else if (late > 0) {
			late++;
			continue;
		} else {
			// Declined once half the poll's time is gone: the next poll may still repeat it.
			record = await ctx.recordIfTime(entry.id);
			if (record === undefined) {
				late++;
				continue;
			}
		}
		if (!record) gone++;
		const item =
			record && itemOf(entry.kind, entry.previousStatus, entry.status, record, events, idOf(entry));
		if (item) items.push(item);
	}
	if (gone > 0) ctx.notes.add(`${gone} record(s) to report again are no longer listed`);
	if (late > 0) ctx.notes.add(`${late} social record(s) not reported again yet: no time left`);
	return items;
}

/** The journal after this poll: its new items added, those repeated REPEATS times dropped. */
export function nextJournal(journal: Journal, reported: EmittedItem[], notes: Notes): Journal {
	const poll = journal.poll;
	const kept = journal.entries.filter((entry) => entry.poll > poll - REPEATS);
	for (const item of reported) {
		const id = keyOf(item.record.id);
		if (!id) continue;
		const stamp = time(item.record.updated_at);
		kept.push({
			poll,
			kind: item.kind,
			id,
			status: item.record.status,
			updatedAt: Number.isFinite(stamp) ? stamp : String(item.record.updated_at ?? ''),
			...(item.previous !== undefined ? { previousStatus: item.previous } : {}),
		});
	}
	const over = kept.length - JOURNAL_MAX;
	if (over > 0) {
		notes.add(
			`${over} change(s) will not be reported again: at most ${JOURNAL_MAX} are kept for repeats`,
		);
	}
	return { poll: poll + 1, entries: over > 0 ? kept.slice(over) : kept };
}

/**
 * At-least-once delivery in a poll: its repeats first (those of a change it reports anew left
 * out), then its own items; and the journal to store.
 */
export async function withRepeats(
	before: Journal = { poll: 0, entries: [] },
	items: EmittedItem[],
	events: readonly TriggerEvent[],
	met: Map<string, TrackedRecord>,
	ctx: PollRun,
): Promise<{ items: EmittedItem[]; journal: Journal }> {
	const again = await repeats(before, events, met, ctx);
	const fresh = new Set(items.map((item) => item.eventId));
	const repeated = again.filter((item) => !fresh.has(item.eventId));
	const journal = nextJournal(before, items, ctx.notes);
	return { items: repeated.length > 0 ? [...repeated, ...items] : items, journal };
}
