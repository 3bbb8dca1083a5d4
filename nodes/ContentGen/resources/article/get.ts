import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { request } from '../../../shared/transport/request';
import { runPerItem } from '../../helpers/items';
import { callOptions, readRecordId, readSwitch } from '../../helpers/parameters';
import { optionsCollection, recordIdProperty, simplifyProperty } from '../../helpers/properties';
import type { OperationModule } from '../../helpers/types';
import { shapeArticleOutput } from './output';

export const option: OperationModule['option'] = {
	name: 'Get',
	action: 'Get an article',
	description: 'Get one article with its full HTML content. Free.',
};

export const properties: INodeProperties[] = [
	recordIdProperty('article', 'ID (UUID) of the article, e.g. the article_id a Generate returned'),
	simplifyProperty(),
	optionsCollection(),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, (itemIndex) => {
		const id = readRecordId(this, 'article', itemIndex);
		const simplify = readSwitch(this, 'simplify', itemIndex);
		const call = callOptions(this, itemIndex);
		return async (connection) => {
			const { data } = await request<IDataObject>(connection, 'GET', `/articles/${id}`, call);
			return shapeArticleOutput(data, simplify);
		};
	});
}
