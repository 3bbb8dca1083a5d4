import type { ICredentialsDecrypted, IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, REQUEST_TIMEOUT } from '../constants';
import type { Method } from '../routes';
import type { ApiResponse, Pagination, RateLimitInfo } from '../types';
import { breakageError } from './breakage';
import { type ApiContext, DeadlineError, type Exchange, header, pause, send } from './http';
import { AddressError, apiUrl, parseBaseUrl, type ServiceRoot } from './origin';
import { Pacer } from './pacer';
import { keyPattern, redactData } from './redaction';
import { apiError, describeFailure, type Explain } from './refusals';
import {
	DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
	fitsBefore,
	MIN_ATTEMPT_MS,
	rateLimitOf,
	type Retries,
	retryIn,
} from './retry';

/** The credential, read once and reused for every request of an execution, a walk or a wait. */
export interface Connection {
	context: ApiContext;
	root: ServiceRoot;
	apiKey: string;
	/** The key as an echo may spell it, searched for in every answer. */
	secret?: RegExp;
	/** Handed to n8n with each request, so it is not read and decrypted again for every one. */
	decrypted: ICredentialsDecrypted;
	/** Paces the requests made through this connection: how many at once, and within the budget. */
	pacer: Pacer;
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
		const { message, hint } = error as AddressError;
		throw new NodeOperationError(context.getNode(), message, { description: hint || undefined });
	}
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey.trim() : '';
	if (!apiKey) {
		throw new NodeOperationError(context.getNode(), 'The ContentGen credential has no API key', {
			description:
				'Open the credential and paste the key ("svc_" followed by 64 hexadecimal characters).',
		});
	}
	const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
	const decrypted: ICredentialsDecrypted = {
		id: reference?.id ?? '',
		name: reference?.name ?? CREDENTIAL_TYPE,
		type: CREDENTIAL_TYPE,
		data,
	};
	return { context, root, apiKey, secret: keyPattern(apiKey), decrypted, pacer: new Pacer(slots) };
}

function isEnvelope(
	body: unknown,
): body is { success: boolean; data?: unknown; pagination?: Pagination } {
	return typeof body === 'object' && body !== null && 'success' in body;
}

/**
 * The one place that talks to the service: unwraps the envelope, explains every failure, and
 * sends again only as ./retry allows, within the key's budget as ./pacer shares it.
 */
export async function request<T>(
	connection: Connection,
	method: Method,
	endpoint: string,
	options: CallOptions & { body?: IDataObject } = {},
): Promise<ApiResponse<T>> {
	const { context, pacer } = connection;
	const maxWait = options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
	const httpRequest: IHttpRequestOptions = {
		method,
		url: apiUrl(connection.root, endpoint),
		json: true,
		headers: { Accept: 'application/json' },
	};
	if (options.qs && Object.keys(options.qs).length > 0) httpRequest.qs = options.qs;
	if (options.body) httpRequest.body = options.body;
	const { deadline, itemIndex } = options;
	const fits = (waitMs: number) => fitsBefore(deadline, waitMs, Date.now());
	const late = (why: string) =>
		new DeadlineError(context.getNode(), `No time left to finish ${method} ${endpoint}: ${why}`);
	const retries: Retries = { transient: 0, rateLimited: 0 };
	let waitedMs = 0;
	for (;;) {
		waitedMs += await admit(connection, maxWait - waitedMs, fits);
		let exchange: Exchange | undefined;
		try {
			const left = deadline === undefined ? Infinity : Math.floor(deadline - Date.now());
			if (left < MIN_ATTEMPT_MS) throw late('the deadline has come');
			exchange = await send(context, {
				request: httpRequest,
				timeoutMs: Math.min(options.timeoutMs ?? REQUEST_TIMEOUT.default * 1000, left),
				credential: { type: CREDENTIAL_TYPE, decrypted: connection.decrypted },
			});
		} finally {
			const answer = exchange?.response;
			pacer.settle(answer && rateLimitOf(answer.headers ?? {}), Date.now());
		}
		// Whatever the service or a proxy echoes, the key stops here: records, items and errors are
		// all built from these.
		const body = redactData(exchange.response?.body, connection.secret);
		const headers = redactData(exchange.response?.headers ?? {}, connection.secret);
		const statusCode = exchange.response?.statusCode ?? 0;
		if (statusCode >= 200 && statusCode < 300 && isEnvelope(body) && body.success !== false) {
			return {
				data: body.data as T,
				pagination: body.pagination,
				statusCode,
				requestId: header(headers, 'x-request-id'),
				rateLimit: rateLimitOf(headers),
			};
		}
		const again = retryIn(method, exchange, retries, Date.now());
		if (again && fits(again.waitMs) && (!again.rateLimited || waitedMs + again.waitMs <= maxWait)) {
			await pause(context, again.waitMs);
			if (again.rateLimited) waitedMs += again.waitMs;
			retries[again.rateLimited ? 'rateLimited' : 'transient']++;
			continue;
		}
		if (exchange.breakage) {
			// A retry was due, but the deadline leaves it no time.
			if (again) throw late(exchange.reason);
			const { root, apiKey } = connection;
			throw breakageError(
				context.getNode(),
				{ origin: root.origin, apiKey },
				method,
				endpoint,
				exchange.breakage,
				exchange.reason,
				itemIndex,
			);
		}
		const { apiKey } = connection;
		const failure = describeFailure({
			statusCode,
			body,
			headers,
			method,
			endpoint,
			apiKey,
			explain: options.explain,
		});
		throw apiError(context.getNode(), failure, itemIndex);
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
	if (rateLimit?.remaining !== 0 || rateLimit.reset === undefined) return;
	const waitMs = Math.ceil(rateLimit.reset * 1000 - Date.now());
	if (waitMs > 0 && waitMs <= maxWaitMs) await pause(context, waitMs);
}
