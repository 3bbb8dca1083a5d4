import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { PAGE_SIZE_MAX } from '../../shared/constants';
import { walk } from '../../shared/transport/pages';
import type { CallOptions, Connection } from '../../shared/transport/request';
import type { Pagination } from '../../shared/types';
import { inTurn, toNodeError } from '../helpers/items';
import type { GenerationJob } from './job';
import { failLookup, isCancelled, lookAt, type Tracked } from './look';

/** What a wait knows of the pending list from one round to the next. */
export interface ListMemory {
	/** Pages the list had when it was last read. */
	pages?: number;
}

function pageCount(pagination: Pagination | undefined, read: number): number | undefined {
	if (pagination?.has_more === false) return read;
	if (typeof pagination?.total_pages === 'number') return pagination.total_pages;
	if (typeof pagination?.total === 'number') return Math.ceil(pagination.total / PAGE_SIZE_MAX);
	return undefined;
}

/**
 * The fewest requests expected to account for the unaccounted jobs by reading on after page
 * `read`: the rest of the list, or, when it keeps its order, the pages up to where some of them
 * were last seen plus one read by id for each of the others. An unknown size counts as one page.
 */
export function pagesCost(
	unaccounted: readonly Tracked[],
	read: number,
	totalPages: number | undefined,
	ordered: boolean,
): number {
	let best = totalPages === undefined ? 1 : Math.max(totalPages - read, read === 0 ? 1 : 0);
	if (!ordered) return best;
	const onPage = new Map<number, number>();
	for (const tracked of unaccounted)
		if (tracked.page !== undefined && tracked.page > read)
			onPage.set(tracked.page, (onPage.get(tracked.page) ?? 0) + 1);
	let covered = 0;
	for (const page of Array.from(onPage.keys()).sort((a, b) => a - b)) {
		covered += onPage.get(page) ?? 0;
		best = Math.min(best, page - read + unaccounted.length - covered);
	}
	return best;
}

/** The list is read under the most patient Max Rate-Limit Wait among the jobs it answers for. */
function listCall(jobs: readonly Tracked[]): CallOptions {
	let maxRateLimitWaitMs = 0;
	for (const tracked of jobs)
		maxRateLimitWaitMs = Math.max(maxRateLimitWaitMs, tracked.settings.call.maxRateLimitWaitMs);
	return { ...jobs[0].settings.call, maxRateLimitWaitMs };
}

/**
 * Reads pages of the pending list only while that is expected to be cheaper than reading the
 * jobs not yet seen by id, and stops once every job is accounted for. Returns the jobs the list
 * shows still pending.
 */
async function readPendingList(
	connection: Connection,
	job: GenerationJob,
	jobs: readonly Tracked[],
	memory: ListMemory,
): Promise<Set<Tracked>> {
	const listed = new Set<Tracked>();
	const unaccounted = new Map<string, Tracked>();
	// A job last seen in a pending status the list's filter hides is not looked for there.
	for (const tracked of jobs)
		if (tracked.status === undefined || tracked.status === job.listStatus)
			unaccounted.set(tracked.id, tracked);
	let read = 0;
	let ended = false;
	let totalPages = memory.pages;
	const pages = walk<IDataObject>(
		connection,
		job.listEndpoint,
		{ status: job.listStatus },
		PAGE_SIZE_MAX,
		listCall(jobs),
	);
	try {
		while (
			unaccounted.size > 0 &&
			pagesCost(Array.from(unaccounted.values()), read, totalPages, job.listOrdered) <
				unaccounted.size
		) {
			const next = await pages.next();
			ended = next.done === true;
			if (ended) break;
			read++;
			totalPages = pageCount(next.value.pagination, read) ?? totalPages;
			for (const record of next.value.items) {
				const id = typeof record.id === 'string' ? record.id.toLowerCase() : '';
				const tracked = unaccounted.get(id);
				if (!tracked) continue;
				unaccounted.delete(id);
				const status = typeof record.status === 'string' ? record.status : undefined;
				if (status === undefined || !job.pendingStatuses.includes(status)) continue;
				tracked.status = status;
				tracked.page = job.listOrdered ? read : undefined;
				listed.add(tracked);
			}
			// Not where it was last seen: it finished or moved, so its place is unknown now.
			for (const tracked of unaccounted.values())
				if (tracked.page !== undefined && tracked.page <= read) tracked.page = undefined;
		}
	} finally {
		await pages.return(undefined);
	}
	memory.pages = totalPages;
	// Left unread: in a list that keeps its order, a job still there lies past the pages read.
	if (job.listOrdered && read > 0 && !ended && read < (totalPages ?? Infinity))
		for (const tracked of unaccounted.values()) tracked.page ??= read + 1;
	return listed;
}

/**
 * One round. A single job: one look at it. Several: the pages of the pending list that are
 * cheaper than reads by id, then one read by id of each job the pages did not show pending.
 * So a round costs at most min(pages of the list, jobs waiting) requests plus one per job that
 * has just finished, whatever else the account has in flight.
 */
export async function pollRound(
	context: IExecuteFunctions,
	connection: Connection,
	job: GenerationJob,
	jobs: readonly Tracked[],
	memory: ListMemory,
): Promise<void> {
	if (jobs.length === 1) {
		await lookAt(context, connection, job, jobs[0], 'pollOne');
		return;
	}
	let listed: Set<Tracked>;
	try {
		listed = await readPendingList(connection, job, jobs, memory);
	} catch (error) {
		if (isCancelled(context)) throw toNodeError(context, error, jobs[0].itemIndex);
		for (const tracked of jobs) failLookup(context, job, tracked, error);
		return;
	}
	// The reads by id go as many at once as the connection allows.
	const unlisted = jobs.filter((tracked) => !listed.has(tracked));
	await inTurn(
		unlisted.length,
		connection.pacer.slots,
		async (index) => await lookAt(context, connection, job, unlisted[index], 'fetchOne'),
		() => false,
	);
}
