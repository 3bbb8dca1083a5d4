import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { ListedPost } from '../../../../shared/queue/claims';
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
): Promise<{ posts: ListedPost[]; requests: number }> {
	const { records, shortfall } = await collect<IDataObject>(
		connection,
		'/social/content',
		{ status: 'scheduled' },
		undefined,
		call,
	);
	if (shortfall) {
		throw new NodeOperationError(
			context.getNode(),
			'Could not read every scheduled post, so the free slots are unknown',
			{
				itemIndex: call.itemIndex,
				description: `${shortfall}. Nothing was scheduled from this read; run the node again.`,
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
	// Pages of 100: an empty list is still one request.
	return { posts, requests: Math.max(1, Math.ceil(records.length / 100)) };
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
