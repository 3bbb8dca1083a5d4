/**
 * Ground truth for the trigger, written out independently of the tracker: the statuses at the
 * last poll that committed against the statuses now. For each record it says which reports are
 * acceptable at this poll: exactly one transition (must), or nothing or that transition (may).
 */
import {
	ARTICLE_STATUSES as SPEC_ARTICLE_STATUSES,
	SOCIAL_STATUSES as SPEC_SOCIAL_STATUSES,
} from '../../sandbox/constants';

export const ARTICLE_STATUSES: readonly string[] = SPEC_ARTICLE_STATUSES;
/** The spec's eight plus `publishing`, the publish answer that no list filter accepts. */
export const SOCIAL_STATUSES: readonly string[] = [...SPEC_SOCIAL_STATUSES, 'publishing'];
const SOCIAL_LISTS = new Set(SOCIAL_STATUSES.filter((s) => s !== 'publishing'));

/** Written out here, and checked against the trigger's EVENTS by test/guard/cases.ts. */
export const ARTICLE_EVENT_NAMES = [
	'articleCompleted',
	'articleFailed',
	'articleCreated',
	'articleStatusChanged',
];
export const SOCIAL_EVENT_NAMES = [
	'socialFinished',
	'socialFailed',
	'socialScheduled',
	'socialPublished',
	'socialStatusChanged',
];

export interface Transition {
	id: string;
	/** null: the record is new, or its previous status is unknown. */
	previous: string | null;
	status: string;
	/** Sorted names of the selected events it matches. */
	events: string[];
}

export interface Acceptable {
	must: boolean;
	options: Transition[];
}

const inFlightArticle = (s: string | null | undefined) => s === 'draft' || s === 'queued';
const complete = (s: string | null | undefined) => s === 'cms' || s === 'needs_editing';
const finished = (s: string | null | undefined) => s === 'completed' || s === 'ready';

/** `previous` undefined = a new record; null = existed, status unknown. */
export function articleEventsOf(previous: string | null | undefined, status: string): string[] {
	if (previous === status) return [];
	const out = [previous === undefined ? 'articleCreated' : 'articleStatusChanged'];
	if (complete(status) && !complete(previous)) out.push('articleCompleted');
	if (status === 'failed') out.push('articleFailed');
	return out;
}

export function socialEventsOf(previous: string | null | undefined, status: string): string[] {
	if (previous === status) return [];
	const out: string[] = [];
	if (previous !== undefined) out.push('socialStatusChanged');
	if (finished(status) && !finished(previous)) out.push('socialFinished');
	if (status === 'failed') out.push('socialFailed');
	if (status === 'scheduled') out.push('socialScheduled');
	if (status === 'published') out.push('socialPublished');
	return out;
}

function transition(
	id: string,
	previous: string | null | undefined,
	status: string,
	events: string[],
	wanted: Set<string>,
): Transition | undefined {
	const selected = events.filter((e) => wanted.has(e)).sort();
	return selected.length ? { id, previous: previous ?? null, status, events: selected } : undefined;
}

function add(
	out: Map<string, Acceptable>,
	must: boolean,
	options: Array<Transition | undefined>,
): void {
	const real = options.filter((o): o is Transition => o !== undefined);
	if (real.length === 0) return;
	out.set(real[0].id, { must, options: real });
}

/**
 * Articles. `strict`: the tracker is expected to know every record (small accounts). Otherwise a
 * change between two finished statuses of a record it may have forgotten is optional, and a
 * move back in flight may name the previous status or not.
 */
export function expectArticles(
	before: Map<string, string>,
	now: Map<string, string>,
	wanted: Set<string>,
	strict: boolean,
): Map<string, Acceptable> {
	const out = new Map<string, Acceptable>();
	for (const [id, status] of now) {
		const previous = before.get(id);
		if (previous === status) continue;
		const known = transition(id, previous, status, articleEventsOf(previous, status), wanted);
		if (strict || previous === undefined || inFlightArticle(previous)) add(out, true, [known]);
		else if (inFlightArticle(status)) {
			const unknown = transition(id, null, status, articleEventsOf(null, status), wanted);
			add(out, true, [unknown, known]);
		} else add(out, false, [known]);
	}
	return out;
}

const PENDING_SOCIAL = new Set(['draft', 'queued', 'generating']);

/** The social statuses whose records the trigger follows, for the selected events. */
export function watchedSocial(events: readonly string[]): Set<string> {
	const w = new Set(['draft', 'queued', 'generating']);
	const afterFinish = ['socialScheduled', 'socialPublished', 'socialStatusChanged'];
	if (events.some((e) => afterFinish.includes(e))) {
		for (const s of ['ready', 'completed', 'scheduled']) w.add(s);
	}
	return w;
}

/**
 * Social content. A record the trigger follows (watched status at the last poll, or
 * `publishing` reached while followed) reports every change; a new record reports the events
 * of the status it is in; an unfollowed record that enters a watched list reports the change
 * (its previous status unknown, or known when the trigger reported it there). `learning`: the trigger said it is still learning the account,
 * so new records and arrivals in the watched lists are optional.
 */
export function expectSocial(
	before: Map<string, string>,
	now: Map<string, string>,
	followed: Set<string>,
	watched: Set<string>,
	wanted: Set<string>,
	learning = false,
	/** Records last seen at a poll in `failed`: a new generation may be said to leave it. */
	failedSeen = new Set<string>(),
): { expected: Map<string, Acceptable>; followed: Set<string> } {
	const out = new Map<string, Acceptable>();
	const next = new Set<string>();
	for (const [id, status] of now) {
		const wasFailed = failedSeen.has(id);
		if (status === 'failed') failedSeen.add(id);
		else if (watched.has(status)) failedSeen.delete(id);
		const previous = before.get(id);
		const birth = previous === undefined;
		if (birth) {
			const events = socialEventsOf(undefined, status);
			add(out, !learning, [transition(id, undefined, status, events, wanted)]);
		} else if (previous !== status) {
			if (followed.has(id)) {
				const events = socialEventsOf(previous, status);
				add(out, true, [transition(id, previous, status, events, wanted)]);
			} else if (watched.has(status)) {
				// Known when the trigger reported it failed (moves among statuses not followed are unseen).
				const unknown = transition(id, null, status, socialEventsOf(null, status), wanted);
				const left = wasFailed && PENDING_SOCIAL.has(status) ? 'failed' : previous;
				const known = transition(id, left, status, socialEventsOf(left, status), wanted);
				add(out, !learning, [unknown, known]);
			}
		}
		if (watched.has(status) || (!SOCIAL_LISTS.has(status) && (followed.has(id) || birth)))
			next.add(id);
	}
	return { expected: out, followed: next };
}

/** Groups a poll's items by record: a record reports at most one transition per poll. */
export function compare(reported: Transition[], expected: Map<string, Acceptable>): string | null {
	const seen = new Set<string>();
	for (const item of reported) {
		if (seen.has(item.id)) return `two items for ${item.id}: ${JSON.stringify(reported)}`;
		seen.add(item.id);
		const acceptable = expected.get(item.id);
		const same = (o: Transition) =>
			o.previous === item.previous &&
			o.status === item.status &&
			o.events.join() === item.events.join();
		if (!acceptable || !acceptable.options.some(same)) {
			return `unexpected ${JSON.stringify(item)}; expected ${JSON.stringify(acceptable?.options ?? 'nothing')}`;
		}
	}
	for (const [id, acceptable] of expected) {
		if (acceptable.must && !seen.has(id)) {
			return `missing ${JSON.stringify(acceptable.options)}`;
		}
	}
	return null;
}
