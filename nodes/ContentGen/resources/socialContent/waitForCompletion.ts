import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { isSocialPending, SOCIAL_LIFECYCLE } from '../../../shared/domain/statuses';
import type { SocialContent } from '../../../shared/types';
import { assertUuid, pathId } from '../../../shared/validation';
import { optionsCollection, recordIdProperty, simplifyProperty } from '../../helpers/descriptions';
import { runWait } from '../../helpers/generation';
import type { JobKind, Observation, PollOptions } from '../../helpers/waiting';
import { readJob, readWaitSettings, waitOptions } from '../../helpers/waiting';
import { socialOutputOptions } from './descriptions';
import { maxImageBytes, shapeSocial } from './output';

async function fetchContent(
	context: IExecuteFunctions,
	id: string,
	options: PollOptions,
): Promise<Observation> {
	const { data, status } = await readJob<SocialContent>(
		context,
		`/social/content/${pathId('Content ID', id)}`,
		options,
	);
	if (isSocialPending(status)) {
		const progress =
			typeof data?.processing_progress === 'number' ? data.processing_progress : undefined;
		return { state: 'pending', status, progress };
	}
	if (status === 'failed') {
		const reason =
			typeof data?.error_message === 'string' && data.error_message
				? data.error_message
				: undefined;
		return { state: 'failed', status, reason };
	}
	return { state: 'finished', status, record: data };
}

/** Social content: done once the status leaves generating/queued/draft; the single record is the output. */
export const socialJob: JobKind = {
	noun: 'social content',
	idField: 'content_id',
	idLabel: 'Content ID',
	listEndpoint: '/social/content',
	listStatus: 'generating',
	pendingStatuses: SOCIAL_LIFECYCLE.pending,
	pollOne: fetchContent,
	fetchOne: fetchContent,
};

export const description: INodeProperties[] = [
	recordIdProperty(
		'socialContent',
		'waitForCompletion',
		'ID (UUID) of the social content record to wait for, e.g. the content_id a Generate returned',
	),
	simplifyProperty('socialContent', ['waitForCompletion']),
	optionsCollection('socialContent', 'waitForCompletion', [
		...waitOptions('social', false),
		...socialOutputOptions,
	]),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runWait.call(this, items, {
		kind: socialJob,
		prepare(itemIndex) {
			const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
			// Checked now so a bad size fails before the wait, not after it.
			maxImageBytes(options.maxImageSizeMb);
			return {
				itemIndex,
				id: assertUuid('Content ID', this.getNodeParameter('contentId', itemIndex)),
				settings: readWaitSettings(this, itemIndex, 'social'),
			};
		},
		shape: shapeSocial,
	});
}
