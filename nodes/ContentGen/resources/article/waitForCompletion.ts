import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { readRecordId, readWaitSettings } from '../../helpers/parameters';
import { optionsCollection, recordIdProperty, waitOptions } from '../../helpers/properties';
import { outputProperties, readOutput } from '../../helpers/output';
import type { OperationModule } from '../../helpers/types';
import { ARTICLE_FIELDS } from './output';
import { articleJob } from '../../jobs/article';
import { runWait } from '../../jobs/finish';

export const option: OperationModule['option'] = {
	name: 'Wait for Completion',
	action: 'Wait for article completion',
	description: 'Wait until an article has finished generating, checking at a set interval',
};

export const properties: INodeProperties[] = [
	recordIdProperty(
		'article',
		'The article to wait for: pick it from the list, or give its ID, e.g. the ID a Generate output',
	),
	...outputProperties(ARTICLE_FIELDS),
	optionsCollection(waitOptions('article', false)),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runWait.call(this, items, articleJob, function (itemIndex) {
		readOutput(this, itemIndex);
		return {
			itemIndex,
			id: readRecordId(this, 'article', itemIndex),
			settings: readWaitSettings(this, itemIndex, 'article'),
		};
	});
}
