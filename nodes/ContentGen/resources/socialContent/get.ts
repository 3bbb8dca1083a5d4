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
import { simplifyProperty } from '../../helpers/lists';
import { socialOutputOptions } from './descriptions';
import { maxImageBytes, shapeSocialOutput } from './output';

export const description: INodeProperties[] = [
	{
		displayName: 'Content ID',
		name: 'contentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
		description: 'ID (UUID) of the social content record, e.g. the content_id a Generate returned',
		displayOptions: { show: { resource: ['socialContent'], operation: ['get'] } },
	},
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
