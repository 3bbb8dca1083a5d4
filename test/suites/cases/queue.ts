/** Publish > Next Free Slot in the case table: a run that succeeds and bad queue settings. */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { integerOutside, notOneOf, wrongType } from './arbitraries';
import type { Field } from './types';

/** Publish > Next Free Slot with every day's 09:00 in UTC: a run that succeeds. */
export const QUEUED: IDataObject = {
	timing: 'nextFreeSlot',
	postingTimes: {
		time: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map(
			(weekday) => ({ weekday, timeOfDay: '09:00' }),
		),
	},
	// The suites' sandbox runs a day ahead of this machine's clock: slots from two days on.
	queueOptions: { timeZone: 'UTC', leadMinutes: 2880 },
};

export const badPostingTimes = fc.oneof(
	fc.constantFrom(
		{ time: [] },
		{ time: [{ weekday: 'funday', timeOfDay: '09:00' }] },
		{ time: [{ weekday: 'monday', timeOfDay: '24:00' }] },
		{ time: [{ weekday: 'monday', timeOfDay: '9' }] },
		{ time: [{ weekday: 'monday', timeOfDay: 900 }] },
		{ time: [{ weekday: 'Monday ', timeOfDay: '09:00' }] },
		{ time: Array.from({ length: 101 }, () => ({ weekday: 'monday', timeOfDay: '09:00' })) },
	),
	wrongType,
);

export const badTimeZone = fc.oneof(
	fc.constantFrom('Mars/Olympus_Mons', 'Europe/Atlantis', 'GMT+25', 'not a zone', '09:00'),
	wrongType.filter((v) => v !== undefined && v !== null),
);

/** Bad values of the timing and of every queue setting. */
export const QUEUE_FIELDS: Field[] = [
	{ path: 'timing', label: 'Timing', bad: notOneOf(['asSet', 'nextFreeSlot']) },
	{ path: 'postingTimes', label: 'Posting Times', bad: badPostingTimes, with: QUEUED },
	{ path: 'queueOptions.timeZone', label: 'Time Zone', bad: badTimeZone, with: QUEUED },
	{
		path: 'queueOptions.postsPerSlot',
		label: 'Posts per Slot',
		bad: integerOutside(1, 100),
		with: QUEUED,
	},
	{
		path: 'queueOptions.leadMinutes',
		label: 'Lead Time (Minutes)',
		bad: integerOutside(0, 43_200),
		with: QUEUED,
	},
	{
		path: 'queueOptions.horizonDays',
		label: 'Horizon (Days)',
		bad: integerOutside(1, 365),
		with: QUEUED,
	},
];
