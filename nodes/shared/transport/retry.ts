import { RATE_LIMIT_WAIT } from '../constants';
import type { RateLimitInfo } from '../types';
import { type Exchange, header } from './http';

/**
 * When a request is sent again. A GET is free and idempotent, so a timeout, a broken connection, a
 * gateway error or a body that is not the service's is retried a few times; a POST may already
 * have been processed (and charged), so it is sent again only when it provably never reached the
 * service (connection refused, name not resolved) or was refused with a 429. A 429 is waited out
 * as it asks, within the request's Max Rate-Limit Wait; every wait leaves the caller's deadline
 * one attempt's time.
 */

const MAX_TRANSIENT_RETRIES = 3;
const MAX_RATE_LIMIT_RETRIES = 10;
/** The connection never reached the service. */
const NEVER_REACHED = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];
const TRANSIENT_CODES = [
	...NEVER_REACHED,
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ERR_BAD_RESPONSE',
];
const RETRYABLE_GET_STATUSES = [500, 502, 503, 504];

export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = RATE_LIMIT_WAIT.default * 1000;
/** Below this, an attempt could not get an answer from even a quick service. */
export const MIN_ATTEMPT_MS = 1000;

export function neverReached(exchange: Exchange): boolean {
	return exchange.breakage?.kind === 'network' && NEVER_REACHED.includes(exchange.breakage.code);
}

export function backoffMs(attempt: number): number {
	return 500 * 2 ** attempt;
}

/** Seconds a 429 asks to wait, when it says so sensibly (a positive number or a future date). */
export function retryAfterSeconds(
	headers: Record<string, unknown>,
	nowMs: number,
): number | undefined {
	const value = header(headers, 'retry-after')?.trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Number(value) > 0 ? Number(value) : undefined;
	const date = Date.parse(value);
	return Number.isNaN(date) || date <= nowMs ? undefined : (date - nowMs) / 1000;
}

/** How many times a request was sent again, by cause. */
export interface Retries {
	transient: number;
	rateLimited: number;
}

/**
 * Milliseconds to wait before sending again after this exchange, or undefined: it is not sent
 * again. `rateLimited` marks a 429's wait, which counts towards Max Rate-Limit Wait. A 429 waits
 * Retry-After when it is a positive number or a future date, else until the window's reset when
 * that lies within the hour, else a growing pause: never zero, so a service answering nonsense
 * is not hammered.
 */
export function retryIn(
	method: string,
	exchange: Exchange,
	retries: Retries,
	nowMs: number,
): { waitMs: number; rateLimited?: boolean } | undefined {
	const { breakage, response } = exchange;
	if (breakage) {
		const again =
			method === 'GET'
				? breakage.kind === 'timeout' ||
					(breakage.kind === 'network' && TRANSIENT_CODES.includes(breakage.code))
				: neverReached(exchange);
		return again && retries.transient < MAX_TRANSIENT_RETRIES
			? { waitMs: backoffMs(retries.transient) }
			: undefined;
	}
	const { statusCode, headers } = response;
	if (statusCode === 429) {
		if (retries.rateLimited >= MAX_RATE_LIMIT_RETRIES) return undefined;
		const retryAfter = retryAfterSeconds(headers, nowMs);
		const resetMs = (rateLimitOf(headers).reset ?? 0) * 1000 - nowMs;
		const waitMs =
			retryAfter !== undefined
				? retryAfter * 1000
				: resetMs > 0 && resetMs <= 3_600_000
					? resetMs
					: Math.min(30_000, 1000 * 2 ** retries.rateLimited);
		return { waitMs: Math.max(1000, Math.ceil(waitMs)), rateLimited: true };
	}
	// A gateway error, or a 2xx that is not the service's envelope (a proxy page, a cut-off body).
	const retryable = statusCode < 300 || RETRYABLE_GET_STATUSES.includes(statusCode);
	if (method !== 'GET' || !retryable || retries.transient >= MAX_TRANSIENT_RETRIES)
		return undefined;
	const hinted = retryAfterSeconds(headers, nowMs);
	return {
		waitMs: Math.min(hinted === undefined ? Infinity : hinted * 1000, backoffMs(retries.transient)),
	};
}

/** Whether waiting `waitMs` still leaves one attempt's time before the caller's deadline. */
export function fitsBefore(deadline: number | undefined, waitMs: number, nowMs: number): boolean {
	return deadline === undefined || nowMs + waitMs + MIN_ATTEMPT_MS <= deadline;
}

/** The key's budget as the X-RateLimit-* headers of an answer give it. */
export function rateLimitOf(headers: Record<string, unknown>): RateLimitInfo {
	const number = (name: string) => {
		const value = Number(header(headers, name) ?? NaN);
		return Number.isFinite(value) ? value : undefined;
	};
	return {
		limit: number('x-ratelimit-limit'),
		remaining: number('x-ratelimit-remaining'),
		reset: number('x-ratelimit-reset'),
		dailyLimit: number('x-ratelimit-daily-limit'),
		dailyRemaining: number('x-ratelimit-daily-remaining'),
	};
}
