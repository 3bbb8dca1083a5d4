import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { assertUuid, toIsoDate, validatePlatforms } from '../../../shared/validation';
import {
	additionalFieldsCollection,
	optionsCollection,
	recordIdProperty,
} from '../../helpers/descriptions';
import { maxRateLimitWaitMs, runPerItem } from '../../helpers/items';
import { platformOptions } from '../../../shared/domain/platforms';

export const description: INodeProperties[] = [
	recordIdProperty(
		'socialContent',
		'publish',
		'ID (UUID) of a finished social content record to post to the connected social profiles',
	),
	additionalFieldsCollection('socialContent', 'publish', [
		{
			displayName: 'Platforms',
			name: 'platforms',
			type: 'multiOptions',
			options: platformOptions,
			default: [],
			description: 'Publish only to these platforms (default: every platform of the record)',
		},
		{
			displayName: 'Scheduled At',
			name: 'scheduledAt',
			type: 'dateTime',
			default: '',
			description:
				'Schedule the post for this date and time instead of publishing now (sent as UTC)',
		},
	]),
	optionsCollection('socialContent', 'publish'),
];

function statusNote(data: IDataObject, scheduled: boolean): string {
	if (scheduled) {
		return `Scheduled: the service will post at ${String(data.scheduled_at ?? 'the requested time')}.`;
	}
	return 'Accepted for publishing now. "publishing" describes this answer, not a record status; read the record later with Get to see its status.';
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, async (itemIndex) => {
		const contentId = assertUuid('Content ID', this.getNodeParameter('contentId', itemIndex));
		const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const body: IDataObject = { content_id: contentId };
		// Only an empty choice means "every platform": any other value must be a valid list.
		const platforms = fields.platforms;
		const noChoice =
			platforms === undefined ||
			platforms === null ||
			platforms === '' ||
			(Array.isArray(platforms) && platforms.length === 0);
		if (!noChoice) body.platforms = validatePlatforms('Platforms', platforms);
		const scheduled =
			fields.scheduledAt !== undefined && fields.scheduledAt !== null && fields.scheduledAt !== '';
		if (scheduled)
			body.scheduled_at = toIsoDate('Scheduled At', fields.scheduledAt, this.getTimezone());
		const { data } = await apiRequest.call(this, 'POST', '/social/publish', {
			body,
			cost: 0,
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, itemIndex),
			itemIndex,
		});
		const result = (data ?? {}) as IDataObject;
		return {
			...result,
			publish_mode: scheduled ? 'scheduled' : 'now',
			status_note: statusNote(result, scheduled),
		};
	});
}
