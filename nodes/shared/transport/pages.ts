import type { IDataObject } from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../constants';
import type { ApiResponse, Pagination } from '../types';
import { type CallOptions, type Connection, request } from './request';

/**
 * A list read page by page, caught when the service pages oddly (a page size capped below the one
 * asked, a count growing during the read, has_more never false, the page number ignored): each
 * record once, bounded by a ceiling of pages and a growth allowance, and a list that says more than
 * was read says so in numbers (`shortfall`), never silently.
 */

/** No walk reads more than this many pages (200,000 records at the largest page size). */
export const MAX_PAGES = 2000;
/** Pages a walk may read beyond the count the service gave at its start (records added meanwhile). */
const GROWTH_PAGES = 10;

export type WalkEnd = 'complete' | 'ceiling' | 'growth' | 'repeat' | 'empty';

type WalkReport = {
	records: number;
	pages: number;
	total?: number;
	firstTotal?: number;
	end: WalkEnd;
};

/** A count as the service should give it (a whole number, 0 or more), else undefined. */
export const countOf = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

/** The page size served: what the first page says, else what it sent if less while more is said. */
function servedSize(pagination: Pagination | undefined, sent: number, asked: number): number {
	const said = countOf(pagination?.limit);
	if (said !== undefined && said >= 1 && said <= asked) return said;
	const total = countOf(pagination?.total);
	const more = pagination?.has_more === true || (total !== undefined && total > sent);
	return sent > 0 && sent < asked && more ? sent : asked;
}

/**
 * A list's records not seen earlier, page by page while its counts (or has_more) say more exist;
 * `onEnd` hears the shortfall when it ends by itself. Once two pages give the same count, pages up
 * to the last are read `ahead` at a time. A change meanwhile would shift records across pages read
 * out of order, so a batch reporting another count is read again page by page, as is the rest:
 * a record a walk one page at a time would give is never lost.
 */
export async function* walk<T>(
	connection: Connection,
	endpoint: string,
	qs: IDataObject,
	pageSize: number = PAGE_SIZE_MAX,
	options: CallOptions = {},
	onEnd?: (shortfall: string | undefined) => void,
	ahead = 1,
): AsyncGenerator<{ items: T[]; pagination?: Pagination }> {
	const seen = new Set<string>();
	let records = 0;
	let size: number | undefined, last: number | undefined, firstLast: number | undefined;
	let total: number | undefined, firstTotal: number | undefined;
	// Steady: two answers agreed on the count and nothing moved since, so pages may be read ahead.
	// Pages read again after a batch moved (through rereadThrough) may bring nothing new.
	let [steady, moved, rereadThrough] = [false, false, 0];
	const take = ({ data, pagination }: ApiResponse<T[]>) => {
		const raw = Array.isArray(data) ? data : [];
		const items: T[] = [];
		// A page far larger than asked is read only as far as asked.
		for (const record of raw.slice(0, pageSize)) {
			const id = (record as { id?: unknown } | null)?.id;
			if (typeof id === 'string' && seen.has(id.toLowerCase())) continue;
			if (typeof id === 'string') seen.add(id.toLowerCase());
			items.push(record);
		}
		records += items.length;
		return { served: raw.length, page: { items, pagination } };
	};
	/** Why the walk ends after this page, if it does; keeps the counts the page reported. */
	const endOf = (page: number, served: number, kept: number, pagination?: Pagination) => {
		size ??= servedSize(pagination, served, pageSize);
		const [pages, said] = [countOf(pagination?.total_pages), countOf(pagination?.total)];
		total = said ?? total;
		const counted = pages !== undefined || said !== undefined;
		last = counted ? Math.max(pages ?? 0, Math.ceil((said ?? 0) / size)) : undefined;
		firstLast ??= last;
		firstTotal ??= total;
		// The service's counts outrank its has_more, which some never turn false.
		const more =
			last !== undefined
				? page < last || (total !== undefined && records < total)
				: pagination?.has_more === true || (pagination?.has_more === undefined && served >= size);
		if (!more) return 'complete';
		if (served === 0) return 'empty';
		if (kept === 0 && page > rereadThrough) return 'repeat';
		if (page >= MAX_PAGES) return 'ceiling';
		if (firstLast !== undefined && page >= firstLast + GROWTH_PAGES) return 'growth';
		return undefined;
	};
	for (let page = 1; ; ) {
		const through: number = steady ? Math.min(page + ahead - 1, last ?? page, MAX_PAGES) : page;
		const before = total;
		const asked: Array<Promise<ApiResponse<T[]>>> = [];
		for (let next = page; next <= through; next++) {
			const call = { ...options, qs: { ...qs, page: next, limit: pageSize } };
			asked.push(request<T[]>(connection, 'GET', endpoint, call));
		}
		// All settle before a failure is thrown: no request of the walk is left in flight.
		const answers = (await Promise.allSettled(asked)).map((outcome) => {
			if (outcome.status === 'rejected') throw outcome.reason;
			return outcome.value;
		});
		if (answers.length > 1 && !answers.every((a) => countOf(a.pagination?.total) === total)) {
			// The list moved during the batch: keep what it brought, then read it again in order.
			for (const answer of answers) yield take(answer).page;
			[steady, moved, rereadThrough] = [false, true, through];
			continue;
		}
		for (const answer of answers) {
			const { served, page: taken } = take(answer);
			yield taken;
			const end = endOf(page, served, taken.items.length, taken.pagination);
			if (end) return onEnd?.(shortfall({ records, pages: page, total, firstTotal, end }));
			page++;
		}
		if (answers.length === 1) {
			const counted = countOf(answers[0].pagination?.total);
			moved ||= page > 2 && (counted === undefined || counted !== before);
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

/** Every record (pages read ahead as the connection allows), or the pages `limit` records need. */
export async function collect<T>(
	connection: Connection,
	endpoint: string,
	qs: IDataObject,
	limit?: number,
	options: CallOptions = {},
): Promise<{ records: T[]; shortfall?: string }> {
	const size = limit === undefined ? PAGE_SIZE_MAX : Math.min(Math.max(limit, 1), PAGE_SIZE_MAX);
	const ahead = limit === undefined ? connection.pacer.slots : 1;
	const records: T[] = [];
	let missing: string | undefined;
	const end = (said: string | undefined) => (missing = said);
	for await (const { items } of walk<T>(connection, endpoint, qs, size, options, end, ahead)) {
		for (const item of items) records.push(item);
		if (limit !== undefined && records.length >= limit) return { records: records.slice(0, limit) };
	}
	return { records, shortfall: missing };
}
