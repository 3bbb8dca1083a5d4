import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { pathId } from '../../../shared/validation';
import { optionsCollection, recordIdProperty } from '../../helpers/descriptions';
import { maxRateLimitWaitMs, runPerItem } from '../../helpers/items';

export const description: INodeProperties[] = [
	recordIdProperty(
		'article',
		'getStatus',
		'ID (UUID) of the article whose generation progress to read',
	),
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
