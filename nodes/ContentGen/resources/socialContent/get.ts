import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { pathId } from '../../../shared/validation';
import { optionsCollection, recordIdProperty, simplifyProperty } from '../../helpers/descriptions';
import { runPerItem } from '../../helpers/items';
import { getForItem } from '../../helpers/requests';
import { socialOutputOptions } from './descriptions';
import { maxImageBytes, shapeSocial } from './output';

export const description: INodeProperties[] = [
	recordIdProperty(
		'socialContent',
		'get',
		'ID (UUID) of the social content record, e.g. the content_id a Generate returned',
	),
	simplifyProperty('socialContent', ['get']),
	optionsCollection('socialContent', 'get', socialOutputOptions),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, async (itemIndex) => {
		const id = pathId('Content ID', this.getNodeParameter('contentId', itemIndex));
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		// Checked now so a bad size fails before the request, not after it.
		maxImageBytes(options.maxImageSizeMb);
		const record = await getForItem(this, itemIndex, `/social/content/${id}`);
		return await shapeSocial.call(this, record, itemIndex);
	});
}
