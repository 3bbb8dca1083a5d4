import { DAY_MS } from './constants';
import type { ApiKeyRec } from './records';

/** A key's limits; `windowMs` is the length of its "minute" (shorter only to compress time). */
export interface RateLimits {
	perMinute: number;
	perDay: number;
	windowMs?: number;
}

export interface RateState {
	limitPerMinute: number;
	remainingPerMinute: number;
	/** -1 = unlimited */
	limitPerDay: number;
	remainingPerDay: number;
	/** epoch seconds when the minute window resets */
	reset: number;
}

function roll(k: ApiKeyRec, limits: RateLimits, now: number): void {
	const windowMs = limits.windowMs ?? 60_000;
	const minuteStart = Math.floor(now / windowMs) * windowMs;
	if (k.minute.start !== minuteStart) k.minute = { start: minuteStart, count: 0 };
	const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
	if (k.day.start !== dayStart) k.day = { start: dayStart, count: 0 };
}

export function rateState(k: ApiKeyRec, limits: RateLimits, now: number): RateState {
	roll(k, limits, now);
	const unlimited = limits.perDay < 0;
	return {
		limitPerMinute: limits.perMinute,
		remainingPerMinute: Math.max(0, limits.perMinute - k.minute.count),
		limitPerDay: unlimited ? -1 : limits.perDay,
		remainingPerDay: unlimited ? -1 : Math.max(0, limits.perDay - k.day.count),
		reset: (k.minute.start + (limits.windowMs ?? 60_000)) / 1000,
	};
}

/** Counts the request against the key's fixed windows; returns seconds to wait when over budget. */
export function consume(
	k: ApiKeyRec,
	limits: RateLimits,
	now: number,
): { retryAfter: number | null; state: RateState } {
	roll(k, limits, now);
	if (k.minute.count >= limits.perMinute) {
		return {
			retryAfter: Math.max(
				1,
				Math.ceil((k.minute.start + (limits.windowMs ?? 60_000) - now) / 1000),
			),
			state: rateState(k, limits, now),
		};
	}
	if (limits.perDay >= 0 && k.day.count >= limits.perDay) {
		return {
			retryAfter: Math.max(1, Math.ceil((k.day.start + DAY_MS - now) / 1000)),
			state: rateState(k, limits, now),
		};
	}
	k.minute.count++;
	k.day.count++;
	return { retryAfter: null, state: rateState(k, limits, now) };
}

export function rateHeaders(s: RateState): Record<string, string> {
	const h: Record<string, string> = {
		'X-RateLimit-Limit': String(s.limitPerMinute),
		'X-RateLimit-Remaining': String(s.remainingPerMinute),
		'X-RateLimit-Reset': String(s.reset),
	};
	if (s.limitPerDay >= 0) {
		h['X-RateLimit-Daily-Limit'] = String(s.limitPerDay);
		h['X-RateLimit-Daily-Remaining'] = String(s.remainingPerDay);
	}
	return h;
}
