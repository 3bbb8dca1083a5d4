import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { normaliseBaseUrl } from './baseUrl';
import { API_PREFIX, CREDENTIAL_TYPE } from './constants';
import { describeFailure, header, redactSecrets, retryAfterSeconds } from './errors';
import type { ApiResponse, Credits, Pagination, RateLimitInfo } from './types';

export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface RequestOptions {
	qs?: IDataObject;
	body?: IDataObject;
	/** Upper bound on the total time spent waiting out 429 answers for this request. */
	maxRateLimitWaitMs?: number;
	/** Credits the request costs, to explain a 402. */
	cost?: number;
	itemIndex?: number;
	/** Credentials already read by the caller (pagination reads them once for every page). */
	credentials?: ResolvedCredentials;
}

export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 60_000;
const MAX_RATE_LIMIT_RETRIES = 10;
const MAX_GET_RETRIES = 3;
const BACKOFF_BASE_MS = 500;
/** A GET is idempotent and free: a transient 500 deserves the same retries as a gateway error. */
const RETRYABLE_GET_STATUSES = [500, 502, 503, 504];
/** The connection never reached the service, so even a generate may be sent again. */
const NEVER_REACHED_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];
const TRANSIENT_CODES = [
	...NEVER_REACHED_CODES,
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ERR_BAD_RESPONSE',
];

interface Credentials {
	apiKey: string;
	baseUrl: string;
}

interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

function cancelSignal(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

function cancelled(context: ApiContext): NodeOperationError {
	return new NodeOperationError(context.getNode(), 'The execution was cancelled');
}

function throwIfCancelled(context: ApiContext): void {
	if (cancelSignal(context)?.aborted) throw cancelled(context);
}

/** Exponential backoff before retry number `attempt` (0-based) of a transient failure. */
async function backoff(context: ApiContext, attempt: number): Promise<void> {
	await pause(context, BACKOFF_BASE_MS * 2 ** attempt);
}

/** Waits in short steps so a cancelled execution stops within a second. */
export async function pause(context: ApiContext, ms: number): Promise<void> {
	let left = Math.max(0, ms);
	while (left > 0) {
		throwIfCancelled(context);
		const step = Math.min(left, 1000);
		await sleep(step);
		left -= step;
	}
	throwIfCancelled(context);
}

/** Finds the system error code (ECONNREFUSED, ...) anywhere in a wrapped error. */
export function networkCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
		const candidate = current as { code?: unknown; cause?: unknown; message?: unknown };
		if (typeof candidate.code === 'string' && /^E[A-Z_]+$/.test(candidate.code))
			return candidate.code;
		if (typeof candidate.message === 'string' && /socket hang up/i.test(candidate.message)) {
			return 'ECONNRESET';
		}
		current = candidate.cause;
	}
	return undefined;
}

function isAbort(error: unknown): boolean {
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
		const candidate = current as { code?: unknown; name?: unknown; cause?: unknown };
		if (candidate.code === 'ERR_CANCELED' || candidate.name === 'AbortError') return true;
		current = candidate.cause;
	}
	return false;
}

function rateLimitOf(headers: Record<string, unknown>): RateLimitInfo {
	const number = (name: string) => {
		const value = header(headers, name);
		const parsed = value === undefined ? NaN : Number(value);
		return Number.isFinite(parsed) ? parsed : undefined;
	};
	return {
		limit: number('x-ratelimit-limit'),
		remaining: number('x-ratelimit-remaining'),
		reset: number('x-ratelimit-reset'),
		dailyRemaining: number('x-ratelimit-daily-remaining'),
	};
}

export interface ResolvedCredentials extends Credentials {
	root: string;
	data: ICredentialDataDecryptedObject;
}

async function credentialsOf(context: ApiContext): Promise<ResolvedCredentials> {
	const data = await context.getCredentials(CREDENTIAL_TYPE);
	const credentials = data as unknown as Credentials;
	let base: ReturnType<typeof normaliseBaseUrl>;
	try {
		base = normaliseBaseUrl(credentials.baseUrl);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message);
	}
	if (base.insecure) {
		throw new NodeOperationError(
			context.getNode(),
			'Refusing to send the API key over plain http to a remote host',
			{
				description: `The credential's Base URL is ${base.url}. Use https:// (plain http is only accepted for localhost, e.g. the local sandbox).`,
			},
		);
	}
	return { ...credentials, apiKey: String(credentials.apiKey ?? ''), root: base.url, data };
}

