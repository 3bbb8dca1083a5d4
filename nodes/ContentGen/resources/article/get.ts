import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { pathId } from '../../../shared/validation';
import { optionsCollection, recordIdProperty, simplifyProperty } from '../../helpers/descriptions';
import { readSwitch, runPerItem } from '../../helpers/items';
import { getForItem } from '../../helpers/requests';
import { shapeArticleOutput } from './output';

export const description: INodeProperties[] = [
	recordIdProperty(
		'article',
		'get',
		'ID (UUID) of the article, e.g. the article_id a Generate returned',
	),
	simplifyProperty('article', ['get']),
	optionsCollection('article', 'get'),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, async (itemIndex) => {
		const id = pathId('Article ID', this.getNodeParameter('articleId', itemIndex));
		const simplify = readSwitch(this, 'simplify', itemIndex);
		const record = await getForItem(this, itemIndex, `/articles/${id}`);
		return shapeArticleOutput(record, simplify);
	});
}
