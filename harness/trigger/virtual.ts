/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a virtual clock for tests stands in for the real timers */
/**
 * The in-memory account (./world) served through n8n's authenticated request helper on a virtual
 * clock: each answer takes the time its latency says on the world's clock, an answer slower than
 * the request's own timeout ends in a timeout once that time has passed, and every answer carries
 * the rate-limit headers of the window the service says it counts in. While the clock is in use,
 * Date.now and the timers behind n8n's sleep follow the world's clock, so a poll's waits, timeouts
 * and retries are counted there, in no real time.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import type { TrackerRequest } from '../../nodes/ContentGenTrigger/tracker';
import type { World } from './world';

/** Milliseconds an answer takes; Infinity: it never comes. */
export type Latency = (request: TrackerRequest, index: number) => number;

/** The X-RateLimit-Reset the service sends at a time (epoch seconds). */
export type ResetHeader = (now: number) => number;

const windowOf =
	(ms: number): ResetHeader =>
	(now) =>
		(Math.floor(now / ms) * ms + ms) / 1000;

/** The spec's per-minute window, and the hourly, daily and weekly ones other services count in. */
export const RESET_WINDOWS = {
	minute: windowOf(60_000),
	hour: windowOf(3_600_000),
	day: windowOf(86_400_000),
	week: windowOf(7 * 86_400_000),
} as const;

export interface Served {
	request: TrackerRequest;
	at: number;
	took: number;
}

function trackerRequest(url: string, qs: Record<string, unknown>): TrackerRequest {
	const path = new URL(url).pathname.replace(/^.*\/api\/v1/, '');
	const list = {
		page: Number(qs.page ?? 1),
		limit: Number(qs.limit ?? 20),
		...(qs.status === undefined ? {} : { status: String(qs.status) }),
	};
	if (path === '/articles') return { kind: 'articleList', ...list };
	if (path === '/social/content') return { kind: 'socialList', ...list };
	const record = /^\/social\/content\/([^/]+)$/.exec(path);
	if (record) return { kind: 'socialRecord', id: record[1] };
	throw new Error(`the virtual service has no route ${path}`);
}

export class VirtualService {
	readonly served: Served[] = [];
	latency: Latency = () => 200;
	reset: ResetHeader = RESET_WINDOWS.minute;
	/** X-RateLimit-Daily-Limit; none (unlimited) when undefined. */
	dailyLimit: number | undefined;

	constructor(readonly world: World) {}

	/** n8n's authenticated request helper, answering from the world. */
	readonly http = async (_type: string, options: IHttpRequestOptions): Promise<unknown> => {
		const request = trackerRequest(options.url, (options.qs ?? {}) as Record<string, unknown>);
		const took = this.latency(request, this.served.length);
		const timeout = options.timeout ?? 300_000;
		this.served.push({ request, at: this.world.now, took });
		const reply = this.world.answer(request);
		this.world.tick(Math.min(took, timeout));
		if (took >= timeout)
			throw Object.assign(new Error(`timeout of ${timeout}ms exceeded`), { code: 'ECONNABORTED' });
		const headers: Record<string, string> = {
			'x-ratelimit-limit': '1000',
			'x-ratelimit-remaining': '999',
			'x-ratelimit-reset': String(this.reset(this.world.now)),
		};
		if (this.dailyLimit !== undefined) headers['x-ratelimit-daily-limit'] = String(this.dailyLimit);
		if (reply === null) {
			const error = { code: 'NOT_FOUND', message: 'Social content not found' };
			return { statusCode: 404, headers, body: { success: false, error } };
		}
		if (request.kind === 'socialRecord') {
			return { statusCode: 200, headers, body: { success: true, data: reply } };
		}
		const { items, total, hasMore } = reply as {
			items: unknown[];
			total: number;
			hasMore: boolean;
		};
		const pagination = {
			total,
			page: request.page,
			limit: request.limit,
			total_pages: Math.ceil(total / request.limit),
			has_more: hasMore,
		};
		return { statusCode: 200, headers, body: { success: true, data: items, pagination } };
	};
}

/**
 * Makes Date.now (the n8n host's clock, `hostAheadMs` ahead of the service's) and setTimeout follow
 * the world's clock; call the returned function to stop.
 */
export function useVirtualClock(world: World, hostAheadMs = 0): () => void {
	const realNow = Date.now;
	const realSetTimeout = globalThis.setTimeout;
	Date.now = () => world.now + hostAheadMs;
	const virtualSetTimeout = (callback: (...args: unknown[]) => void, ms?: number) => {
		world.tick(Math.max(0, Number(ms ?? 0)));
		return realSetTimeout(callback, 0);
	};
	globalThis.setTimeout = virtualSetTimeout as unknown as typeof setTimeout;
	return () => {
		Date.now = realNow;
		globalThis.setTimeout = realSetTimeout;
	};
}
