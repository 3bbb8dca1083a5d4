import type { INodeProperties } from 'n8n-workflow';

import { QUEUE } from './settings';
import { WEEKDAYS } from './slots';

const queued = { show: { timing: ['nextFreeSlot'] } };

/**
 * Publish's timing and the queue settings. "Now or at Scheduled At" is what Publish always did,
 * so a saved workflow without the parameter keeps its behaviour.
 */
export const queueProperties: INodeProperties[] = [
	{
		displayName: 'Timing',
		name: 'timing',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Next Free Slot',
				value: 'nextFreeSlot',
				description:
					'Schedule into the first of your posting times that still has room on every platform of the post, counting what is already scheduled on the account',
			},
			{
				name: 'Now or at Scheduled At',
				value: 'asSet',
				description: "Publish now, or at Additional Fields > 'Scheduled At' when it is set",
			},
		],
		default: 'asSet',
	},
	{
		displayName: 'Posting Times',
		name: 'postingTimes',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Posting Time',
		default: { time: [{ weekday: 'monday', timeOfDay: '09:00' }] },
		displayOptions: queued,
		description:
			"The weekly times posts may go out, as wall-clock times in Queue Options > 'Time Zone'",
		options: [
			{
				displayName: 'Time',
				name: 'time',
				values: [
					{
						displayName: 'Weekday',
						name: 'weekday',
						type: 'options',
						options: WEEKDAYS.map((day) => ({ name: day, value: day.toLowerCase() })),
						default: 'monday',
					},
					{
						displayName: 'Time of Day',
						name: 'timeOfDay',
						type: 'string',
						default: '09:00',
						placeholder: 'e.g. 09:00',
						description: '24-hour time, HH:MM',
					},
				],
			},
		],
	},
	{
		displayName: 'Queue Options',
		name: 'queueOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: queued,
		options: [
			{
				displayName: 'Horizon (Days)',
				name: 'horizonDays',
				type: 'number',
				typeOptions: { minValue: QUEUE.horizonDays.min, maxValue: QUEUE.horizonDays.max },
				default: 30,
				description:
					'How far ahead a post may be queued (default 30 days); when every slot up to then is full the item stops and says so',
			},
			{
				displayName: 'Lead Time (Minutes)',
				name: 'leadMinutes',
				type: 'number',
				typeOptions: { minValue: QUEUE.leadMinutes.min, maxValue: QUEUE.leadMinutes.max },
				default: 10,
				description:
					'The earliest slot is at least this many minutes from now (default 10), so that a post is not queued into a slot about to pass',
			},
			{
				displayName: 'Posts per Slot',
				name: 'postsPerSlot',
				type: 'number',
				typeOptions: { minValue: QUEUE.postsPerSlot.min, maxValue: QUEUE.postsPerSlot.max },
				default: 1,
				description:
					'How many posts one posting time takes per platform (default 1): a post for LinkedIn and X takes a place on each',
			},
			{
				displayName: 'Time Zone',
				name: 'timeZone',
				type: 'string',
				default: '',
				placeholder: 'e.g. Europe/Berlin',
				description:
					"IANA time zone of 'Posting Times'. Empty: the workflow's time zone (workflow settings).",
			},
		],
	},
];
