import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection, simplifyProperty } from '../../helpers/descriptions';
import { readSwitch, runPerItem } from '../../helpers/items';
import { getForItem } from '../../helpers/requests';
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
		const simplify = readSwitch(this, 'simplify', itemIndex);
		const record = await getForItem(this, itemIndex, `/projects/${id}`);
		return shapeProjectOutput(record, simplify);
	});
}