function apiError(
	context: ApiContext,
	failure: ReturnType<typeof describeFailure>,
	itemIndex?: number,
): NodeApiError {
	const details: JsonObject = {
		message: failure.message,
		code: failure.code,
		httpCode: failure.httpCode,
		request_id: failure.requestId ?? null,
	};
	return new NodeApiError(context.getNode(), details, {
		message: failure.message,
		description: failure.description,
		httpCode: failure.httpCode,
		itemIndex,
	});
}

function networkError(
	context: ApiContext,
	method: string,
	endpoint: string,
	code: string | undefined,
	apiKey: string,
	itemIndex?: number,
): NodeApiError {
	const reached = !NEVER_REACHED_CODES.includes(code ?? '');
	// n8n rewrites messages that contain system error codes, so the code goes in the description.
	const message = reached
		? 'The connection to the service broke before it answered'
		: 'Could not reach the service';
	const advice = !reached
		? "Check the credential's Base URL and that the service is reachable from n8n."
		: method === 'GET'
			? 'The request was retried and kept failing. Try again later.'
			: 'The request was not sent again, because it may have reached the service (and been charged). Check with a Get Many before running again.';
	const description = `${advice} Network error: ${code ?? 'unknown'}.`;
	return new NodeApiError(
		context.getNode(),
		{ message, network: code ?? 'unknown', endpoint: `${method} ${endpoint}` },
		{ message: redactSecrets(message, apiKey), description, itemIndex },
	);
}

function isEnvelope(
	body: unknown,
): body is { success: boolean; data?: unknown; pagination?: Pagination } {
	return typeof body === 'object' && body !== null && 'success' in body;
}

/**
 * The one place that talks to the service: unwraps the envelope, explains every failure,
 * rides out 429s and flaky GETs, and never repeats a POST that may have been processed.
 */
export async function apiRequest<T>(
	this: ApiContext,
	method: 'GET' | 'POST',
	endpoint: string,
	options: RequestOptions = {},
): Promise<ApiResponse<T>> {
	const credentials = options.credentials ?? (await credentialsOf(this));
	const maxWait = options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
	let waitedMs = 0;
	let rateLimitRetries = 0;
	let transientRetries = 0;

	for (;;) {
		throwIfCancelled(this);
		const request: IHttpRequestOptions = {
			method,
			url: `${credentials.root}${API_PREFIX}${endpoint}`,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			headers: { Accept: 'application/json' },
		};
		if (options.qs && Object.keys(options.qs).length > 0) request.qs = options.qs;
		if (options.body) request.body = options.body;

		let response: FullResponse;
		try {
			// Passing the credentials already read saves n8n a second decryption per request.
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				request,
				{
					credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data: credentials.data },
				},
			)) as FullResponse;
		} catch (error) {
			if (isAbort(error)) throw cancelled(this);
			const code = networkCode(error);
			const mayRetry =
				method === 'GET'
					? TRANSIENT_CODES.includes(code ?? '')
					: NEVER_REACHED_CODES.includes(code ?? '');
			if (mayRetry && transientRetries < MAX_GET_RETRIES) {
				await backoff(this, transientRetries);
				transientRetries++;
				continue;
			}
			throw networkError(this, method, endpoint, code, credentials.apiKey, options.itemIndex);
		}

		const { statusCode, body } = response;
		const headers = response.headers ?? {};
		if (statusCode >= 200 && statusCode < 300) {
			if (isEnvelope(body) && body.success !== false) {
				return {
					data: body.data as T,
					pagination: body.pagination,
					statusCode,
					requestId: header(headers, 'x-request-id'),
					rateLimit: rateLimitOf(headers),
				};
			}
			// A 2xx that is not our envelope: a proxy page or a cut-off body.
			if (method === 'GET' && transientRetries < MAX_GET_RETRIES) {
				await backoff(this, transientRetries);
				transientRetries++;
				continue;
			}
			const failure = describeFailure({
				statusCode,
				body,
				headers,
				method,
				endpoint,
				apiKey: credentials.apiKey,
			});
			throw apiError(
				this,
				{
					...failure,
					message:
						method === 'GET'
							? 'The service answered with an unreadable body'
							: 'The service accepted the request but its answer could not be read',
					description:
						method === 'GET'
							? failure.description
							: `The request was not sent again, because it was probably processed (and charged). Check with a Get Many. ${failure.description}`,
				},
				options.itemIndex,
			);
		}

		if (statusCode === 429 && rateLimitRetries < MAX_RATE_LIMIT_RETRIES) {
			const waitMs = Math.ceil((retryAfterSeconds(headers, Date.now()) ?? 1) * 1000);
			if (waitedMs + waitMs <= maxWait) {
				await pause(this, waitMs);
				waitedMs += waitMs;
				rateLimitRetries++;
				continue;
			}
		}
		if (
			method === 'GET' &&
			RETRYABLE_GET_STATUSES.includes(statusCode) &&
			transientRetries < MAX_GET_RETRIES
		) {
			const hinted = retryAfterSeconds(headers, Date.now());
			await pause(
				this,
				Math.min(
					hinted === undefined ? Infinity : hinted * 1000,
					BACKOFF_BASE_MS * 2 ** transientRetries,
				),
			);
			transientRetries++;
			continue;
		}

		let available: number | undefined;
		if (statusCode === 402 && endpoint !== '/user/credits') {
			available = await readAvailableCredits(this);
		}
		throw apiError(
			this,
			describeFailure({
				statusCode,
				body,
				headers,
				method,
				endpoint,
				apiKey: credentials.apiKey,
				cost: options.cost,
				available,
			}),
			options.itemIndex,
		);
	}
}

