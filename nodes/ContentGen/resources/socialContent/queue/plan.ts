import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { validateQueueSettings, type QueueSettings } from './settings';
import { describeTime, type Slot } from './slots';
import type { CallOptions } from '../../../../shared/transport/request';
import { assertOneOf, validatePlatforms, ValidationError } from '../../../../shared/validation';
import { callOptions, readRecordId } from '../../../helpers/parameters';

/** One item queued for the next free slot, and what became of it. */
export interface Queued {
	itemIndex: number;
	contentId: string;
	/** The Platforms field: what the publish sends; undefined for every platform of the record. */
	chosen?: string[];
	settings: QueueSettings;
	call: CallOptions;
	/** Every platform the record holds: the slots it takes. */
	platforms: string[];
	/** Its record was read; why it could not be: the item fails with it at its turn. */
	read?: boolean;
	unread?: unknown;
	slot?: Slot;
	result?: IDataObject;
	/** Slots it left because another post was there first (local times). */
	movedFrom: string[];
	conflict?: string;
	/** Why its slot could not be checked: the read back failed (the post stays where it is). */
	unchecked?: string;
	listed?: boolean;
}

export const TIMINGS = ['asSet', 'nextFreeSlot'] as const;

/** Anything but the default timing goes through the queue's run, which checks the value. */
export const wantsQueue = (context: IExecuteFunctions, itemIndex: number): boolean =>
	context.getNodeParameter('timing', itemIndex, 'asSet') !== 'asSet';

export const isQueued = (context: IExecuteFunctions, itemIndex: number): boolean =>
	assertOneOf('Timing', context.getNodeParameter('timing', itemIndex, 'asSet'), TIMINGS) ===
	'nextFreeSlot';

/** Reads and checks a queued item's parameters; sends nothing. */
export function planQueued(context: IExecuteFunctions, itemIndex: number): Queued {
	const contentId = readRecordId(context, 'socialContent', itemIndex);
	const fields = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	if (
		fields.scheduledAt !== undefined &&
		fields.scheduledAt !== null &&
		fields.scheduledAt !== ''
	) {
		throw new ValidationError(
			'Scheduled At',
			"'Scheduled At' cannot be used with 'Timing' set to 'Next Free Slot': the queue picks the time. Remove 'Scheduled At' or choose 'Now or at Scheduled At'.",
		);
	}
	const platforms = fields.platforms;
	const chosen =
		platforms === undefined ||
		platforms === null ||
		platforms === '' ||
		(Array.isArray(platforms) && platforms.length === 0)
			? undefined
			: validatePlatforms('Platforms', platforms);
	const options = context.getNodeParameter('queueOptions', itemIndex, {}) as IDataObject;
	const settings = validateQueueSettings({
		postingTimes: context.getNodeParameter('postingTimes', itemIndex, {}),
		timeZone: options.timeZone,
		workflowZone: context.getTimezone(),
		postsPerSlot: options.postsPerSlot,
		leadMinutes: options.leadMinutes,
		horizonDays: options.horizonDays,
	});
	const call = callOptions(context, itemIndex);
	return { itemIndex, contentId, chosen, settings, call, platforms: [], movedFrom: [] };
}

/** What a queued item outputs. */
export function queuedOutput(q: Queued): IDataObject {
	const slot = q.slot;
	const check = q.conflict
		? 'conflict'
		: q.unchecked
			? 'unchecked'
			: q.listed === false
				? 'not listed'
				: q.movedFrom.length
					? 'moved'
					: 'kept';
	const out: IDataObject = {
		...(q.result ?? {}),
		publish_mode: 'queued',
		slot: slot
			? {
					scheduled_at: new Date(slot.at).toISOString(),
					local_time: slot.local.replace('T', ' '),
					posting_time: describeTime(slot.time),
					time_zone: q.settings.clock.zone,
					platforms: q.platforms,
				}
			: null,
		slot_check: check,
	};
	if (q.movedFrom.length) out.moved_from = q.movedFrom.map((local) => local.replace('T', ' '));
	if (q.conflict) out.slot_conflict = q.conflict;
	out.status_note =
		check === 'unchecked'
			? `Scheduled, but the scheduled list could not be read back, so its slot was not checked against other workflows: ${q.unchecked}`
			: check === 'not listed'
				? 'Scheduled, but the post was not in the scheduled list when it was read back, so its slot could not be checked against other workflows.'
				: check === 'conflict'
					? `Scheduled, but its slot holds more posts than 'Posts per Slot' allows: ${q.conflict}`
					: `Queued: the service will post at ${slot ? new Date(slot.at).toISOString() : 'the slot time'} (${slot?.local.replace('T', ' ') ?? ''} ${q.settings.clock.zone}).`;
	return out;
}
