import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { ListedPost } from './claims';
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
 * Every scheduled post of the account, every page (the service's own status filter, and the
 * record's status again here: a service may apply the filter loosely), as the queue counts them: a
 * record takes its slot on each platform it holds, since the list does not say which platforms a
 * publish chose. `shortfall` says why the list could not be read whole.
 */
export async function readScheduled(
	connection: Connection,
	call: CallOptions,
): Promise<{ posts: ListedPost[]; shortfall?: string }> {
	const walked = await collect<IDataObject>(
		connection,
		'/social/content',
		{ status: 'scheduled' },
		undefined,
		call,
	);
	let records = walked.records;
	let shortfall = walked.shortfall;
	if (shortfall) ({ records, shortfall } = await sample(connection, call, records));
	const posts: ListedPost[] = [];
	for (const record of records) {
		const at = Date.parse(String(record.scheduled_publish_at ?? ''));
		if (typeof record.id !== 'string' || Number.isNaN(at)) continue;
		if (record.status !== undefined && record.status !== 'scheduled') continue;
		posts.push({
			id: record.id.toLowerCase(),
			at,
			platforms: platformsOf(record.platforms),
			updatedAt: Date.parse(String(record.updated_at ?? '')),
		});
	}
	return { posts, shortfall };
}

/** The scheduled posts to choose slots from; a shortfall throws: part of the list could double-book. */
export async function readEveryScheduled(
	context: IExecuteFunctions,
	connection: Connection,
	call: CallOptions,
): Promise<ListedPost[]> {
	const { posts, shortfall } = await readScheduled(connection, call);
	if (!shortfall) return posts;
	throw new NodeOperationError(
		context.getNode(),
		'Could not read every scheduled post, so the free slots are unknown',
		{
			itemIndex: call.itemIndex,
			description: `${shortfall}. Nothing was scheduled from this read; run the node again.`,
		},
	);
}

/** Reads of a list's pages again, at most, per page it has: a bound on sampling. */
export const SAMPLE_READS_PER_PAGE = 30;
/** Reads in a row, per page, that bring no record not seen before: the list will not give more. */
export const STALL_READS_PER_PAGE = 8;

/**
 * The rest of a list that a walk could not read whole (a service that orders it differently on
 * every request, as the spec allows, while others add to it): its pages read again in turn, each
 * record kept once by id, until the ids seen cover the service's latest count: the count may move
 * meanwhile (others scheduling), and the pages read are those of the latest count. Gives up when
 * the ids seen stop growing for STALL_READS_PER_PAGE reads per page (a record still unseen would
 * have escaped each of them: (1 - 1/pages)^(8 x pages), under 0.04 %), or after
 * SAMPLE_READS_PER_PAGE reads per page.
 */
async function sample(
	connection: Connection,
	call: CallOptions,
	walked: IDataObject[],
): Promise<{ records: IDataObject[]; shortfall?: string }> {
	const seen = new Map<string, IDataObject>();
	const idOf = (record: IDataObject | undefined) =>
		typeof record?.id === 'string' ? record.id.toLowerCase() : undefined;
	for (const record of walked) {
		const id = idOf(record);
		if (id !== undefined) seen.set(id, record);
	}
	let total: number | undefined;
	let size = 1;
	let pages = 1;
	let reads = 0;
	let stalled = 0;
	let why = `the budget of ${SAMPLE_READS_PER_PAGE} reads per page ran out`;
	while (reads < pages * SAMPLE_READS_PER_PAGE) {
		const answer = await request<IDataObject[]>(connection, 'GET', '/social/content', {
			...call,
			qs: { status: 'scheduled', page: (reads % pages) + 1, limit: PAGE_SIZE_MAX },
		});
		reads++;
		const data = Array.isArray(answer.data) ? answer.data : [];
		let grew = false;
		for (const record of data) {
			const id = idOf(record);
			if (id !== undefined && !seen.has(id)) {
				seen.set(id, record);
				grew = true;
			}
		}
		const counted = answer.pagination?.total;
		if (typeof counted !== 'number' || !Number.isInteger(counted) || counted < 0) {
			why = 'the service gave no count to read up to';
			break;
		}
		total = counted;
		// The page size the service serves (a gateway may cap it below the asked 100).
		size = Math.min(PAGE_SIZE_MAX, Math.max(size, data.length));
		pages = Math.max(1, Math.ceil(total / size));
		if (seen.size >= total) return { records: [...seen.values()] };
		stalled = grew ? 0 : stalled + 1;
		if (stalled >= pages * STALL_READS_PER_PAGE) {
			why = `${stalled} reads in a row brought no record not already read`;
			break;
		}
	}
	const got =
		total === undefined
			? `${seen.size} records were read`
			: `${seen.size} of the ${total} records the service last reported were read`;
	return {
		records: [...seen.values()],
		shortfall: `Incomplete list: ${got}, after its pages were read ${reads} more time${reads > 1 ? 's' : ''}; ${why}`,
	};
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
