import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequestAll } from '../../../shared/transport';
import { requireString } from '../../../shared/validation';
import { optionsCollection, simplifyProperty } from '../../helpers/descriptions';
import { maxRateLimitWaitMs, runPerItem } from '../../helpers/items';
import { readFilters, readLimit, returnAllAndLimit } from '../../helpers/lists';
import { shapeProjectOutput } from './output';

export const description: INodeProperties[] = [
	...returnAllAndLimit('project', 'getMany'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['project'], operation: ['getMany'] } },
		options: [
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				description: 'Case-insensitive partial match on the business name',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				placeholder: 'e.g. active',
				description:
					'Only projects with exactly this status (free text, e.g. active, completed, ready, pending, generating)',
			},
		],
	},
	simplifyProperty('project', ['getMany']),
	optionsCollection('project', 'getMany'),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, async (itemIndex) => {
		const limit = readLimit(this, itemIndex);
		const filters = readFilters(this, itemIndex);
		const qs: IDataObject = {};
		if (filters.status !== undefined) qs.status = requireString('Status', filters.status).trim();
		if (filters.search !== undefined) qs.search = requireString('Search', filters.search);
		const simplify = this.getNodeParameter('simplify', itemIndex, false) === true;
		const records = await apiRequestAll.call(this, '/projects', qs, limit, {
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, itemIndex),
			itemIndex,
		});
		return (records as IDataObject[]).map((record) => shapeProjectOutput(record, simplify));
	});
}