/** Best effort: the balance makes a 402 actionable, but its absence must not hide the 402. */
async function readAvailableCredits(context: ApiContext): Promise<number | undefined> {
	try {
		const { data } = await apiRequest.call<
			ApiContext,
			['GET', string],
			Promise<ApiResponse<Credits>>
		>(context, 'GET', '/user/credits');
		return typeof data?.available_credits === 'number' ? data.available_credits : undefined;
	} catch (error) {
		context.logger?.debug('Could not read the credit balance to explain a 402', {
			error: (error as Error).message,
		});
		return undefined;
	}
}

/** Waits for the per-minute window to reset when the last answer said nothing is left. */
export async function respectRateLimit(
	context: ApiContext,
	rateLimit: RateLimitInfo,
	maxWaitMs: number = DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
): Promise<void> {
	if (rateLimit.remaining !== 0 || rateLimit.reset === undefined) return;
	const waitMs = Math.ceil(rateLimit.reset * 1000 - Date.now());
	if (waitMs > 0 && waitMs <= maxWaitMs) await pause(context, waitMs);
}

export interface Page<T> {
	items: T[];
	pagination?: Pagination;
}

/** Page by page, so a caller can stop as soon as it has what it needs. */
export async function* iteratePages<T>(
	this: ApiContext,
	endpoint: string,
	qs: IDataObject,
	pageSize = 100,
	options: Omit<RequestOptions, 'qs' | 'body'> = {},
): AsyncGenerator<Page<T>> {
	const credentials = options.credentials ?? (await credentialsOf(this));
	for (let page = 1; ; page++) {
		const response = await apiRequest.call<
			ApiContext,
			['GET', string, RequestOptions],
			Promise<ApiResponse<T[]>>
		>(this, 'GET', endpoint, { ...options, credentials, qs: { ...qs, page, limit: pageSize } });
		const items = Array.isArray(response.data) ? response.data : [];
		yield { items, pagination: response.pagination };
		const pagination = response.pagination;
		const more = pagination
			? pagination.has_more === true ||
				(pagination.has_more === undefined && page < pagination.total_pages)
			: items.length === pageSize;
		if (!more || items.length === 0) return;
		await respectRateLimit(this, response.rateLimit, options.maxRateLimitWaitMs);
	}
}

/** Every record (pages of 100), or exactly the pages needed for `limit` records. */
export async function apiRequestAll<T>(
	this: ApiContext,
	endpoint: string,
	qs: IDataObject,
	limit?: number,
	options: Omit<RequestOptions, 'qs' | 'body'> = {},
): Promise<T[]> {
	const pageSize = limit === undefined ? 100 : Math.min(Math.max(limit, 1), 100);
	const records: T[] = [];
	for await (const { items } of iteratePages.call<
		ApiContext,
		[string, IDataObject, number, typeof options],
		AsyncGenerator<Page<T>>
	>(this, endpoint, qs, pageSize, options)) {
		records.push(...items);
		if (limit !== undefined && records.length >= limit) return records.slice(0, limit);
	}
	return records;
}

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
	bytes: number;
}

