/**
 * The node's side of the seam (./tracker/reader is the tracker's): the trigger's only use of the
 * transport, answering the tracker's reads. Every request (its
 * timeouts, retries and rate-limit waits) ends by the poll's deadline, so a poll never runs into
 * the next one nor past n8n's poll budget; optional reads are declined once half of that time is
 * gone.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiResponse, RateLimitInfo } from '../shared/types';
import { DeadlineError } from '../shared/transport/http';
import { connect, request, respectRateLimit, type Connection } from '../shared/transport/request';
import { pathId } from '../shared/validation';
import type { PollTiming } from './schedule';
import {
	OUT_OF_TIME,
	type ListResult,
	type TrackedRecord,
	type TrackerReply,
	type TrackerRequest,
} from './tracker/reader';

/** A poll waits out a 429 this long at most, then gives up and tries again at the next poll. */
const MAX_RATE_LIMIT_WAIT_MS = 20_000;

export interface Filters {
	projectId?: string;
	platform?: string;
}

export function isRateLimited(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '429';
}

/** The poll's deadline came first: the service is too slow for the time a poll has. */
export function ranOutOfTime(error: unknown): boolean {
	return error instanceof DeadlineError;
}

/**
 * The service's clock from an X-RateLimit-Reset header, when it is the per-minute window's: within
 * a minute of the host's clock. The window's start is the latest the service can have been at,
 * so no cursor bounded by it passes the service's time; a reset further away (an hourly or daily
 * window) says nothing about the time.
 */
export function serviceClock(
	resetSeconds: number | undefined,
	hostNow: number,
): number | undefined {
	const reset = (resetSeconds ?? NaN) * 1000;
	return Math.abs(reset - hostNow) <= 60_000 ? reset - 60_000 : undefined;
}

export type Reader = ((request: TrackerRequest) => Promise<TrackerReply>) & {
	/** The key's budget as the last answer of this poll gave it. */
	rateLimit(): RateLimitInfo | undefined;
};

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '404';
}

/** A list's answer as the tracker reads it: its page, total, whether more follow, the clock. */
function asListResult(response: ApiResponse<TrackedRecord[]>, limit: unknown): ListResult {
	const items = Array.isArray(response.data) ? response.data : [];
	const pagination = response.pagination;
	const serviceTime = serviceClock(response.rateLimit?.reset, Date.now());
	return {
		...(serviceTime === undefined ? {} : { serviceTime }),
		items,
		total: typeof pagination?.total === 'number' ? pagination.total : items.length,
		hasMore:
			typeof pagination?.has_more === 'boolean'
				? pagination.has_more
				: items.length === Number(limit),
	};
}

/** Answers the tracker's reads for one poll. */
export function reader(context: IPollFunctions, filters: Filters, timing?: PollTiming): Reader {
	const maxWait = () =>
		timing
			? Math.max(0, Math.min(MAX_RATE_LIMIT_WAIT_MS, timing.deadline - Date.now()))
			: MAX_RATE_LIMIT_WAIT_MS;

	// The credential is read once per poll, at its first request.
	let connection: Promise<Connection> | undefined;
	let rateLimit: RateLimitInfo | undefined;
	const get = async <T>(endpoint: string, qs?: IDataObject) => {
		const response = await request<T>(await (connection ??= connect(context)), 'GET', endpoint, {
			qs,
			maxRateLimitWaitMs: maxWait(),
			deadline: timing?.deadline,
		});
		rateLimit = response.rateLimit;
		return response;
	};

	async function list(endpoint: string, qs: IDataObject): Promise<ListResult> {
		const response = await get<TrackedRecord[]>(endpoint, qs);
		await respectRateLimit(context, response.rateLimit, maxWait());
		return asListResult(response, qs.limit);
	}

	const answer = async (read: TrackerRequest): Promise<TrackerReply> => {
		if (read.kind !== 'articleList' && read.optional && timing && Date.now() > timing.softDeadline)
			return OUT_OF_TIME;
		if (read.kind === 'socialRecord') {
			// A record that is gone (or moved to another account) simply stops being followed.
			const path = `/social/content/${pathId('Content ID', read.id)}`;
			return await get<TrackedRecord>(path).then(
				(response) => response.data ?? null,
				async (error: unknown) => (isNotFound(error) ? null : await Promise.reject(error)),
			);
		}
		const qs: IDataObject = { page: read.page, limit: read.limit };
		if (read.status) qs.status = read.status;
		if (filters.projectId) qs.project_id = filters.projectId;
		if (read.kind === 'articleList') {
			return await list('/articles', { ...qs, sort: 'updated_at', order: 'desc' });
		}
		if (filters.platform) qs.platform = filters.platform;
		return await list('/social/content', qs);
	};
	return Object.assign(answer, { rateLimit: () => rateLimit });
}
