/**
 * Every item the trigger gives is built here, whichever path met its change (a poll's first
 * report, a catch-up, a record found out of sight, a repeat of At Least Once, Fetch Test Event):
 * the selected events it matches (`itemOf`), its event id, and what n8n receives (`itemJson`): the
 * list's fields of its record (spec 2.2, 2.3) whichever way the poll met it, so an expression on a
 * field works on every execution, or with Options > Full Record the social record read by id
 * (`readFullRecords`, 1 request an item).
 */
import { ARTICLE_LIST_FIELDS, SOCIAL_LIST_FIELDS } from '../../shared/domain/list-fields';
import { definition, matching, type Previous, type RecordKind, type TriggerEvent } from '../events';
import { time, type Reader, type TrackedRecord } from './reader';

/** One observed change of one record. */
export interface Change {
	previous: Previous;
	record: TrackedRecord;
}

/** One item per change: `event` is the first selected event it matches, `events` all of them. */
export interface EmittedItem {
	kind: RecordKind;
	event: TriggerEvent;
	events: TriggerEvent[];
	/** Where the record was: a status, null (unknown) or undefined (new). */
	previous: Previous;
	previousStatus: string | null;
	/** The change's id (eventIdOf). */
	eventId: string;
	record: TrackedRecord;
}

/**
 * The item of a record that went from `previous` to `status` (its status then: a repeat shows the
 * record as it is now), when a selected event matches.
 */
export function itemOf(
	kind: RecordKind,
	previous: Previous,
	status: string,
	record: TrackedRecord,
	selected: readonly TriggerEvent[],
	eventId: string,
): EmittedItem | undefined {
	const events = matching(selected, kind, previous, status);
	return events.length === 0 ? undefined : emitted(kind, events, previous, record, eventId);
}

function emitted(
	kind: RecordKind,
	events: TriggerEvent[],
	previous: Previous,
	record: TrackedRecord,
	eventId: string,
): EmittedItem {
	return {
		kind,
		event: events[0],
		events,
		previous,
		previousStatus: previous ?? null,
		eventId,
		record,
	};
}

/** The items of a poll's changes of one kind, oldest change first. */
export function itemsOf(
	changes: Change[],
	kind: RecordKind,
	selected: readonly TriggerEvent[],
): EmittedItem[] {
	const ordered = [...changes].sort(
		(a, b) => (time(a.record.updated_at) || 0) - (time(b.record.updated_at) || 0),
	);
	const items: EmittedItem[] = [];
	for (const { previous, record } of ordered) {
		const id = eventIdOf(kind, record);
		const item = itemOf(kind, previous, record.status, record, selected, id);
		if (item) items.push(item);
	}
	return items;
}

/** Fetch Test Event: the most recent record that could have produced a selected event. */
export function pickTestEvent(
	records: TrackedRecord[],
	events: readonly TriggerEvent[],
): EmittedItem | undefined {
	const sorted = [...records].sort((a, b) => (time(b.updated_at) || 0) - (time(a.updated_at) || 0));
	for (const record of sorted) {
		const fitting = events.filter((e) => definition(e).example(record.status) !== false);
		if (fitting.length === 0) continue;
		const previous = definition(fitting[0]).example(record.status) as string | null;
		const kind = definition(fitting[0]).kind;
		return emitted(kind, fitting, previous, record, eventIdOf(kind, record));
	}
	return undefined;
}

/**
 * Event ids. The id of a change, the same whichever poll reports it: the kind of record, its id, the status
 * it changed to and its `updated_at`. Nothing the trigger remembers goes into it (not the previous
 * status), so a poll run again from an older state, a repeat, Fetch Test Event and a catch-up all
 * give one change the same id; two changes of one record differ in status or `updated_at`.
 */

/**
 * `updated_at` in one spelling (a list and a record read by id may write it differently); epoch
 * ms as the state keeps it.
 */
function stamp(updatedAt: unknown): string {
	const at = typeof updatedAt === 'number' ? updatedAt : time(updatedAt);
	return Number.isFinite(at) ? new Date(at).toISOString() : String(updatedAt ?? '');
}

export function eventId(kind: RecordKind, id: string, status: string, updatedAt: unknown): string {
	return `${kind}:${id.toLowerCase()}:${status}:${stamp(updatedAt)}`;
}

export function eventIdOf(kind: RecordKind, record: TrackedRecord): string {
	return eventId(kind, String(record.id), record.status, record.updated_at);
}

// ----- what n8n receives -----

/** The fields the service's lists give (spec 2.2 and 2.3, "list items carry"). */
export const LIST_FIELDS: Record<RecordKind, readonly string[]> = {
	article: ARTICLE_LIST_FIELDS,
	social: SOCIAL_LIST_FIELDS,
};

/** An item; `full`: its record was read by id for Full Record. */
export type ShownItem = EmittedItem & { full?: boolean };

/** How an item shows its record: the list's fields, or the full record. */
export type ItemShape = 'list' | 'full';

/** The record an item shows: the list's fields in the list's order, one not sent null. */
function shapedRecord(item: ShownItem, shape: ItemShape): Record<string, unknown> {
	// Articles, and a social record Full Record could not read (gone since), keep the list's fields.
	if (shape === 'full' && item.full) return item.record;
	const shaped: Record<string, unknown> = {};
	for (const field of LIST_FIELDS[item.kind]) shaped[field] = item.record[field] ?? null;
	return shaped;
}

/** An item's JSON: the record, its events and previous status, its event id; `behind` while late. */
export function itemJson(
	item: ShownItem,
	shape: ItemShape,
	late?: string,
): Record<string, unknown> {
	return {
		...shapedRecord(item, shape),
		event: item.event,
		events: item.events,
		previousStatus: item.previousStatus,
		eventId: item.eventId,
		...(late ? { behind: late } : {}),
	};
}

/**
 * Full Record: each social item's record read by id, 1 request each, one after another (the
 * reader paces them within the key's budget and the poll's deadline); the items as they are under
 * the list's fields. A record gone since the poll met it keeps the list's fields; `gone` counts
 * them.
 */
export async function readFullRecords(
	items: EmittedItem[],
	shape: ItemShape,
	read: Reader,
): Promise<{ items: ShownItem[]; gone: number }> {
	if (shape !== 'full') return { items, gone: 0 };
	const out: ShownItem[] = [];
	let gone = 0;
	for (const item of items) {
		if (item.kind !== 'social') {
			out.push(item);
			continue;
		}
		const reply = await read({ kind: 'socialRecord', id: String(item.record.id) });
		if (reply && 'id' in reply) out.push({ ...item, record: reply as TrackedRecord, full: true });
		else {
			gone++;
			out.push(item);
		}
	}
	return { items: out, gone };
}

/** n8n's log line when Full Record found records gone. */
export function goneNotice(gone: number): string | undefined {
	if (gone === 0) return undefined;
	return `ContentGen Trigger: ${gone} social record(s) no longer exist, so 'Full Record' could not read them: their items carry the list's fields`;
}
