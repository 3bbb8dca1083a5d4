/**
 * The id of a change, the same whichever poll reports it: the kind of record, its id, the status
 * it changed to and its `updated_at`. Nothing the trigger remembers goes into it (not the previous
 * status), so a poll run again from an older state, a repeat, Fetch Test Event and a catch-up all
 * give one change the same id; two changes of one record differ in status or `updated_at`.
 */
import type { RecordKind } from './events';
import { time, type TrackedRecord } from './types';

/**
 * `updated_at` in one spelling (the list and the single record may write it differently); epoch
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
