import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readRecordId, readWaitSettings } from '../../helpers/parameters';
import { optionsCollection, recordIdProperty, waitOptions } from '../../helpers/properties';
import { outputProperties } from '../../helpers/output';
import type { OperationModule } from '../../helpers/types';
import { SOCIAL_FIELDS } from './fields';
import { runWait } from '../../jobs/finish';
import { socialJob } from '../../jobs/social';
import { readOutputOptions } from './output';
import { socialOutputOptions } from './outputOptions';

export const option: OperationModule['option'] = {
	name: 'Wait for Completion',
	action: 'Wait for social content completion',
	description: 'Wait until social content has finished generating, checking at a set interval',
};

export const properties: INodeProperties[] = [
	recordIdProperty(
		'socialContent',
		'The social content to wait for: pick it from the list, or give its ID, e.g. the ID a Generate output',
	),
	...outputProperties(SOCIAL_FIELDS),
	optionsCollection([...waitOptions('social', false), ...socialOutputOptions]),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runWait.call(this, items, socialJob, function (itemIndex) {
		// Checked now so a bad output option fails before the wait, not after it.
		readOutputOptions(this, itemIndex);
		return {
			itemIndex,
			id: readRecordId(this, 'socialContent', itemIndex),
			settings: readWaitSettings(this, itemIndex, 'social'),
		};
	});
}
