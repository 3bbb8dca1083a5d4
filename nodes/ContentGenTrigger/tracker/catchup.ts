/**
 * Catching up from a time: a poll that starts again although the trigger was running (n8n kept no
 * state from the poll that started it, ../starts; or the state is a newer build's,
 * ./state/formats) takes its starting point as at activation, and also reports every change since
 * that time. What the record was before is unknown there: a record changed since is reported as
 * entering its status (new when created since), so an edit of a record already finished then can
 * pass for its finish. Reads, once: articles from the newest down to that time; for social
 * content, the lists of the statuses the selected events lead to, whole (the list has no order).
 * At most CATCH_UP_PAGES pages of each, the social ones while the poll has time; what does not
 * fit is said, not dropped silently.
 */
import { SOCIAL_STATUSES } from '../../shared/constants';
import { definition, eventsOfKind, type Previous, type TriggerEvent } from '../events';
import { type PollRun } from './poll-run';
import type { Change } from './items';
import { keyOf, time, type TrackedRecord } from './reader';

/** Changes stamped this long before the time are read too: a service clock behind n8n's. */
export const CATCH_UP_MARGIN_MS = 60_000;
const CATCH_UP_PAGES = 60;

export interface CatchUp {
	articles: Change[];
	social: Change[];
	/** What could not be read whole, in words. */
	short: string[];
}

/** A record changed since `since`; new when created after `from` itself (not within the margin). */
function changeSince(record: TrackedRecord, since: number, from: number): Change | undefined {
	if (!(time(record.updated_at) >= since)) return undefined;
	const previous: Previous = time(record.created_at) >= from ? undefined : null;
	return { previous, record };
}

async function articlesSince(
	since: number,
	from: number,
	ctx: PollRun,
	short: string[],
	met: Map<string, TrackedRecord> | undefined,
): Promise<Change[]> {
	const changes: Change[] = [];
	for (let page = 1; page <= CATCH_UP_PAGES; page++) {
		const list = await ctx.articles(page, ctx.articlePageSize, { met });
		for (const record of list.items) {
			const change = changeSince(record, since, from);
			if (!change) return changes;
			changes.push(change);
		}
		if (!list.hasMore || list.items.length === 0) return changes;
	}
	short.push(`articles beyond ${CATCH_UP_PAGES} pages`);
	return changes;
}

/** The social statuses a selected event can end in (a status no list filter accepts aside). */
function statusesReached(events: readonly TriggerEvent[]): string[] {
	const social = eventsOfKind(events, 'social').map(definition);
	return SOCIAL_STATUSES.filter((status) =>
		social.some((event) => event.matches(null, status) || event.matches(undefined, status)),
	);
}

async function socialSince(
	since: number,
	from: number,
	events: readonly TriggerEvent[],
	short: string[],
	ctx: PollRun,
): Promise<Change[]> {
	const met = new Map<string, Change>();
	let pages = 0;
	for (const status of statusesReached(events)) {
		const members = new Set<string>();
		let total = 0;
		for (let page = 1; pages < CATCH_UP_PAGES; page++) {
			pages++;
			// Declined once half the poll's time is gone: what is left is said, the poll still ends.
			const list = await ctx.socialIfTime(page, status);
			if (!list) {
				short.push(`the ${status} social content list and after, for lack of time`);
				return [...met.values()];
			}
			total = list.total;
			for (const record of list.items) {
				const key = keyOf(record.id);
				if (!key) continue;
				members.add(key);
				const change = changeSince(record, since, from);
				if (change && !met.has(key)) met.set(key, change);
			}
			if (!list.hasMore || list.items.length === 0) break;
		}
		if (members.size < total) short.push(`the ${status} social content list`);
	}
	return [...met.values()];
}

/**
 * Every change since `from` (host time) of the selected events' kinds; `met` keeps every article
 * the list showed (for ./repeats).
 */
export async function catchUp(
	from: number,
	events: readonly TriggerEvent[],
	ctx: PollRun,
	met?: Map<string, TrackedRecord>,
): Promise<CatchUp> {
	const since = from - CATCH_UP_MARGIN_MS;
	const result: CatchUp = { articles: [], social: [], short: [] };
	if (eventsOfKind(events, 'article').length > 0)
		result.articles = await articlesSince(since, from, ctx, result.short, met);
	if (eventsOfKind(events, 'social').length > 0)
		result.social = await socialSince(since, from, events, result.short, ctx);
	return result;
}

/** What n8n's log says about a catch-up. */
export function catchUpNotice(from: number, short: string[]): string | undefined {
	if (short.length === 0) return undefined;
	return `ContentGen Trigger: could not read every change since ${new Date(from).toISOString()} in one poll (${short.join(', ')}): some of them are not reported. List that content with the ContentGen node (Get Many) if they matter.`;
}
