import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ResourceOperations } from './types';

type Show = NonNullable<IDisplayOptions['show']>;

/** Display rules of parameters that belong to some operations of one resource. */
export function showFor(resource: string, operations: string[], extra: Show = {}): IDisplayOptions {
	return { show: { resource: [resource], operation: operations, ...extra } };
}

export const UUID_PLACEHOLDER = 'e.g. 3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';

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
		displayOptions: showFor(resource, [operation]),
		options: [...extra, maxRateLimitWaitOption].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}

/** The record ID parameter of each resource that has one; workflows refer to these names. */
const RECORD_IDS = {
	article: { displayName: 'Article ID', name: 'articleId' },
	socialContent: { displayName: 'Content ID', name: 'contentId' },
};

/** The required ID (UUID) of the record an operation works on. */
export function recordIdProperty(
	resource: keyof typeof RECORD_IDS,
	operation: string,
	description: string,
): INodeProperties {
	return {
		...RECORD_IDS[resource],
		type: 'string',
		required: true,
		default: '',
		placeholder: UUID_PLACEHOLDER,
		description,
		displayOptions: showFor(resource, [operation]),
	};
}

export function simplifyProperty(
	resource: string,
	operations: string[],
	extraShow?: Show,
): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		displayOptions: showFor(resource, operations, extraShow),
	};
}

export function waitForCompletionProperty(
	resource: string,
	operation: string,
	description: string,
): INodeProperties {
	return {
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description,
		displayOptions: showFor(resource, [operation]),
	};
}

export function additionalFieldsCollection(
	resource: string,
	operation: string,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: showFor(resource, [operation]),
		options,
	};
}

/**
 * The Operation selector of one resource, then the parameters of its operations. Only the
 * operations that have an implementation are offered, so the list never shows one the router refuses.
 */
export function resourceDescription(
	resource: string,
	operations: ResourceOperations,
	options: INodePropertyOptions[],
	defaultOperation: string,
): INodeProperties[] {
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: options.filter((option) => String(option.value) in operations),
			default: defaultOperation,
		},
		...Object.values(operations).flatMap((operation) => operation.description),
	];
}
