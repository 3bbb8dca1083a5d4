import type { INodeProperties } from 'n8n-workflow';

/** Shown in every operation's Options collection. */
export const maxRateLimitWaitOption: INodeProperties = {
	displayName: 'Max Rate-Limit Wait (Seconds)',
	name: 'maxRateLimitWait',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 3600 },
	default: 60,
	description:
		'When the service answers 429 (too many requests), wait as long as it asks and retry the same request, up to this many seconds in total. 0 fails at once.',
};

/** An Options collection for one operation, with the rate-limit wait always included. */
export function optionsCollection(
	resource: string,
	operation: string,
	extra: INodeProperties[] = [],
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { resource: [resource], operation: [operation] } },
		options: [...extra, maxRateLimitWaitOption].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}
