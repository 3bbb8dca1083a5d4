/**
 * The trigger's events: the node's Events options, its subtitle, the Platform filter's display,
 * the matching of each change, the social lists followed and Fetch Test Event all come from
 * EVENTS. Order matters: an item's `event` is the first selected event it matches, so specific
 * events come before the "status changed" ones.
 *
 * To add an event: (1) add its entry here, before the "status changed" event of its kind: `kind`,
 * `name` and `description` (shown in the editor), `matches(previous, status)` (previous: a status,
 * null when unknown, undefined for a new record), `example(status)` (Fetch Test Event: a likely
 * previous status, or false when a record in `status` cannot show it), and for a social event
 * `follows` (the statuses it needs followed one by one: SOCIAL_PENDING to see a finish,
 * SOCIAL_AFTER_FINISH for what comes after one). AGENTS.md's recipe "Add a trigger event" gives
 * the other 3 places; the guards name what is missing.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { ARTICLE_LIFECYCLE, SOCIAL_LIFECYCLE } from '../shared/domain/statuses';

export type RecordKind = 'article' | 'social';

/** Where a record was before: a status, null (existed, status unknown) or undefined (new). */
export type Previous = string | null | undefined;

interface EventDefinition {
	kind: RecordKind;
	/** Shown in the Events list and the node's subtitle. */
	name: string;
	description: string;
	/** Whether a record that went from `previous` to `status` is this event. */
	matches(previous: Previous, status: string): boolean;
	/**
	 * Social events: the statuses whose records the trigger must follow one by one for this event
	 * (the list has no sort, so only followed records show where they came from).
	 */
	follows?: readonly string[];
	/** Fetch Test Event: a plausible previous status for a record now in `status`, or false. */
	example(status: string): string | null | false;
}

const has = (list: readonly string[], status: Previous) =>
	typeof status === 'string' && list.includes(status);
const entered = (target: string) => (previous: Previous, status: string) =>
	status === target && previous !== target;
const changed = (previous: Previous, status: string) =>
	previous !== undefined && previous !== status;

const SOCIAL_PENDING = SOCIAL_LIFECYCLE.pending;
const SOCIAL_AFTER_FINISH = [...SOCIAL_LIFECYCLE.pending, ...SOCIAL_LIFECYCLE.publishable];

export const EVENTS = {
	articleCompleted: {
		kind: 'article',
		name: 'Article Finished',
		description: 'An article finished generating: live (CMS) or flagged for editing',
		matches: (previous, status) =>
			has(ARTICLE_LIFECYCLE.complete, status) && !has(ARTICLE_LIFECYCLE.complete, previous),
		example: (status) => (has(ARTICLE_LIFECYCLE.complete, status) ? 'queued' : false),
	},
	articleFailed: {
		kind: 'article',
		name: 'Article Failed',
		description: 'The service could not generate an article',
		matches: entered('failed'),
		example: (status) => (status === 'failed' ? 'queued' : false),
	},
	articleCreated: {
		kind: 'article',
		name: 'Article Created',
		description: 'A new article appeared',
		matches: (previous) => previous === undefined,
		example: () => null,
	},
	articleStatusChanged: {
		kind: 'article',
		name: 'Article Status Changed',
		description: 'An existing article changed status (any status)',
		matches: changed,
		example: () => null,
	},
	socialFinished: {
		kind: 'social',
		name: 'Social Content Finished',
		description: 'Social content finished generating: completed or ready to publish',
		matches: (previous, status) =>
			has(SOCIAL_LIFECYCLE.finished, status) && !has(SOCIAL_LIFECYCLE.finished, previous),
		follows: SOCIAL_PENDING,
		example: (status) => (has(SOCIAL_LIFECYCLE.finished, status) ? 'generating' : false),
	},
	socialFailed: {
		kind: 'social',
		name: 'Social Content Failed',
		description: 'The service could not generate social content',
		matches: entered('failed'),
		follows: SOCIAL_PENDING,
		example: (status) => (status === 'failed' ? 'generating' : false),
	},
	socialScheduled: {
		kind: 'social',
		name: 'Social Content Scheduled',
		description: 'Social content was scheduled for publishing',
		matches: entered('scheduled'),
		follows: SOCIAL_AFTER_FINISH,
		example: (status) => (status === 'scheduled' ? null : false),
	},
	socialPublished: {
		kind: 'social',
		name: 'Social Content Published',
		description: 'Social content was published',
		matches: entered('published'),
		follows: SOCIAL_AFTER_FINISH,
		example: (status) => (status === 'published' ? null : false),
	},
	socialStatusChanged: {
		kind: 'social',
		name: 'Social Content Status Changed',
		description: 'Existing social content changed status (any status)',
		matches: changed,
		follows: SOCIAL_AFTER_FINISH,
		example: () => null,
	},
} satisfies Record<string, EventDefinition>;

export type TriggerEvent = keyof typeof EVENTS;

export const EVENT_NAMES = Object.keys(EVENTS) as TriggerEvent[];

export function definition(event: TriggerEvent): EventDefinition {
	return EVENTS[event];
}

export function eventsOfKind(events: readonly TriggerEvent[], kind: RecordKind): TriggerEvent[] {
	return events.filter((event) => definition(event).kind === kind);
}

/** The selected events a change of a record of this kind matches, in vocabulary order. */
export function matching(
	selected: readonly TriggerEvent[],
	kind: RecordKind,
	previous: Previous,
	status: string,
): TriggerEvent[] {
	return eventsOfKind(EVENT_NAMES, kind).filter(
		(event) => selected.includes(event) && definition(event).matches(previous, status),
	);
}

/** The social statuses to follow one by one for the selected events, in lifecycle order. */
export function followedStatuses(selected: readonly TriggerEvent[]): string[] {
	const wanted = new Set(selected.flatMap((event) => definition(event).follows ?? []));
	return SOCIAL_AFTER_FINISH.filter((status) => wanted.has(status));
}

/** Options of the Events parameter, sorted by name as n8n's lint expects. */
export const eventOptions: INodePropertyOptions[] = EVENT_NAMES.map((value) => ({
	name: definition(value).name,
	value,
	description: definition(value).description,
})).sort((a, b) => a.name.localeCompare(b.name));

/** The node's subtitle: the selected events by name. */
export const eventSubtitle = `={{ ($parameter["events"] || []).map((e) => (${JSON.stringify(
	Object.fromEntries(EVENT_NAMES.map((e) => [e, definition(e).name])),
)})[e] || e).join(", ") }}`;

class UnknownEventError extends Error {}

/** The selected events, refusing any value the vocabulary does not know. */
export function parseEvents(raw: unknown): TriggerEvent[] {
	const values = Array.isArray(raw) ? raw : [raw];
	const unknown = values.filter((v) => typeof v !== 'string' || !(v in EVENTS));
	if (unknown.length > 0) {
		throw new UnknownEventError(
			`Unknown event ${unknown.map((v) => JSON.stringify(v)).join(', ')}: choose from ${EVENT_NAMES.join(', ')}`,
		);
	}
	return EVENT_NAMES.filter((event) => values.includes(event));
}
