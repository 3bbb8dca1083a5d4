import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { collect } from '../../shared/transport/pages';
import { assertOneOf } from '../../shared/validation';
import { runPerItem } from './items';
import { callOptions, readFilters, readLimit } from './parameters';
import { outputProperties, readOutput, type Output } from './output';
import { optionsCollection } from './properties';

/** What differs between the Get Many operations. */
interface ListSpec {
	endpoint: string;
	/** The query string from the filters the user set; validates them. */
	query(filters: IDataObject): IDataObject;
	shape(record: IDataObject, output: Output): IDataObject;
}

/** What a Get Many offers: its filters, sorting (a collection below Options), output fields. */
export interface ListParameters {
	filters: INodeProperties[];
	sort?: INodeProperties[];
	fields: readonly string[];
}

/** A Get Many's parameters: Return All and Limit (the n8n pattern for lists) around its Filters. */
export function listProperties(list: ListParameters): INodeProperties[] {
	const { filters, sort, fields } = list;
	const sortProperties: INodeProperties[] = sort
		? [
				{
					displayName: 'Sort',
					name: 'sort',
					type: 'collection',
					placeholder: 'Add Sort Rule',
					default: {},
					options: sort,
				},
			]
		: [];
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
		...outputProperties(fields),
		optionsCollection([
			{
				displayName: 'On Incomplete List',
				name: 'onIncompleteList',
				type: 'options',
				options: [
					{
						name: 'Return What Was Read, With a Warning',
						value: 'warn',
						description: 'The records read are output, and the warning says how many are missing',
					},
					{
						name: 'Stop the Item',
						value: 'error',
						description: 'The item stops with the numbers, and nothing is output for it',
					},
				],
				default: 'warn',
				description:
					"What to do when the service reports more records than could be read (it grew during the read, repeated pages, or the read hit its ceiling). Defaults to 'Return What Was Read, With a Warning'.",
			},
		]),
		...sortProperties,
	];
}

const ON_INCOMPLETE = ['warn', 'error'] as const;

/** The incomplete read, as the user asked to hear of it: a warning on the output or an error. */
function reportShortfall(
	context: IExecuteFunctions,
	itemIndex: number,
	items: number,
	shortfall: string,
	mode: (typeof ON_INCOMPLETE)[number],
): void {
	const advice =
		"Narrow the filters and read again, or choose 'Stop the Item' under Options > 'On Incomplete List' to stop instead.";
	if (mode === 'error') {
		throw new NodeOperationError(context.getNode(), shortfall, {
			itemIndex,
			description: 'Nothing was output for this item.',
		});
	}
	const where = items > 1 ? `Item ${itemIndex}: ` : '';
	context.addExecutionHints({
		message: `${where}${shortfall}. ${advice}`,
		type: 'warning',
		location: 'outputPane',
	});
}

/** A Get Many per item; the limit and the filters are validated before anything is requested. */
export async function runList(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	spec: ListSpec,
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, (itemIndex) => {
		const limit = readLimit(this, itemIndex);
		const qs = spec.query({
			...readFilters(this, itemIndex, 'filters'),
			...readFilters(this, itemIndex, 'sort'),
		});
		const output = readOutput(this, itemIndex);
		const call = callOptions(this, itemIndex);
		const onIncomplete = assertOneOf(
			'On Incomplete List',
			this.getNodeParameter('options.onIncompleteList', itemIndex, 'warn'),
			ON_INCOMPLETE,
		);
		return async (connection) => {
			const { records, shortfall } = await collect<IDataObject>(
				connection,
				spec.endpoint,
				qs,
				limit,
				call,
			);
			if (shortfall) reportShortfall(this, itemIndex, items.length, shortfall, onIncomplete);
			return records.map((record) => spec.shape(record, output));
		};
	});
}