const DOWNLOAD_TIMEOUT_MS = 60_000;

function formatBytes(bytes: number): string {
	return bytes >= 1024 * 1024
		? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
		: `${Math.ceil(bytes / 1024)} KB`;
}

function fileNameOf(url: string): string | undefined {
	try {
		const last = new URL(url).pathname.split('/').filter(Boolean).pop();
		return last ? decodeURIComponent(last) : undefined;
	} catch {
		return undefined;
	}
}

async function readBounded(
	body: unknown,
	maxBytes: number,
	tooLarge: (bytes: number) => Error,
): Promise<Buffer> {
	if (Buffer.isBuffer(body)) {
		if (body.length > maxBytes) throw tooLarge(body.length);
		return body;
	}
	if (body instanceof ArrayBuffer) return readBounded(Buffer.from(body), maxBytes, tooLarge);
	if (typeof body === 'string') return readBounded(Buffer.from(body), maxBytes, tooLarge);
	const stream = body as AsyncIterable<Buffer | string> & { destroy?: () => void };
	const chunks: Buffer[] = [];
	let total = 0;
	for await (const chunk of stream) {
		const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		total += piece.length;
		if (total > maxBytes) {
			// Stop reading at the bound instead of pulling the whole file into memory.
			stream.destroy?.();
			throw tooLarge(total);
		}
		chunks.push(piece);
	}
	return Buffer.concat(chunks);
}

/**
 * Downloads a public file the API linked to (a generated image). Not an API route: no
 * Authorization header is sent, and the size is bounded while reading.
 */
export async function downloadFile(
	context: IExecuteFunctions,
	url: string,
	maxBytes: number,
	options: { label?: string; itemIndex?: number } = {},
): Promise<DownloadedFile> {
	const label = options.label ?? 'file';
	const itemIndex = options.itemIndex;
	const fail = (message: string, description?: string) =>
		new NodeOperationError(context.getNode(), message, { itemIndex, description });
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw fail(`Could not download the ${label}: "${url}" is not a URL`);
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		throw fail(
			`Could not download the ${label}: only http(s) URLs are fetched, got ${parsed.protocol}`,
		);
	}
	const tooLarge = (bytes: number) =>
		fail(
			`The ${label} is larger than the maximum image size (${formatBytes(bytes)} > ${formatBytes(maxBytes)})`,
			'Raise "Max Image Size (MB)" in the options, or turn off "Download Images" and use the image URLs.',
		);

	for (let attempt = 0; ; attempt++) {
		throwIfCancelled(context);
		let response: FullResponse;
		try {
			response = (await context.helpers.httpRequest({
				method: 'GET',
				url: parsed.toString(),
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				timeout: DOWNLOAD_TIMEOUT_MS,
				abortSignal: cancelSignal(context),
			})) as FullResponse;
		} catch (error) {
			if (isAbort(error)) throw cancelled(context);
			const code = networkCode(error);
			if (TRANSIENT_CODES.includes(code ?? '') && attempt < MAX_GET_RETRIES) {
				await backoff(context, attempt);
				continue;
			}
			throw fail(
				`Could not download the ${label} (${code ?? (error as Error).message})`,
				parsed.toString(),
			);
		}
		const { statusCode, body } = response;
		const headers = response.headers ?? {};
		if (statusCode < 200 || statusCode >= 300) {
			(body as { destroy?: () => void } | undefined)?.destroy?.();
			if (RETRYABLE_GET_STATUSES.includes(statusCode) && attempt < MAX_GET_RETRIES) {
				await backoff(context, attempt);
				continue;
			}
			throw fail(
				`Could not download the ${label}: the file server answered HTTP ${statusCode}`,
				parsed.toString(),
			);
		}
		const declared = Number(header(headers, 'content-length'));
		if (Number.isFinite(declared) && declared > maxBytes) {
			(body as { destroy?: () => void } | undefined)?.destroy?.();
			throw tooLarge(declared);
		}
		const data = await readBounded(body, maxBytes, tooLarge);
		const contentType = header(headers, 'content-type')?.split(';')[0].trim().toLowerCase();
		return {
			data,
			bytes: data.length,
			mimeType: contentType || undefined,
			fileName: fileNameOf(parsed.toString()),
		};
	}
}
