import type { INodePropertyOptions } from 'n8n-workflow';

import { resourceDescription } from '../../helpers/descriptions';
import type { ResourceOperations } from '../../helpers/types';
import * as generate from './generate';
import * as get from './get';
import * as getMany from './getMany';
import * as getStatus from './getStatus';
import * as waitForCompletion from './waitForCompletion';

export const operations: ResourceOperations = {
	generate,
	get,
	getMany,
	getStatus,
	waitForCompletion,
};

const OPERATION_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Generate',
		value: 'generate',
		description:
			'Start generating a long-form article for a project from a topic. Costs 1.5 credits. Asynchronous: optionally waits until it is finished.',
		action: 'Generate an article',
	},
	{
		name: 'Get',
		value: 'get',
		description: 'Get one article with its full HTML content. Free.',
		action: 'Get an article',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		description: 'List articles, filtered by status, project or title. Free.',
		action: 'Get many articles',
	},
	{
		name: 'Get Status',
		value: 'getStatus',
		description: "Get an article's generation progress and whether it is complete. Free.",
		action: 'Get the generation status of an article',
	},
	{
		name: 'Wait for Completion',
		value: 'waitForCompletion',
		description:
			'Poll an article until its generation finishes or fails (every 15 s, bounded). Free: polling costs no credits.',
		action: 'Wait for an article to finish generating',
	},
];

export const description = resourceDescription(
	'article',
	operations,
	OPERATION_OPTIONS,
	'generate',
);
