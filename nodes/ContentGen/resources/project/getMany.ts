import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { requireString } from '../../../shared/validation';
import { listProperties, runList } from '../../helpers/lists';
import type { OperationModule } from '../../helpers/types';
import { shapeProjectOutput } from './output';

export const option: OperationModule['option'] = {
	name: 'Get Many',
	action: 'Get many projects',
	description: 'List projects, optionally by status or business name. Free.',
};

export const properties = listProperties([
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
]);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runList.call(this, items, {
		endpoint: '/projects',
		query(filters) {
			const qs: IDataObject = {};
			if (filters.status !== undefined) qs.status = requireString('Status', filters.status).trim();
			if (filters.search !== undefined) qs.search = requireString('Search', filters.search);
			return qs;
		},
		shape: shapeProjectOutput,
	});
}
