import type { ICredentialsDecrypted, IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../constants';
import type { Method } from '../routes';
import type { ApiResponse, Pagination, RateLimitInfo } from '../types';
import { breakageError } from './breakage';
import type { ApiContext, Exchange } from './http';
import { DeadlineError, DEFAULT_REQUEST_TIMEOUT_S, header, pause, send } from './http';
import { AddressError, apiUrl, parseBaseUrl, type ServiceRoot } from './origin';
import { Pacer } from './pacer';
import { redactData } from './redaction';
import { apiError, describeFailure, type Explain } from './refusals';
import {
	DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
	fitsBefore,
	MAX_RATE_LIMIT_RETRIES,
	MIN_ATTEMPT_MS,
	rateLimitOf,
	rateLimitPauseMs,
	retryAfterBadAnswer,
	retryAfterBreakage,
	untilWindowResets,
} from './retry';

/** The credential, read once and reused for every request of an execution, a walk or a wait. */
export interface Connection {
	context: ApiContext;
	root: ServiceRoot;
	apiKey: string;
	decrypted: ICredentialsDecrypted;
	/** Paces the requests made through this connection: how many at once, and within the budget. */
	pacer: Pacer;
	/**
	 * The key's budget as the last answer reported it. Every worker and execution using the key
	 * draws on the same budget, so the service's headers are the only shared truth about it.
	 */
	rateLimit?: RateLimitInfo;
	/** The answer before that one: how fast the budget drains between two requests of this run. */
	previousRateLimit?: RateLimitInfo;
}

export interface CallOptions {
	qs?: IDataObject;
	itemIndex?: number;
	/** Upper bound on the total time spent waiting out 429 answers for this request. */
	maxRateLimitWaitMs?: number;
	/** Deadline of each attempt, connection to last byte. */
	timeoutMs?: number;
	/** Epoch ms by which the whole request ends: a wait or retry that leaves no attempt time is not made. */
	deadline?: number;
	/** Wording of statuses only the calling operation can explain. */
	explain?: Explain;
}

/** The credential as a connection; `slots` requests through it may be in flight at once. */
export async function connect(context: ApiContext, slots = 1): Promise<Connection> {
	const data = await context.getCredentials(CREDENTIAL_TYPE);
	let root: ServiceRoot;
	try {
		root = parseBaseUrl(data.baseUrl, data);
	} catch (error) {
		const refusal = error as AddressError;
		throw new NodeOperationError(context.getNode(), refusal.message, {
			description: refusal.hint || undefined,
		});
	}
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey.trim() : '';
	if (!apiKey) {
		throw new NodeOperationError(context.getNode(), 'The ContentGen credential has no API key', {
			description:
				'Open the credential and paste the key ("svc_" followed by 64 hexadecimal characters).',
		});
	}
	const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		context,
		root,
		apiKey,
		pacer: new Pacer(slots),
		decrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? CREDENTIAL_TYPE,
			type: CREDENTIAL_TYPE,
			data,
		},
	};
}

function isEnvelope(
	body: unknown,
): body is { success: boolean; data?: unknown; pagination?: Pagination } {
	return typeof body === 'object' && body !== null && 'success' in body;
}

/**
 * The one place that talks to the service: unwraps the envelope, explains every failure, rides
 * out 429s and flaky GETs within bounds, and never repeats a POST that may have been processed.
 */
