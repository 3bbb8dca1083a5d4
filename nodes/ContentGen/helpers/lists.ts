import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequestAll } from '../../shared/transport';
import { validateLimit } from '../../shared/validation';
import { optionsCollection, showFor, simplifyProperty } from './descriptions';
import { maxRateLimitWaitMs, readSwitch, runPerItem } from './items';

/** What differs between the Get Many operations. */
export interface ListSpec {
	endpoint: string;
	/** The query string from the filters the user set; validates them. */
	query(filters: IDataObject): IDataObject;
	shape(record: IDataObject, simplify: boolean): IDataObject;
}

/** A Get Many's parameters: Return All and Limit (the n8n pattern for lists) around its Filters. */
export function listDescription(resource: string, filters: INodeProperties[]): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: showFor(resource, ['getMany']),
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: showFor(resource, ['getMany'], { returnAll: [false] }),
		},
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			displayOptions: showFor(resource, ['getMany']),
			options: filters,
		},
		simplifyProperty(resource, ['getMany']),
		optionsCollection(resource, 'getMany'),
	];
}

/** Undefined means every record; otherwise the validated limit. */
function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (readSwitch(context, 'returnAll', itemIndex)) return undefined;
	return validateLimit(context.getNodeParameter('limit', itemIndex, 50));
}

/** The filters collection with empty entries dropped (an emptied field in the UI is ''). */
function readFilters(context: IExecuteFunctions, itemIndex: number): IDataObject {
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

/** A Get Many per item; the limit and the filters are validated before anything is requested. */
export async function runList(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	spec: ListSpec,
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, async (itemIndex) => {
		const limit = readLimit(this, itemIndex);
		const qs = spec.query(readFilters(this, itemIndex));
		const simplify = readSwitch(this, 'simplify', itemIndex);
		const records = await apiRequestAll.call(this, spec.endpoint, qs, limit, {
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, itemIndex),
			itemIndex,
		});
		return (records as IDataObject[]).map((record) => spec.shape(record, simplify));
	});
}

export function pick(record: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) if (field in record) out[field] = record[field];
	return out;
}
