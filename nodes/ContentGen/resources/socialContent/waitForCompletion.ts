import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { isSocialPending, SOCIAL_LIFECYCLE } from '../../../shared/domain/statuses';
import type { CallOptions, Connection } from '../../../shared/transport/request';
import type { SocialContent } from '../../../shared/types';
import { pathId } from '../../../shared/validation';
import { runWait } from '../../helpers/generation';
import { readRecordId, readWaitSettings } from '../../helpers/parameters';
import {
	optionsCollection,
	RECORD_IDS,
	recordIdProperty,
	simplifyProperty,
	waitOptions,
} from '../../helpers/properties';
import type { OperationModule } from '../../helpers/types';
import type { GenerationJob, Observation } from '../../helpers/wait';
import { readJob } from '../../helpers/wait';
import { readOutputOptions, shapeSocial } from './output';
import { socialOutputOptions } from './outputOptions';

const CONTENT_ID = RECORD_IDS.socialContent.displayName;

async function fetchContent(
	connection: Connection,
	id: string,
	call: CallOptions,
): Promise<Observation> {
	const { data, status } = await readJob<SocialContent>(
		connection,
		`/social/content/${pathId(CONTENT_ID, id)}`,
		call,
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
export const socialJob: GenerationJob = {
	noun: 'social content',
	idField: 'content_id',
	idLabel: CONTENT_ID,
	listEndpoint: '/social/content',
	listStatus: 'generating',
	pendingStatuses: SOCIAL_LIFECYCLE.pending,
	pollOne: fetchContent,
	fetchOne: fetchContent,
};

export const option: OperationModule['option'] = {
	name: 'Wait for Completion',
	action: 'Wait for social content to finish generating',
	description:
		'Poll a social content record until it finishes generating or fails (every 5 s, bounded). Free: polling costs no credits.',
};

export const properties: INodeProperties[] = [
	recordIdProperty(
		'socialContent',
		'ID (UUID) of the social content record to wait for, e.g. the content_id a Generate returned',
	),
	simplifyProperty(),
	optionsCollection([...waitOptions('social', false), ...socialOutputOptions]),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runWait.call(this, items, {
		job: socialJob,
		prepare(itemIndex) {
			// Checked now so a bad output option fails before the wait, not after it.
			readOutputOptions(this, itemIndex);
			return {
				itemIndex,
				id: readRecordId(this, 'socialContent', itemIndex),
				settings: readWaitSettings(this, itemIndex, 'social'),
			};
		},
		shape: shapeSocial,
	});
}
