/**
 * The trigger's only use of the transport: answers the tracker's reads. Every wait for the rate
 * limit is bounded by the time left before the next poll, so a poll never runs into the next
 * one; optional reads are declined once half of that time is gone.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { connect, request, respectRateLimit, type Connection } from '../shared/transport/request';
import { pathId } from '../shared/validation';
import type { PollTiming } from './schedule';
import {
	OUT_OF_TIME,
	type ListResult,
	type TrackedRecord,
	type TrackerReply,
	type TrackerRequest,
} from './types';

/** A poll waits out a 429 this long at most, then gives up and tries again at the next poll. */
const MAX_RATE_LIMIT_WAIT_MS = 20_000;

export interface Filters {
	projectId?: string;
	platform?: string;
}

export function isRateLimited(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '429';
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '404';
}

/** Answers the tracker's reads for one poll. */
export function reader(
	context: IPollFunctions,
	filters: Filters,
	timing?: PollTiming,
): (request: TrackerRequest) => Promise<TrackerReply> {
	const maxWait = () =>
		timing
			? Math.max(0, Math.min(MAX_RATE_LIMIT_WAIT_MS, timing.deadline - Date.now()))
			: MAX_RATE_LIMIT_WAIT_MS;

	// The credential is read once per poll, at its first request.
	let connection: Promise<Connection> | undefined;
	const get = async <T>(endpoint: string, qs?: IDataObject) =>
		await request<T>(await (connection ??= connect(context)), 'GET', endpoint, {
			qs,
			maxRateLimitWaitMs: maxWait(),
		});

	async function list(endpoint: string, qs: IDataObject): Promise<ListResult> {
		const response = await get<TrackedRecord[]>(endpoint, qs);
		const items = Array.isArray(response.data) ? response.data : [];
		await respectRateLimit(context, response.rateLimit, maxWait());
		const pagination = response.pagination;
		// The per-minute window's reset is the service's own clock, at most a minute ahead.
		const reset = (response.rateLimit?.reset ?? NaN) * 1000;
		const plausible = Math.abs(reset - Date.now()) < 7 * 86_400_000;
		return {
			...(plausible ? { serviceTime: reset } : {}),
			items,
			total: typeof pagination?.total === 'number' ? pagination.total : items.length,
			hasMore:
				typeof pagination?.has_more === 'boolean'
					? pagination.has_more
					: items.length === Number(qs.limit),
		};
	}

	return async (read) => {
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
}
