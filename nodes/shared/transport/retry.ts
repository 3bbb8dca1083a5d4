import { RATE_LIMIT_WAIT } from '../constants';
import type { RateLimitInfo } from '../types';
import { type Breakage, type Exchange, header } from './http';

/**
 * When a request is sent again. A GET is free and idempotent: a timeout, a broken connection, a
 * gateway error or a body not the service's is retried a few times. A POST may have been processed
 * (and charged): it is sent again only when it provably never reached the service (connection
 * refused, name not resolved) or got a 429. A 429 is waited out as asked, within Max Rate-Limit
 * Wait (./request keeps every wait within the caller's deadline).
 */

const MAX_TRANSIENT_RETRIES = 3;
const MAX_RATE_LIMIT_RETRIES = 10;
const NEVER_REACHED = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];
const TRANSIENT = NEVER_REACHED.concat(
	'ECONNRESET EPIPE ERR_BAD_RESPONSE ERR_SOCKET_CONNECTION_TIMEOUT'.split(' '),
);
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = RATE_LIMIT_WAIT.default * 1000;

export const neverReached = (breakage: Breakage | undefined) =>
	breakage?.kind === 'network' && NEVER_REACHED.includes(breakage.code);

const backoffMs = (attempt: number) => 500 * 2 ** attempt;

/** Seconds a 429 asks to wait, when it says so sensibly (a positive number or a future date). */
export function retryAfterSeconds(headers: Record<string, unknown>, nowMs: number) {
	const value = header(headers, 'retry-after')?.trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Number(value) > 0 ? Number(value) : undefined;
	const date = Date.parse(value);
	return Number.isNaN(date) || date <= nowMs ? undefined : (date - nowMs) / 1000;
}

/**
 * The wait before sending again, or undefined: not again. A 429's wait (`rateLimited`, part of Max
 * Rate-Limit Wait) is Retry-After when sensible, else until a reset within the hour, else growing;
 * never under a second, so a service answering nonsense is not hammered.
 */
export function retryIn(
	method: string,
	exchange: Exchange,
	retries: { transient: number; rateLimited: number },
	nowMs: number,
): { waitMs: number; rateLimited?: boolean } | undefined {
	const { breakage, response } = exchange;
	const transient =
		retries.transient < MAX_TRANSIENT_RETRIES
			? { waitMs: backoffMs(retries.transient) }
			: undefined;
	if (breakage) {
		const again =
			method === 'GET'
				? breakage.kind === 'timeout' ||
					(breakage.kind === 'network' && TRANSIENT.includes(breakage.code))
				: neverReached(breakage);
		return again ? transient : undefined;
	}
	const { statusCode, headers } = response;
	const retryAfter = retryAfterSeconds(headers, nowMs);
	if (statusCode === 429) {
		if (retries.rateLimited >= MAX_RATE_LIMIT_RETRIES) return undefined;
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
	const gateway = statusCode < 300 || [500, 502, 503, 504].includes(statusCode);
	if (method !== 'GET' || !gateway || !transient) return undefined;
	return { waitMs: Math.min((retryAfter ?? Infinity) * 1000, transient.waitMs) };
}

export function rateLimitOf(headers: Record<string, unknown>): RateLimitInfo {
	const names = 'limit remaining reset daily-limit daily-remaining'.split(' ');
	const [limit, remaining, reset, dailyLimit, dailyRemaining] = names.map((name) => {
		const value = Number(header(headers, `x-ratelimit-${name}`) ?? NaN);
		return Number.isFinite(value) ? value : undefined;
	});
	return { limit, remaining, reset, dailyLimit, dailyRemaining };
}
