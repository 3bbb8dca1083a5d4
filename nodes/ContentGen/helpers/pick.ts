import type { IDataObject } from 'n8n-workflow';

/** The record's fields of this list that it has, in the list's order. */
export function pick(record: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) if (field in record) out[field] = record[field];
	return out;
}
