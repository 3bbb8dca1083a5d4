import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { pathId } from '../../../shared/validation';
import { optionsCollection, recordIdProperty } from '../../helpers/descriptions';
import { runPerItem } from '../../helpers/items';
import { getForItem } from '../../helpers/requests';

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
		return await getForItem(this, itemIndex, `/articles/${id}/status`);
	});
}
