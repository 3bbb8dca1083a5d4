import type { INodePropertyOptions } from 'n8n-workflow';

import { resourceDescription } from '../../helpers/descriptions';
import type { ResourceOperations } from '../../helpers/types';
import * as generate from './generate';
import * as get from './get';
import * as getMany from './getMany';
import * as publish from './publish';
import * as waitForCompletion from './waitForCompletion';

export const operations: ResourceOperations = {
	generate,
	get,
	getMany,
	publish,
	waitForCompletion,
};

const OPERATION_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Generate',
		value: 'generate',
		description:
			'Start generating posts for 1-10 platforms from a URL (website, blog or YouTube). Costs 0.6 credits per platform. Asynchronous: optionally waits until it is finished.',
		action: 'Generate social content',
	},
	{
		name: 'Get',
		value: 'get',
		description:
			'Get one social content record: captions, images, videos and first comments per platform, optionally one item per platform with the images as binary data. Free.',
		action: 'Get social content',
	},
	{
		name: 'Get Many',
		value: 'getMany',
		description:
			'List social content records, filtered by platform, status, article or project. Free.',
		action: 'Get many social content records',
	},
	{
		name: 'Publish',
		value: 'publish',
		description:
			'Post a finished record to the connected social profiles now, or schedule it. Costs 0 credits. Needs a connected profile; refused while generating or once published.',
		action: 'Publish social content',
	},
	{
		name: 'Wait for Completion',
		value: 'waitForCompletion',
		description:
			'Poll a social content record until it finishes generating or fails (every 5 s, bounded). Free: polling costs no credits.',
		action: 'Wait for social content to finish generating',
	},
];

export const description = resourceDescription(
	'socialContent',
	operations,
	OPERATION_OPTIONS,
	'generate',
);
