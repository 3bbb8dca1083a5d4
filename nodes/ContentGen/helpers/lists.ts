import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { collect } from '../../shared/transport/pages';
import { connect } from '../../shared/transport/request';
import { runPerItem } from './items';
import { callOptions, readFilters, readLimit, readSwitch } from './parameters';
import { optionsCollection, simplifyProperty } from './properties';

/** What differs between the Get Many operations. */
interface ListSpec {
	endpoint: string;
	/** The query string from the filters the user set; validates them. */
	query(filters: IDataObject): IDataObject;
	shape(record: IDataObject, simplify: boolean): IDataObject;
}

/** A Get Many's parameters: Return All and Limit (the n8n pattern for lists) around its Filters. */
export function listProperties(filters: INodeProperties[]): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: filters,
		},
		simplifyProperty(),
		optionsCollection(),
	];
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
		const call = callOptions(this, itemIndex);
		const records = await collect<IDataObject>(await connect(this), spec.endpoint, qs, limit, call);
		return records.map((record) => spec.shape(record, simplify));
	});
}

export function pick(record: IDataObject, fields: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const field of fields) if (field in record) out[field] = record[field];
	return out;
}
