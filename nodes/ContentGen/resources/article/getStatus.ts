import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getPerItem } from '../../helpers/items';
import { readRecordId } from '../../helpers/parameters';
import { optionsCollection, recordIdProperty } from '../../helpers/properties';
import type { OperationModule } from '../../helpers/types';

export const option: OperationModule['option'] = {
	name: 'Get Status',
	action: 'Get article status',
	description: "Retrieve how far an article's generation has got and whether it is complete",
};

export const properties: INodeProperties[] = [
	recordIdProperty('article', 'ID (UUID) of the article whose generation progress to read'),
	optionsCollection(),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await getPerItem(
		this,
		items,
		(itemIndex) => `/articles/${readRecordId(this, 'article', itemIndex)}/status`,
	);
}