export async function request<T>(
	connection: Connection,
	method: Method,
	endpoint: string,
	options: CallOptions & { body?: IDataObject } = {},
): Promise<ApiResponse<T>> {
	const { context } = connection;
	const maxWait = options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
	const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_S * 1000;
	const httpRequest: IHttpRequestOptions = {
		method,
		url: apiUrl(connection.root, endpoint),
		json: true,
		headers: { Accept: 'application/json' },
	};
	if (options.qs && Object.keys(options.qs).length > 0) httpRequest.qs = options.qs;
	if (options.body) httpRequest.body = options.body;
	const fail = (statusCode: number, body: unknown, headers: Record<string, unknown>) =>
		describeFailure({
			statusCode,
			body,
			headers,
			method,
			endpoint,
			apiKey: connection.apiKey,
			explain: options.explain,
		});
	let waitedMs = 0;
	let rateLimitRetries = 0;
	let transientRetries = 0;
	const { deadline } = options;
	const fits = (waitMs: number) => fitsBefore(deadline, waitMs, Date.now());
	const late = (why: string) =>
		new DeadlineError(context.getNode(), `No time left to finish ${method} ${endpoint}: ${why}`);

	for (;;) {
		waitedMs += await admit(connection, maxWait - waitedMs, fits);
		let exchange: Exchange | undefined;
		try {
			const left = deadline === undefined ? Infinity : Math.floor(deadline - Date.now());
			if (left < MIN_ATTEMPT_MS) throw late('the deadline has come');
			exchange = await send(context, {
				request: httpRequest,
				timeoutMs: Math.min(timeoutMs, left),
				credential: { type: CREDENTIAL_TYPE, decrypted: connection.decrypted },
			});
		} finally {
			const answer = exchange?.response;
			connection.pacer.settle(answer && rateLimitOf(answer.headers ?? {}), Date.now());
		}
		if (exchange.breakage) {
			const retryIn = retryAfterBreakage(method, exchange.breakage, transientRetries);
			if (retryIn !== undefined && !fits(retryIn)) throw late(exchange.reason);
			if (retryIn === undefined) {
				throw breakageError(
					context.getNode(),
					{ origin: connection.root.origin, apiKey: connection.apiKey },
					method,
					endpoint,
					exchange.breakage,
					exchange.reason,
					options.itemIndex,
				);
			}
			await pause(context, retryIn);
			transientRetries++;
			continue;
		}
		const { response } = exchange;
		const { statusCode } = response;
		// Whatever the service or a proxy echoes, the key stops here: records, items and errors are
		// all built from these.
		const body = redactData(response.body, connection.apiKey);
		const headers = redactData(response.headers ?? {}, connection.apiKey);
		connection.previousRateLimit = connection.rateLimit;
		connection.rateLimit = rateLimitOf(headers);
		if (statusCode >= 200 && statusCode < 300) {
			if (isEnvelope(body) && body.success !== false) {
				return {
					data: body.data as T,
					pagination: body.pagination,
					statusCode,
					requestId: header(headers, 'x-request-id'),
					rateLimit: connection.rateLimit,
				};
			}
			// A 2xx that is not our envelope: a proxy page or a cut-off body.
			const retryIn = retryAfterBadAnswer(method, undefined, headers, transientRetries);
			if (retryIn !== undefined && fits(retryIn)) {
				await pause(context, retryIn);
				transientRetries++;
				continue;
			}
			const failure = fail(statusCode, body, headers);
			throw apiError(
				context.getNode(),
				method === 'GET'
					? { ...failure, message: 'The service answered with an unreadable body' }
					: {
							...failure,
							message: 'The service accepted the request but its answer could not be read',
							description: `The request was not sent again, because it was probably processed (and charged). Check with a Get Many. ${failure.description}`,
						},
				options.itemIndex,
			);
		}

		if (statusCode === 429 && rateLimitRetries < MAX_RATE_LIMIT_RETRIES) {
			const waitMs = rateLimitPauseMs(headers, Date.now(), rateLimitRetries);
			if (waitedMs + waitMs <= maxWait && fits(waitMs)) {
				await pause(context, waitMs);
				waitedMs += waitMs;
				rateLimitRetries++;
				continue;
			}
		}
		const retryIn = retryAfterBadAnswer(method, statusCode, headers, transientRetries);
		if (retryIn !== undefined && fits(retryIn)) {
			await pause(context, retryIn);
			transientRetries++;
			continue;
		}
		throw apiError(context.getNode(), fail(statusCode, body, headers), options.itemIndex);
	}
}

/**
 * Waits until the connection's pacer lets one more request go, and takes its slot. Waiting for the
 * budget's window to reset counts towards Max Rate-Limit Wait; when that wait does not fit, the
 * request goes anyway and its 429 is handled as any other. Returns the time waited for a reset.
 */
async function admit(
	connection: Connection,
	maxWaitMs: number,
	fits: (waitMs: number) => boolean,
): Promise<number> {
	const { pacer, context } = connection;
	let waitedMs = 0;
	for (;;) {
		const turn = pacer.turn(Date.now());
		if (turn.go) break;
		if ('answer' in turn) {
			await pacer.answered();
			await pause(context, 0); // stops here when the execution was cancelled meanwhile
			continue;
		}
		if (!fits(turn.waitMs) || waitedMs + turn.waitMs > maxWaitMs) break;
		await pause(context, turn.waitMs);
		waitedMs += turn.waitMs;
	}
	pacer.start();
	return waitedMs;
}

/** A GET with the credential read for it alone. */
export async function apiGet<T>(
	context: ApiContext,
	endpoint: string,
	options: CallOptions = {},
): Promise<ApiResponse<T>> {
	return await request<T>(await connect(context), 'GET', endpoint, options);
}

/** Waits for the per-minute window to reset when the last answer said nothing is left. */
export async function respectRateLimit(
	context: ApiContext,
	rateLimit: RateLimitInfo,
	maxWaitMs: number = DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
): Promise<void> {
	const waitMs = untilWindowResets(rateLimit, maxWaitMs);
	if (waitMs > 0) await pause(context, waitMs);
}
