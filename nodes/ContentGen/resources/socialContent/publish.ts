import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { platformOptions } from '../../../shared/domain/platforms';
import type { Explain } from '../../../shared/transport/refusals';
import { request } from '../../../shared/transport/request';
import { toIsoDate, validatePlatforms } from '../../../shared/validation';
import { runPerItem, type ItemWork } from '../../helpers/items';
import { callOptions, readRecordId } from '../../helpers/parameters';
import { additionalFields, optionsCollection, recordIdProperty } from '../../helpers/properties';
import type { OperationModule } from '../../helpers/types';
import { wantsQueue } from './queue/plan';
import { queueProperties } from './queue/properties';
import { publishWithQueue } from './queue/run';

export const option: OperationModule['option'] = {
	name: 'Publish',
	action: 'Publish social content',
	description:
		'Post finished social content to the connected social profiles now, schedule it, or queue it into the next free posting slot',
};

/** A publish's own refusals (spec §7.2): the service's words are quoted after these. */
const explain: Explain = (answer) => {
	if (answer.statusCode === 409) {
		return {
			message: 'The service refused to publish this social content again',
			hint: 'It is being published or has been published: publishing again is refused. Read it with Get to see its status; generate new content to post again.',
		};
	}
	if (answer.statusCode === 412) {
		return {
			message: 'The social content cannot be published yet',
			hint: "Either it is still generating (wait for completion first, e.g. with the 'Wait for Completion' operation) or the account has no connected social profile (connect one in the service).",
		};
	}
	return undefined;
};

export const properties: INodeProperties[] = [
	recordIdProperty(
		'socialContent',
		'The finished social content to post: pick it from the list, or give its ID',
	),
	...queueProperties,
	additionalFields([
		{
			displayName: 'Platforms',
			name: 'platforms',
			type: 'multiOptions',
			options: platformOptions,
			default: [],
			description: 'Publish only to these platforms. Empty: every platform of the social content.',
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
	optionsCollection(),
];

function statusNote(data: IDataObject, scheduled: boolean): string {
	if (scheduled) {
		return `Scheduled: the service will post at ${String(data.scheduled_at ?? 'the requested time')}.`;
	}
	return 'Accepted for publishing now. "publishing" describes this answer, not a record status; read the record later with Get to see its status.';
}

/** Reads and checks one item's publish; its work sends the one POST. */
function prepare(this: IExecuteFunctions, itemIndex: number): ItemWork {
	const contentId = readRecordId(this, 'socialContent', itemIndex);
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
	const call = { ...callOptions(this, itemIndex), body, explain };
	return async (connection) => {
		const { data } = await request<IDataObject>(connection, 'POST', '/social/publish', call);
		const result = (data ?? {}) as IDataObject;
		return {
			...result,
			publish_mode: scheduled ? 'scheduled' : 'now',
			status_note: statusNote(result, scheduled),
		};
	};
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	// A queue needs the items in order and the scheduled list read once for all of them.
	if (items.some((_item, itemIndex) => wantsQueue(this, itemIndex))) {
		return await publishWithQueue.call(this, items, (i) => prepare.call(this, i), explain);
	}
	return await runPerItem.call(this, items, (itemIndex) => prepare.call(this, itemIndex));
}
