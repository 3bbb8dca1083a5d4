import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { ListedPost } from '../../../../shared/queue/claims';
import { PAGE_SIZE_MAX } from '../../../../shared/constants';
import { collect } from '../../../../shared/transport/pages';
import type { CallOptions, Connection } from '../../../../shared/transport/request';
import { request } from '../../../../shared/transport/request';
import { pathId } from '../../../../shared/validation';

/** A record's platforms: a list of names while generating, an object of captions once finished. */
export function platformsOf(value: unknown): string[] {
	if (Array.isArray(value)) return value.filter((p): p is string => typeof p === 'string');
	if (value !== null && typeof value === 'object') return Object.keys(value);
	return [];
}

/**
 * Every scheduled post of the account, every page (the service's own status filter), as the queue
 * counts them: a record takes its slot on each platform it holds, since the list does not say
 * which platforms a publish chose. A shortfall throws: free slots read from part of the list
 * could double-book.
 */
export async function readScheduled(
	context: IExecuteFunctions,
	connection: Connection,
	call: CallOptions,
): Promise<{ posts: ListedPost[] }> {
	const walked = await collect<IDataObject>(
		connection,
		'/social/content',
		{ status: 'scheduled' },
		undefined,
		call,
	);
	let records = walked.records;
	let shortfall = walked.shortfall;
	if (shortfall) {
		const sampled = await sample(connection, call, records);
		records = sampled.records;
		if (sampled.complete) shortfall = undefined;
	}
	if (shortfall) {
		throw new NodeOperationError(
			context.getNode(),
			'Could not read every scheduled post, so the free slots are unknown',
			{
				itemIndex: call.itemIndex,
				description: `${shortfall}, and reading its pages again did not find the rest. Nothing was scheduled from this read; run the node again.`,
			},
		);
	}
	const posts: ListedPost[] = [];
	for (const record of records) {
		const at = Date.parse(String(record.scheduled_publish_at ?? ''));
		if (typeof record.id !== 'string' || Number.isNaN(at)) continue;
		posts.push({
			id: record.id.toLowerCase(),
			at,
			platforms: platformsOf(record.platforms),
			updatedAt: Date.parse(String(record.updated_at ?? '')),
		});
	}
	return { posts };
}

/** Reads of a list's pages again, at most, per page it has: a bound on sampling. */
export const SAMPLE_READS_PER_PAGE = 10;

/**
 * The rest of a list that a walk could not read whole (a service that orders it differently on
 * every request, as the spec allows): its pages read again in turn, each record kept once, until
 * as many were seen as the service counts, within SAMPLE_READS_PER_PAGE reads per page.
 */
async function sample(
	connection: Connection,
	call: CallOptions,
	walked: IDataObject[],
): Promise<{ records: IDataObject[]; complete: boolean }> {
	const seen = new Map<string, IDataObject>();
	for (const record of walked) if (typeof record.id === 'string') seen.set(record.id, record);
	let total: number | undefined;
	let pages = 1;
	for (let read = 0; read < pages * SAMPLE_READS_PER_PAGE; read++) {
		const answer = await request<IDataObject[]>(connection, 'GET', '/social/content', {
			...call,
			qs: { status: 'scheduled', page: (read % pages) + 1, limit: PAGE_SIZE_MAX },
		});
		for (const record of Array.isArray(answer.data) ? answer.data : []) {
			if (typeof record?.id === 'string' && !seen.has(record.id)) seen.set(record.id, record);
		}
		const counted = answer.pagination?.total;
		if (typeof counted !== 'number' || !Number.isInteger(counted) || counted < 0) break;
		total = counted;
		pages = Math.max(1, Math.ceil(total / PAGE_SIZE_MAX));
		if (seen.size >= total) break;
	}
	return { records: [...seen.values()], complete: total !== undefined && seen.size >= total };
}

/** The platforms of one record, read from the service (a free read). */
export async function recordPlatforms(
	connection: Connection,
	contentId: string,
	call: CallOptions,
): Promise<string[]> {
	const { data } = await request<IDataObject>(
		connection,
		'GET',
		`/social/content/${pathId('Content ID', contentId)}`,
		call,
	);
	return platformsOf((data ?? {}).platforms);
}
