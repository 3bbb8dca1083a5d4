import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getPerItem } from '../../helpers/items';
import { readRecordId } from '../../helpers/parameters';
import { optionsCollection, recordIdProperty } from '../../helpers/properties';
import { outputProperties } from '../../helpers/output';
import type { OperationModule } from '../../helpers/types';
import { SOCIAL_FIELDS } from './fields';
import { readOutputOptions, shapeSocialOutput } from './output';
import { socialOutputOptions } from './outputOptions';

export const option: OperationModule['option'] = {
	name: 'Get',
	action: 'Get social content',
	description: 'Retrieve social content: captions, images, videos and first comments per platform',
};

export const properties: INodeProperties[] = [
	recordIdProperty(
		'socialContent',
		'The social content to read: pick it from the list, or give its ID, e.g. the ID a Generate output',
	),
	...outputProperties(SOCIAL_FIELDS),
	optionsCollection(socialOutputOptions),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await getPerItem(
		this,
		items,
		(itemIndex) => `/social/content/${readRecordId(this, 'socialContent', itemIndex)}`,
		(itemIndex) => {
			const output = readOutputOptions(this, itemIndex);
			return async (record) => await shapeSocialOutput.call(this, record, itemIndex, output);
		},
	);
}
