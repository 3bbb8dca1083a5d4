import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { pathId } from '../../../shared/validation';
import { optionsCollection, recordIdProperty, simplifyProperty } from '../../helpers/descriptions';
import { maxRateLimitWaitMs, runPerItem } from '../../helpers/items';
import { socialOutputOptions } from './descriptions';
import { maxImageBytes, shapeSocialOutput } from './output';

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
		const maxBytes = maxImageBytes(options.maxImageSizeMb);
		const { data } = await apiRequest.call(this, 'GET', `/social/content/${id}`, {
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, itemIndex),
			itemIndex,
		});
		return await shapeSocialOutput.call(this, data as IDataObject, itemIndex, {
			simplify: this.getNodeParameter('simplify', itemIndex, false) === true,
			splitByPlatform: options.splitByPlatform === true,
			downloadImages: options.downloadImages === true,
			maxImageBytes: maxBytes,
		});
	});
}
