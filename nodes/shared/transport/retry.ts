import { RATE_LIMIT_WAIT } from '../constants';
import type { RateLimitInfo } from '../types';
import { header } from './http';

/**
 * When a request is sent again. A GET is free and idempotent, so transient failures are retried;
 * a POST may already have been processed (and charged), so it is sent again only when it provably
 * never reached the service (connection refused, name not resolved) or was refused with a 429.
 * The key's rate budget, read from each answer's headers, says how long to wait before the next.
 */

const MAX_TRANSIENT_RETRIES = 3;
export const MAX_RATE_LIMIT_RETRIES = 10;
const BACKOFF_BASE_MS = 500;
/** A pause for a 429 that gives no usable Retry-After or reset time. */
const RATE_LIMIT_FALLBACK_MS = 1000;
const RATE_LIMIT_FALLBACK_MAX_MS = 30_000;

/** The connection never reached the service. */
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
const RETRYABLE_GET_STATUSES = [500, 502, 503, 504];

/** How a request failed without an HTTP answer. */
export type Breakage =
	| { kind: 'timeout' }
	/** A system error code: the connection failed, before or after the request went out. */
	| { kind: 'network'; code: string }
	/** n8n refused or failed before sending (no system error code): nothing left this machine. */
	| { kind: 'unsent'; reason: string };

export function isNeverReached(breakage: Breakage): boolean {
	return breakage.kind === 'network' && NEVER_REACHED_CODES.includes(breakage.code);
}

export function backoffMs(attempt: number): number {
	return BACKOFF_BASE_MS * 2 ** attempt;
}

/** Milliseconds to wait before sending again after a breakage, or undefined to give up. */
export function retryAfterBreakage(
	method: string,
	breakage: Breakage,
	retries: number,
): number | undefined {
	if (retries >= MAX_TRANSIENT_RETRIES) return undefined;
	const retryable =
		method === 'GET'
			? breakage.kind === 'timeout' ||
				(breakage.kind === 'network' && TRANSIENT_CODES.includes(breakage.code))
			: isNeverReached(breakage);
	return retryable ? backoffMs(retries) : undefined;
}

/** Seconds a 429 asks to wait, when it says so sensibly (a positive number or a future date). */
export function retryAfterSeconds(
	headers: Record<string, unknown>,
	nowMs: number,
): number | undefined {
	const value = header(headers, 'retry-after')?.trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) {
		const seconds = Number(value);
		return seconds > 0 ? seconds : undefined;
	}
	const date = Date.parse(value);
	return Number.isNaN(date) || date <= nowMs ? undefined : (date - nowMs) / 1000;
}

/** Milliseconds to wait before retrying a GET that got a gateway error or a body that was not ours. */
export function retryAfterBadAnswer(
	method: string,
	statusCode: number | undefined,
	headers: Record<string, unknown>,
	retries: number,
): number | undefined {
	if (method !== 'GET' || retries >= MAX_TRANSIENT_RETRIES) return undefined;
	if (statusCode !== undefined && !RETRYABLE_GET_STATUSES.includes(statusCode)) return undefined;
	const hinted = retryAfterSeconds(headers, Date.now());
	return Math.min(hinted === undefined ? Infinity : hinted * 1000, backoffMs(retries));
}

/**
 * How long a 429 asks to wait: Retry-After when it is a positive number or a future date, else the
 * rate-limit window's reset time when that lies ahead, else a growing pause. Never zero, so a
 * service that answers nonsense is not hammered.
 */
export function rateLimitPauseMs(
	headers: Record<string, unknown>,
	nowMs: number,
	retries: number,
): number {
	const retryAfter = retryAfterSeconds(headers, nowMs);
	if (retryAfter !== undefined)
		return Math.max(RATE_LIMIT_FALLBACK_MS, Math.ceil(retryAfter * 1000));
	const { reset } = rateLimitOf(headers);
	if (reset !== undefined && reset * 1000 > nowMs && reset * 1000 - nowMs <= 3_600_000) {
		return Math.max(RATE_LIMIT_FALLBACK_MS, Math.ceil(reset * 1000 - nowMs));
	}
	return Math.min(RATE_LIMIT_FALLBACK_MAX_MS, RATE_LIMIT_FALLBACK_MS * 2 ** retries);
}

export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = RATE_LIMIT_WAIT.default * 1000;

/** Below this, an attempt could not get an answer from even a quick service. */
export const MIN_ATTEMPT_MS = 1000;

/** Whether waiting `waitMs` still leaves one attempt's time before the caller's deadline. */
export function fitsBefore(deadline: number | undefined, waitMs: number, nowMs: number): boolean {
	return deadline === undefined || nowMs + waitMs + MIN_ATTEMPT_MS <= deadline;
}

/** Milliseconds until the per-minute window resets, when nothing is left in it and the wait fits. */
export function untilWindowResets(rateLimit: RateLimitInfo | undefined, maxWaitMs: number): number {
	if (rateLimit?.remaining !== 0 || rateLimit.reset === undefined) return 0;
	const waitMs = Math.ceil(rateLimit.reset * 1000 - Date.now());
	return waitMs > 0 && waitMs <= maxWaitMs ? waitMs : 0;
}

/** The key's budget as the X-RateLimit-* headers of an answer give it. */
export function rateLimitOf(headers: Record<string, unknown>): RateLimitInfo {
	const number = (name: string) => {
		const value = header(headers, name);
		const parsed = value === undefined ? NaN : Number(value);
		return Number.isFinite(parsed) ? parsed : undefined;
	};
	return {
		limit: number('x-ratelimit-limit'),
		remaining: number('x-ratelimit-remaining'),
		reset: number('x-ratelimit-reset'),
		dailyLimit: number('x-ratelimit-daily-limit'),
		dailyRemaining: number('x-ratelimit-daily-remaining'),
	};
}

/**
 * Time between a polling wait's requests that makes what is left of the key's budget last until
 * its window resets, given how fast the budget drained since the wait's previous request (other
 * executions share it). Small while the budget is ample, so a lone wait is never slower; as
 * executions drain the budget together, each slows to its share instead of polling into a 429
 * and stalling until the window resets.
 */
export function budgetSpacingMs(
	rateLimit: RateLimitInfo | undefined,
	previous: RateLimitInfo | undefined,
	nowMs = Date.now(),
): number {
	if (rateLimit?.remaining === undefined || rateLimit.reset === undefined) return 0;
	const windowLeftMs = rateLimit.reset * 1000 - nowMs;
	if (windowLeftMs <= 0) return 0;
	const sameWindow = previous?.reset === rateLimit.reset && previous.remaining !== undefined;
	const drained = sameWindow
		? Math.max(1, (previous.remaining as number) - rateLimit.remaining)
		: 1;
	return (windowLeftMs * drained) / (Math.max(0, rateLimit.remaining) + 1);
}
