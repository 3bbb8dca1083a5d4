/**
 * What an item holds of its record: the list's fields (spec 2.2, 2.3) whichever way the poll met
 * the record (a list, or by id for a repeat or a record found out of sight), so an expression on a
 * field works on every execution; Options > Full Record reads each reported social record by id
 * instead (1 request an item).
 */
import { ARTICLE_LIST_FIELDS, SOCIAL_LIST_FIELDS } from '../shared/domain/list-fields';
import type { RecordKind } from './events';
import type { EmittedItem } from './tracker/items';
import type { Reader, TrackedRecord } from './tracker/reader';

/** The fields the service's lists give (spec 2.2 and 2.3, "list items carry"). */
export const LIST_FIELDS: Record<RecordKind, readonly string[]> = {
	article: ARTICLE_LIST_FIELDS,
	social: SOCIAL_LIST_FIELDS,
};

/** An item; `full`: its record was read by id for Full Record. */
export type ShownItem = EmittedItem & { full?: boolean };

/** How an item shows its record: the list's fields, or the full record. */
export type ItemShape = 'list' | 'full';

/** The list's fields of a record, in the list's order; one the service did not send is null. */
function listShape(kind: RecordKind, record: TrackedRecord): Record<string, unknown> {
	const shaped: Record<string, unknown> = {};
	for (const field of LIST_FIELDS[kind]) shaped[field] = record[field] ?? null;
	return shaped;
}

/** The record an item shows. */
export function shapedRecord(item: ShownItem, shape: ItemShape): Record<string, unknown> {
	// Articles, and a social record Full Record could not read (gone since), keep the list's fields.
	if (shape === 'full' && item.full) return item.record;
	return listShape(item.kind, item.record);
}

/**
 * Full Record: each social item's record read by id, 1 request each, one after another (the
 * reader paces them within the key's budget and the poll's deadline). A record gone since the
 * poll met it keeps the list's fields; `gone` counts them.
 */
export async function readFullRecords(
	items: EmittedItem[],
	read: Reader,
): Promise<{ items: ShownItem[]; gone: number }> {
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
