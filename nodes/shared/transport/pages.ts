import type { IDataObject } from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../constants';
import type { Pagination } from '../types';
import type { CallOptions, Connection } from './request';
import { request } from './request';

/** No walk reads more than this many pages (200,000 records at the largest page size). */
const MAX_PAGES = 2000;
/** Pages a walk may read beyond the count the service gave at its start (records added meanwhile). */
const GROWTH_PAGES = 10;

export interface Page<T> {
	/** The records of this page not already seen earlier in the walk. */
	items: T[];
	pagination?: Pagination;
}

function idOf(record: unknown): string | undefined {
	const id = (record as { id?: unknown } | null)?.id;
	return typeof id === 'string' ? id.toLowerCase() : undefined;
}

/**
 * A list read page by page, bounded by the count the service reports (and a hard ceiling), with
 * each record given once: a record that moves to the next page while the walk runs is not
 * repeated, and a page that brings nothing new (a cache ignoring the page number) ends the walk.
 */
export async function* walk<T>(
	connection: Connection,
	endpoint: string,
	qs: IDataObject,
	pageSize: number = PAGE_SIZE_MAX,
	options: CallOptions = {},
): AsyncGenerator<Page<T>> {
	const seen = new Set<string>();
	let lastPage = MAX_PAGES;
	let firstTotalPages: number | undefined;
	for (let page = 1; page <= lastPage; page++) {
		const response = await request<T[]>(connection, 'GET', endpoint, {
			...options,
			qs: { ...qs, page, limit: pageSize },
		});
		const raw = Array.isArray(response.data) ? response.data : [];
		const items: T[] = [];
		// A page far larger than asked is read only as far as asked.
		for (let i = 0; i < raw.length && i < pageSize; i++) {
			const id = idOf(raw[i]);
			if (id !== undefined) {
				if (seen.has(id)) continue;
				seen.add(id);
			}
			items.push(raw[i]);
		}
		const pagination = response.pagination;
		yield { items, pagination };

		const totalPages =
			typeof pagination?.total_pages === 'number'
				? pagination.total_pages
				: typeof pagination?.total === 'number'
					? Math.ceil(pagination.total / pageSize)
					: undefined;
		if (totalPages !== undefined) {
			firstTotalPages ??= totalPages;
			lastPage = Math.min(MAX_PAGES, totalPages, firstTotalPages + GROWTH_PAGES);
		}
		const more =
			pagination?.has_more === true ||
			(pagination?.has_more === undefined &&
				(totalPages !== undefined ? page < totalPages : raw.length >= pageSize));
		if (!more || raw.length === 0 || items.length === 0) return;
	}
}

/** Every record (pages of 100), or exactly the pages needed for `limit` records. */
export async function collect<T>(
	connection: Connection,
	endpoint: string,
	qs: IDataObject,
	limit?: number,
	options: CallOptions = {},
): Promise<T[]> {
	const pageSize =
		limit === undefined ? PAGE_SIZE_MAX : Math.min(Math.max(limit, 1), PAGE_SIZE_MAX);
	const records: T[] = [];
	for await (const { items } of walk<T>(connection, endpoint, qs, pageSize, options)) {
		for (const item of items) {
			if (limit !== undefined && records.length >= limit) return records;
			records.push(item);
		}
		if (limit !== undefined && records.length >= limit) return records;
	}
	return records;
}
