import type { ICredentialsDecrypted, IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE, REQUEST_TIMEOUT } from '../constants';
import type { Method } from '../routes';
import type { ApiResponse, Pagination, RateLimitInfo } from '../types';
import { type ApiContext, DeadlineError, type Exchange, header, pause, send } from './http';
import { AddressError, apiUrl, parseBaseUrl, type ServiceRoot } from './origin';
import { Pacer } from './pacer';
import { keyPattern, redactData } from './redaction';
import { apiError, breakageError, type Explain } from './refusals';
import { DEFAULT_MAX_RATE_LIMIT_WAIT_MS, rateLimitOf, retryIn } from './retry';

const MIN_ATTEMPT_MS = 1000; // less, and even a quick service could not answer

/** The credential, read once for every request of an execution, a walk or a wait. */
export interface Connection {
	context: ApiContext;
	root: ServiceRoot;
	apiKey: string;
	secret?: RegExp; // the key as an echo may spell it (./redaction), compiled once
	/** Handed to n8n with each request: the credential is not read and decrypted for every one. */
	decrypted: ICredentialsDecrypted;
	pacer: Pacer;
}

/** `timeoutMs` bounds each attempt, `deadline` (epoch ms) the whole request with its waits. */
export interface CallOptions {
	qs?: IDataObject;
	itemIndex?: number;
	maxRateLimitWaitMs?: number;
	timeoutMs?: number;
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
	if (!apiKey)
		throw new NodeOperationError(context.getNode(), 'The ContentGen credential has no API key', {
			description:
				'Open the credential and paste the key ("svc_" followed by 64 hexadecimal characters).',
		});
	const { id, name } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? {};
	const decrypted = { id: id ?? '', name: name ?? CREDENTIAL_TYPE, type: CREDENTIAL_TYPE, data };
	return { context, root, apiKey, secret: keyPattern(apiKey), decrypted, pacer: new Pacer(slots) };
}

const isEnvelope = (
	body: unknown,
): body is { success: boolean; data?: unknown; pagination?: Pagination } =>
	typeof body === 'object' && body !== null && 'success' in body;

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
	const { context, pacer, apiKey } = connection;
	const { deadline, itemIndex, explain } = options;
	const maxWait = options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
	const url = apiUrl(connection.root, endpoint);
	const httpRequest: IHttpRequestOptions = { method, url, json: true };
	httpRequest.headers = { Accept: 'application/json' };
	if (options.qs && Object.keys(options.qs).length > 0) httpRequest.qs = options.qs;
	if (options.body) httpRequest.body = options.body;
	// No wait may leave the deadline less than one attempt's time.
	const fits = (waitMs: number) =>
		deadline === undefined || Date.now() + waitMs + MIN_ATTEMPT_MS <= deadline;
	const late = (why: string) =>
		new DeadlineError(context.getNode(), `No time left to finish ${method} ${endpoint}: ${why}`);
	const credential = { type: CREDENTIAL_TYPE, decrypted: connection.decrypted };
	const retries = { transient: 0, rateLimited: 0 };
	let waitedMs = 0;
	for (;;) {
		waitedMs += await admit(connection, maxWait - waitedMs, fits);
		let exchange: Exchange | undefined;
		let budget: RateLimitInfo | undefined;
		try {
			const left = deadline === undefined ? Infinity : Math.floor(deadline - Date.now());
			if (!fits(0)) throw late('the deadline has come');
			const timeoutMs = Math.min(options.timeoutMs ?? REQUEST_TIMEOUT.default * 1000, left);
			exchange = await send(context, httpRequest, timeoutMs, credential);
			budget = exchange.response && rateLimitOf(exchange.response.headers ?? {});
		} finally {
			pacer.settle(budget, Date.now());
		}
		// Whatever the service or a proxy echoes, the key stops here: records, items and errors are
		// all built from these.
		const body = redactData(exchange.response?.body, connection.secret);
		const answered = redactData(exchange.response?.headers ?? {}, connection.secret);
		const statusCode = exchange.response?.statusCode ?? 0;
		if (statusCode >= 200 && statusCode < 300 && isEnvelope(body) && body.success !== false) {
			const { data, pagination } = body;
			const requestId = header(answered, 'x-request-id');
			return { data: data as T, pagination, statusCode, requestId, rateLimit: budget ?? {} };
		}
		const again = retryIn(method, exchange, retries, Date.now());
		if (again && fits(again.waitMs) && (!again.rateLimited || waitedMs + again.waitMs <= maxWait)) {
			await pause(context, again.waitMs);
			if (again.rateLimited) waitedMs += again.waitMs;
			retries[again.rateLimited ? 'rateLimited' : 'transient']++;
			continue;
		}
		if (exchange.breakage) {
			if (again) throw late(exchange.reason); // a retry was due, but the deadline leaves it no time
			const { origin } = connection.root;
			throw breakageError(
				context.getNode(),
				{ ...exchange, method, endpoint, origin, apiKey },
				itemIndex,
			);
		}
		const refused = { statusCode, body, headers: answered, method, endpoint, apiKey, explain };
		throw apiError(context.getNode(), refused, itemIndex);
	}
}

/**
 * Takes a slot once the pacer lets a request go; returns the time waited for the window to reset,
 * part of Max Rate-Limit Wait: a wait that does not fit sends anyway, and its 429 is handled.
 */
async function admit(
	{ pacer, context }: Connection,
	maxWaitMs: number,
	fits: (waitMs: number) => boolean,
): Promise<number> {
	let waitedMs = 0;
	for (let turn = pacer.turn(Date.now()); !turn.go; turn = pacer.turn(Date.now())) {
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

export async function respectRateLimit(
	context: ApiContext,
	{ remaining, reset }: RateLimitInfo,
	maxWaitMs = DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
): Promise<void> {
	const waitMs = remaining === 0 ? Math.ceil((reset ?? 0) * 1000 - Date.now()) : 0;
	if (waitMs > 0 && waitMs <= maxWaitMs) await pause(context, waitMs);
}
