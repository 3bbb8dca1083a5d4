import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getPerItem } from '../../helpers/items';
import { outputProperties, readOutput } from '../../helpers/output';
import { readRecordId } from '../../helpers/parameters';
import { optionsCollection, recordIdProperty } from '../../helpers/properties';
import type { OperationModule } from '../../helpers/types';
import { ARTICLE_FIELDS, shapeArticleOutput } from './output';

export const option: OperationModule['option'] = {
	name: 'Get',
	action: 'Get article',
	description: 'Retrieve an article with its full HTML content',
};

export const properties: INodeProperties[] = [
	recordIdProperty(
		'article',
		'The article to read: pick it from the list, or give its ID, e.g. the ID a Generate output',
	),
	...outputProperties(ARTICLE_FIELDS),
	optionsCollection(),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await getPerItem(
		this,
		items,
		(itemIndex) => `/articles/${readRecordId(this, 'article', itemIndex)}`,
		(itemIndex) => {
			const output = readOutput(this, itemIndex);
			return (record) => shapeArticleOutput(record, output);
		},
	);
}
