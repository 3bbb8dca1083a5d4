import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { projectLocator, readProjectId } from '../../../shared/domain/projects';
import { request } from '../../../shared/transport/request';
import { pathId } from '../../../shared/validation';
import { runPerItem } from '../../helpers/items';
import { readOutput, outputProperties } from '../../helpers/output';
import { callOptions } from '../../helpers/parameters';
import { optionsCollection } from '../../helpers/properties';
import type { OperationModule } from '../../helpers/types';
import { PROJECT_FIELDS, shapeProjectOutput } from './output';

export const option: OperationModule['option'] = {
	name: 'Get',
	action: 'Get project',
	description: 'Retrieve a project: business name, website, language and business context',
};

export const properties: INodeProperties[] = [
	projectLocator('The project to get, with its brand, tone and business context', {
		required: true,
	}),
	...outputProperties(PROJECT_FIELDS),
	optionsCollection(),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, (itemIndex) => {
		const id = pathId(
			'Project',
			readProjectId(this.getNodeParameter('projectId', itemIndex, ''), true),
		);
		const output = readOutput(this, itemIndex);
		const call = callOptions(this, itemIndex);
		return async (connection) => {
			const { data } = await request<IDataObject>(connection, 'GET', `/projects/${id}`, call);
			return shapeProjectOutput(data, output);
		};
	});
}
