import type { INodeProperties } from 'n8n-workflow';

import { PARALLEL_REQUESTS, RATE_LIMIT_WAIT, REQUEST_TIMEOUT, WAIT } from '../../shared/constants';
import { recordLocator, RECORDS } from '../../shared/domain/records';

/**
 * Parameters several operations share. Each operation lists them among its own properties; the
 * node adds the rule that shows them for that operation only.
 */

const rateLimitWaitDefault = RATE_LIMIT_WAIT.default;
const requestTimeoutDefault = REQUEST_TIMEOUT.default;
const parallelRequestsDefault = PARALLEL_REQUESTS.default;

/**
 * In every operation's Options: how many requests at once, how long to ride out 429s, and each
 * request's deadline.
 */
const requestOptions: INodeProperties[] = [
	{
		displayName: 'Parallel Requests',
		name: 'parallelRequests',
		type: 'number',
		typeOptions: { minValue: PARALLEL_REQUESTS.min, maxValue: PARALLEL_REQUESTS.max },
		default: parallelRequestsDefault,
		description: `How many requests the node sends at the same time across its items (${PARALLEL_REQUESTS.min}-${PARALLEL_REQUESTS.max}, default ${parallelRequestsDefault}; 1 = one item at a time). Never more than the API key's rate limit allows: the same requests, only sooner, and the output keeps the input order.`,
	},
	{
		displayName: 'Max Rate-Limit Wait',
		name: 'maxRateLimitWait',
		type: 'number',
		typeOptions: { minValue: RATE_LIMIT_WAIT.min, maxValue: RATE_LIMIT_WAIT.max },
		default: rateLimitWaitDefault,
		description: `Seconds to wait in total when the service says too many requests were sent: the node waits as long as the service asks and sends the same request again. Default ${rateLimitWaitDefault}; ${RATE_LIMIT_WAIT.min} stops at once; at most ${RATE_LIMIT_WAIT.max}.`,
	},
	{
		displayName: 'Request Timeout',
		name: 'requestTimeout',
		type: 'number',
		typeOptions: { minValue: REQUEST_TIMEOUT.min, maxValue: REQUEST_TIMEOUT.max },
		default: requestTimeoutDefault,
		description: `Seconds one request may take, from connecting to the last byte of the answer (${REQUEST_TIMEOUT.min}-${REQUEST_TIMEOUT.max}, default ${requestTimeoutDefault}). A read that times out is tried again up to 3 times; a generate is not, as it may have been charged.`,
	},
];

/** The Options collection, with the request options always included. */
export function optionsCollection(extra: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [...extra, ...requestOptions].sort((a, b) =>
			a.displayName.localeCompare(b.displayName),
		),
	};
}

/** The record ID parameters; workflows refer to these names. */
export const RECORD_IDS = {
	article: { displayName: RECORDS.article.displayName, name: RECORDS.article.name },
	socialContent: {
		displayName: RECORDS.socialContent.displayName,
		name: RECORDS.socialContent.name,
	},
};

/** A record ID parameter: a picker (From list, By URL, ID), read through readRecordId. */
export function recordIdProperty(
	resource: keyof typeof RECORD_IDS,
	description: string,
): INodeProperties {
	return { ...RECORD_IDS[resource], ...recordLocator(resource), required: true, description };
}

export function waitForCompletionProperty(description: string): INodeProperties {
	return {
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description,
	};
}

export function additionalFields(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

export type Product = 'article' | 'social';

/**
 * The options of waiting for a generation. On a Generate they show only once Wait for
 * Completion is on; on Wait for Completion itself always.
 */
export function waitOptions(product: Product, onGenerate: boolean): INodeProperties[] {
	const { pollInterval, timeout } = WAIT[product];
	const show = onGenerate ? { displayOptions: { show: { '/waitForCompletion': [true] } } } : {};
	const cadence =
		product === 'article'
			? 'an article usually takes a few minutes'
			: 'social content usually takes under a minute';
	return [
		{
			displayName: 'Poll Interval',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: WAIT.pollInterval.min, maxValue: WAIT.pollInterval.max },
			default: pollInterval,
			description: `Seconds between checks while waiting. The default, ${pollInterval}, is the service's guidance (${cadence}).${onGenerate ? ` The first check comes ${WAIT.firstLook} s after submitting (sooner if this is shorter), then one every this many seconds.` : ''} Checks are free; with many items one request checks up to 100 at once.`,
			...show,
		},
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: WAIT.timeout.min, maxValue: WAIT.timeout.max },
			default: timeout,
			description: `Seconds to wait for the generation to finish before giving up (default ${timeout}; see 'On Timeout'). The execution stays busy for that long.`,
			...show,
		},
		{
			displayName: 'On Timeout',
			name: 'onTimeout',
			type: 'options',
			options: [
				{
					name: 'Return Last Known Status',
					value: 'returnLast',
					description:
						'Output the ID with its last known status, marked as timed out, to wait again later',
				},
				{
					name: 'Stop the Item',
					value: 'fail',
					description: 'Stop the item with a message that names the ID and its last status',
				},
			],
			default: 'returnLast',
			description:
				"What to do when the generation has not finished within the timeout. Defaults to 'Return Last Known Status'.",
			...show,
		},
	];
}
