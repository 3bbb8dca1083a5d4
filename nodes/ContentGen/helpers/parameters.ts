import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { PARALLEL_REQUESTS, RATE_LIMIT_WAIT, REQUEST_TIMEOUT, WAIT } from '../../shared/constants';
import type { OnTimeout } from '../../shared/constants';
import type { CallOptions } from '../../shared/transport/request';
import {
	validateBoolean,
	validateLimit,
	validateMaxRateLimitWait,
	validateOnTimeout,
	validateParallelRequests,
	validatePollInterval,
	validateRequestTimeout,
	validateTimeout,
} from '../../shared/validation';
import { readRecordLocator } from '../../shared/domain/records';
import type { Product } from './properties';
import { RECORD_IDS } from './properties';

/** Switches a user may set by expression; each is refused by its label unless true or false. */
const SWITCHES = {
	returnAll: 'Return All',
	waitForCompletion: 'Wait for Completion',
	'options.splitByPlatform': 'Split by Platform',
	'options.downloadImages': 'Download Images',
} as const;

export function readSwitch(
	context: IExecuteFunctions,
	name: keyof typeof SWITCHES,
	itemIndex: number,
): boolean {
	return validateBoolean(SWITCHES[name], context.getNodeParameter(name, itemIndex, false));
}

/** The item's record ID (a picker's value), refused by its label unless a UUID (so it is also safe in a URL path). */
export function readRecordId(
	context: IExecuteFunctions,
	resource: keyof typeof RECORD_IDS,
	itemIndex: number,
): string {
	return readRecordLocator(
		resource,
		context.getNodeParameter(RECORD_IDS[resource].name, itemIndex),
	);
}

/** How the item's requests treat 429s and slow answers, from its Options. */
export function callOptions(
	context: IExecuteFunctions,
	itemIndex: number,
): Required<Pick<CallOptions, 'itemIndex' | 'maxRateLimitWaitMs' | 'timeoutMs'>> {
	const wait = context.getNodeParameter(
		'options.maxRateLimitWait',
		itemIndex,
		RATE_LIMIT_WAIT.default,
	);
	const timeout = context.getNodeParameter(
		'options.requestTimeout',
		itemIndex,
		REQUEST_TIMEOUT.default,
	);
	return {
		itemIndex,
		maxRateLimitWaitMs: validateMaxRateLimitWait(wait) * 1000,
		timeoutMs: validateRequestTimeout(timeout) * 1000,
	};
}

/**
 * How many requests the run may have in flight: the Parallel Requests option, read for the whole
 * run from its first item (PARALLEL_REQUESTS.default when unset).
 */
export function parallelRequests(context: IExecuteFunctions): number {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	if (options && 'parallelRequests' in options)
		return validateParallelRequests(options.parallelRequests);
	return PARALLEL_REQUESTS.default;
}

export interface WaitSettings {
	pollIntervalMs: number;
	timeoutMs: number;
	onTimeout: OnTimeout;
	call: ReturnType<typeof callOptions>;
}

export function readWaitSettings(
	context: IExecuteFunctions,
	itemIndex: number,
	product: Product,
): WaitSettings {
	const defaults = WAIT[product];
	const option = (name: string, fallback: unknown) =>
		context.getNodeParameter(`options.${name}`, itemIndex, fallback);
	return {
		pollIntervalMs: validatePollInterval(option('pollInterval', defaults.pollInterval)) * 1000,
		timeoutMs: validateTimeout(option('timeout', defaults.timeout)) * 1000,
		onTimeout: validateOnTimeout(option('onTimeout', 'returnLast')),
		call: callOptions(context, itemIndex),
	};
}

/** Undefined means every record; otherwise the validated limit. */
export function readLimit(context: IExecuteFunctions, itemIndex: number): number | undefined {
	if (readSwitch(context, 'returnAll', itemIndex)) return undefined;
	return validateLimit(context.getNodeParameter('limit', itemIndex));
}

/** A collection (Filters, Sort) with emptied entries dropped (an emptied field in the UI is ''). */
export function readFilters(
	context: IExecuteFunctions,
	itemIndex: number,
	name: 'filters' | 'sort',
): IDataObject {
	const raw = context.getNodeParameter(name, itemIndex, {}) as IDataObject;
	const entries: IDataObject = {};
	for (const [key, value] of Object.entries(raw ?? {})) {
		if (value === undefined || value === null) continue;
		if (typeof value === 'string' && value.trim() === '') continue;
		if (
			typeof value === 'object' &&
			!Array.isArray(value) &&
			'value' in value &&
			(value.value === '' || value.value === undefined)
		)
			continue;
		entries[key] = value;
	}
	return entries;
}
