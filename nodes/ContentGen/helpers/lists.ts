import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { validateLimit } from '../../shared/validation';

/** Return All + Limit, the n8n pattern for lists. */
export function returnAllAndLimit(resource: string, operation: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show: { resource: [resource], operation: [operation] } },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: {
				show: { resource: [resource], operation: [operation], returnAll: [false] },
			},
		},
	];
}

/** Undefined means every record; otherwise the validated limit. */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (context.getNodeParameter('returnAll', itemIndex, false) === true) return undefined;
	return validateLimit(context.getNodeParameter('limit', itemIndex, 50));
}

/** The filters collection with empty entries dropped (an emptied field in the UI is ''). */
export function readFilters(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const filters: IDataObject = {};
	for (const [key, value] of Object.entries(raw ?? {})) {
		if (value === undefined || value === null) continue;
		if (typeof value === 'string' && value.trim() === '') continue;
		if (
			typeof value === 'object' &&
			!Array.isArray(value) &&
			'value' in value &&
			(value.value === '' || value.value === undefined)
		)
			continue;
		filters[key] = value;
	}
	return filters;
}

export function pick(record: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) if (field in record) out[field] = record[field];
	return out;
}
