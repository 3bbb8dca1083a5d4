import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { projectLocator, readProjectId } from '../../../shared/domain/projects';
import { pathId } from '../../../shared/validation';
import { getPerItem } from '../../helpers/items';
import { readOutput, outputProperties } from '../../helpers/output';
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
	return await getPerItem(
		this,
		items,
		(itemIndex) => {
			const id = readProjectId(this.getNodeParameter('projectId', itemIndex, ''), true);
			return `/projects/${pathId('Project', id)}`;
		},
		(itemIndex) => {
			const output = readOutput(this, itemIndex);
			return (record) => shapeProjectOutput(record, output);
		},
	);
}
