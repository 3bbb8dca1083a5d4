import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { requireString } from '../../../shared/validation';
import { listProperties, runList } from '../../helpers/lists';
import type { OperationModule } from '../../helpers/types';
import { PROJECT_FIELDS, shapeProjectOutput } from './output';

export const option: OperationModule['option'] = {
	name: 'Get Many',
	action: 'Get many projects',
	description: 'Retrieve a list of projects, by status or business name',
};

const search: INodeProperties = {
	displayName: 'Search',
	name: 'search',
	type: 'string',
	default: '',
	placeholder: 'e.g. bakery',
	description: 'Only projects whose business name contains this text (any case)',
};

/** The project statuses the service is known to use; it may use others (an expression can give them). */
const PROJECT_STATUSES = ['active', 'completed', 'generating', 'pending', 'ready'];

export const properties = listProperties({
	filters: [
		search,
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: PROJECT_STATUSES.map((value) => ({
				name: value.charAt(0).toUpperCase() + value.slice(1),
				value,
			})),
			default: 'active',
			description: 'Only projects in this status',
		},
	],
	fields: PROJECT_FIELDS,
});

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
