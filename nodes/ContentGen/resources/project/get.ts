import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { optionsCollection, simplifyProperty } from '../../helpers/descriptions';
import { maxRateLimitWaitMs, runPerItem } from '../../helpers/items';
import { projectLocator, resolveProjectId } from '../../helpers/project';
import { shapeProjectOutput } from './output';

export const description: INodeProperties[] = [
	projectLocator({
		resource: 'project',
		operations: ['get'],
		required: true,
		description: 'The project to get, with its brand, tone and business context',
	}),
	simplifyProperty('project', ['get']),
	optionsCollection('project', 'get'),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, async (itemIndex) => {
		const id = encodeURIComponent(
			resolveProjectId.call(this, itemIndex, 'projectId', true) as string,
		);
		const simplify = this.getNodeParameter('simplify', itemIndex, false) === true;
		const { data } = await apiRequest.call(this, 'GET', `/projects/${id}`, {
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, itemIndex),
			itemIndex,
		});
		return shapeProjectOutput(data as IDataObject, simplify);
	});
}
