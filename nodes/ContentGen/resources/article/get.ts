import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { request } from '../../../shared/transport/request';
import { runPerItem } from '../../helpers/items';
import { outputProperties, readOutput } from '../../helpers/output';
import { callOptions, readRecordId } from '../../helpers/parameters';
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
	return await runPerItem.call(this, items, (itemIndex) => {
		const id = readRecordId(this, 'article', itemIndex);
		const output = readOutput(this, itemIndex);
		const call = callOptions(this, itemIndex);
		return async (connection) => {
			const { data } = await request<IDataObject>(connection, 'GET', `/articles/${id}`, call);
			return shapeArticleOutput(data, output);
		};
	});
}
