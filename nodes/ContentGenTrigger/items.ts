/** What a change emits: the record, the selected events it matches and its event id. */
import { matching, type Previous, type RecordKind, type TriggerEvent } from './events';
import { eventIdOf } from './event-id';
import { time, type Change, type TrackedRecord } from './types';

/** One item per transition: `event` is the first selected event it matches, `events` all of them. */
export interface EmittedItem {
	kind: RecordKind;
	event: TriggerEvent;
	events: TriggerEvent[];
	/** Where the record was: a status, null (unknown) or undefined (new). */
	previous: Previous;
	previousStatus: string | null;
	/** The change's id: ./event-id. */
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
