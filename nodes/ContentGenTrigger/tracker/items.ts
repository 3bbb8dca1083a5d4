/**
 * What a change emits: the record, the selected events it matches and its event id; and Fetch
 * Test Event's item.
 */
import { definition, matching, type Previous, type RecordKind, type TriggerEvent } from '../events';
import { time, type TrackedRecord } from './reader';

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
	if (events.length === 0) return undefined;
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
		return {
			kind,
			event: fitting[0],
			events: fitting,
			previous,
			previousStatus: previous,
			eventId: eventIdOf(kind, record),
			record,
		};
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
