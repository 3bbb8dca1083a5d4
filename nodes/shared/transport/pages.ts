import type { IDataObject } from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../constants';
import type { ApiResponse, Pagination } from '../types';
import type { CallOptions, Connection } from './request';
import { request } from './request';

/**
 * A list read page by page, caught when the service pages oddly: a page size capped below the one
 * asked, a count that grows while the list is read, has_more that never turns false, the page
 * number ignored. The walk believes the service's counts over its has_more, gives each record
 * once, and stops at a ceiling of pages, or a growth allowance past the count given at its start:
 * a list that says more than was read says so in numbers (`shortfall`), never silently.
 */

/** No walk reads more than this many pages (200,000 records at the largest page size). */
export const MAX_PAGES = 2000;
/** Pages a walk may read beyond the count the service gave at its start (records added meanwhile). */
export const GROWTH_PAGES = 10;

export interface Page<T> {
	/** The records of this page not already seen earlier in the walk. */
	items: T[];
	pagination?: Pagination;
}

/** Why a walk stopped: the service said the list was done, or a bound ended it while it said more. */
export type WalkEnd = 'complete' | 'ceiling' | 'growth' | 'repeat' | 'empty';

export interface WalkReport {
	/** Distinct records the walk gave. */
	records: number;
	pages: number;
	/** The count the service reported on the last page, and on the first. */
	total?: number;
	firstTotal?: number;
	end: WalkEnd;
}

const count = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

/**
 * The page size the service actually uses, from the first page: what it says, else what it sent
 * when that is less than asked while it says there is more (a gateway that caps page sizes).
 */
function servedSize(pagination: Pagination | undefined, sent: number, asked: number): number {
	const said = count(pagination?.limit);
	if (said !== undefined && said >= 1 && said <= asked) return said;
	const total = count(pagination?.total);
	const more = pagination?.has_more === true || (total !== undefined && total > sent);
	return sent > 0 && sent < asked && more ? sent : asked;
}

/** The answers for pages `from`..`through`, asked at once, in page order; all settle before a failure is thrown. */
async function pagesAtOnce<T>(
	read: (page: number) => Promise<ApiResponse<T[]>>,
	from: number,
	through: number,
): Promise<Array<ApiResponse<T[]>>> {
	const asked: Array<Promise<ApiResponse<T[]>>> = [];
	for (let page = from; page <= through; page++) asked.push(read(page));
	return (await Promise.allSettled(asked)).map((outcome) => {
		if (outcome.status === 'rejected') throw outcome.reason;
		return outcome.value;
	});
}

/**
 * The records of a list, page by page, while the service's counts (or, without counts, its
 * has_more) say more exists. `onEnd` hears how the walk ended, when it ends by itself (not when
 * its reader stops). With `ahead` > 1, once two pages have given the same count the pages up to
 * the last one counted are read `ahead` at a time. Records added or removed meanwhile would shift
 * others across pages read out of order, so a batch whose pages report another count is read
 * again one page at a time, as is the rest of the list: a record a walk one page at a time would
 * give is never lost.
 */
