import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { pathId } from '../../../shared/validation';
import { optionsCollection } from '../../helpers/descriptions';
import { maxRateLimitWaitMs, runPerItem } from '../../helpers/items';

export const description: INodeProperties[] = [
	{
		displayName: 'Article ID',
		name: 'articleId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
		description: 'ID (UUID) of the article whose generation progress to read',
		displayOptions: { show: { resource: ['article'], operation: ['getStatus'] } },
	},
	optionsCollection('article', 'getStatus'),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, async (itemIndex) => {
		const id = pathId('Article ID', this.getNodeParameter('articleId', itemIndex));
		const { data } = await apiRequest.call(this, 'GET', `/articles/${id}/status`, {
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, itemIndex),
			itemIndex,
		});
		return data as IDataObject;
	});
}
