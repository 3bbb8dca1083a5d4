import { isSocialPending, SOCIAL_LIFECYCLE } from '../../shared/domain/statuses';
import type { CallOptions, Connection } from '../../shared/transport/request';
import type { SocialContent } from '../../shared/types';
import { pathId } from '../../shared/validation';
import { RECORD_IDS } from '../helpers/properties';
import { shapeSocial } from '../resources/socialContent/output';
import { readJob, type GenerationJob, type Observation } from './job';

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

/**
 * Social content: done once the status leaves generating/queued/draft; the single record is the
 * output. The spec gives the list no order, so where a record was seen says nothing next time.
 */
export const socialJob: GenerationJob = {
	noun: 'social content',
	idField: 'content_id',
	idLabel: CONTENT_ID,
	listEndpoint: '/social/content',
	listStatus: 'generating',
	listOrdered: false,
	pendingStatuses: SOCIAL_LIFECYCLE.pending,
	pollOne: fetchContent,
	fetchOne: fetchContent,
	shape: shapeSocial,
};