export async function* walk<T>(
	connection: Connection,
	endpoint: string,
	qs: IDataObject,
	pageSize: number = PAGE_SIZE_MAX,
	options: CallOptions = {},
	onEnd?: (report: WalkReport) => void,
	ahead = 1,
): AsyncGenerator<Page<T>> {
	const seen = new Set<string>();
	let records = 0;
	let size: number | undefined;
	let firstLast: number | undefined;
	let last: number | undefined;
	let total: number | undefined;
	let firstTotal: number | undefined;
	/** Two answers agreed on the count and nothing has moved since: pages may be read ahead. */
	let steady = false;
	let moved = false;
	/** Pages read again after a batch moved: bringing nothing new does not end the walk there. */
	let rereadThrough = 0;
	const read = async (page: number) =>
		await request<T[]>(connection, 'GET', endpoint, {
			...options,
			qs: { ...qs, page, limit: pageSize },
		});
	const take = (response: ApiResponse<T[]>) => {
		const raw = Array.isArray(response.data) ? response.data : [];
		const items: T[] = [];
		// A page far larger than asked is read only as far as asked.
		for (let i = 0; i < raw.length && i < pageSize; i++) {
			const id = (raw[i] as { id?: unknown } | null)?.id;
			if (typeof id === 'string') {
				if (seen.has(id.toLowerCase())) continue;
				seen.add(id.toLowerCase());
			}
			items.push(raw[i]);
		}
		records += items.length;
		return { served: raw.length, page: { items, pagination: response.pagination } };
	};
	/** Why the walk ends after this page, if it does; keeps the counts the page reported. */
	const endOf = (page: number, served: number, { items, pagination }: Page<T>) => {
		size ??= servedSize(pagination, served, pageSize);
		const pages = count(pagination?.total_pages);
		total = count(pagination?.total) ?? total;
		last =
			pages === undefined && count(pagination?.total) === undefined
				? undefined
				: Math.max(pages ?? 0, Math.ceil((count(pagination?.total) ?? 0) / size));
		firstLast ??= last;
		firstTotal ??= total;
		// The service's counts outrank its has_more, which some never turn false.
		const more =
			last !== undefined
				? page < last || (total !== undefined && records < total)
				: pagination?.has_more === true || (pagination?.has_more === undefined && served >= size);
		if (!more) return 'complete';
		if (served === 0) return 'empty';
		if (items.length === 0 && page > rereadThrough) return 'repeat';
		if (page >= MAX_PAGES) return 'ceiling';
		if (firstLast !== undefined && page >= firstLast + GROWTH_PAGES) return 'growth';
		return undefined;
	};
	for (let page = 1; ; ) {
		const through = steady ? Math.min(page + ahead - 1, last ?? page, MAX_PAGES) : page;
		const before = total;
		const answers = await pagesAtOnce(read, page, through);
		if (answers.length > 1 && !answers.every((a) => count(a.pagination?.total) === total)) {
			// The list moved during the batch: keep what it brought, then read it again in order.
			for (const answer of answers) yield take(answer).page;
			steady = false;
			moved = true;
			rereadThrough = through;
			continue;
		}
		for (const answer of answers) {
			const { served, page: taken } = take(answer);
			yield taken;
			const end = endOf(page, served, taken);
			if (end) return onEnd?.({ records, pages: page, total, firstTotal, end });
			page++;
		}
		if (answers.length === 1) {
			const counted = count(answers[0].pagination?.total);
			if (page > 2 && (counted === undefined || counted !== before)) moved = true;
			steady = !moved && page > 2 && last !== undefined;
		}
	}
}

/** How a walk that gave less than the service said it holds ended, in words with the numbers. */
export function shortfall(report: WalkReport): string | undefined {
	const { records, total, pages } = report;
	if (total !== undefined ? records >= total : report.end === 'complete') return undefined;
	const why: Record<WalkEnd, string> = {
		complete: 'the service said the list ended there',
		ceiling: `the read stopped at its ceiling of ${MAX_PAGES} pages`,
		growth: `the list grew while it was read (from ${report.firstTotal ?? '?'} records), and the read stopped ${GROWTH_PAGES} pages past the count given at its start`,
		repeat: `page ${pages} brought no record not already read (the service may ignore the page number)`,
		empty: `page ${pages} was empty`,
	};
	const got =
		total === undefined
			? `${records} records were read and the service still said there were more`
			: `${records} of the ${total} records the service reported were read`;
	return `Incomplete list: ${got}; ${why[report.end]}`;
}

/** Every record (pages of 100, read ahead as many at once as the connection allows), or exactly the pages needed for `limit` records. */
export async function collect<T>(
	connection: Connection,
	endpoint: string,
	qs: IDataObject,
	limit?: number,
	options: CallOptions = {},
): Promise<{ records: T[]; shortfall?: string }> {
	const pageSize =
		limit === undefined ? PAGE_SIZE_MAX : Math.min(Math.max(limit, 1), PAGE_SIZE_MAX);
	const records: T[] = [];
	let report: WalkReport | undefined;
	const ahead = limit === undefined ? connection.pacer.slots : 1;
	const end = (walked: WalkReport) => (report = walked);
	for await (const { items } of walk<T>(connection, endpoint, qs, pageSize, options, end, ahead)) {
		for (const item of items) {
			if (limit !== undefined && records.length >= limit) return { records };
			records.push(item);
		}
		if (limit !== undefined && records.length >= limit) return { records };
	}
	return { records, shortfall: report && shortfall(report) };
}
