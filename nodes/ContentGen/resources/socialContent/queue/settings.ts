/**
 * The queue's settings and their bounds, checked before any request: each refusal names the field
 * and the bound.
 */
import { assertInteger, describe, ValidationError } from '../../../../shared/validation/primitives';
import type { PostingTime } from './slots';
import { WEEKDAYS } from './slots';
import { zoneClock, type ZoneClock } from './zone';

export const QUEUE = {
	postingTimes: { min: 1, max: 100 },
	postsPerSlot: { min: 1, max: 100, default: 1 },
	leadMinutes: { min: 0, max: 43_200, default: 10 },
	horizonDays: { min: 1, max: 365, default: 30 },
} as const;

export interface QueueSettings {
	times: PostingTime[];
	clock: ZoneClock;
	perSlot: number;
	leadMinutes: number;
	horizonDays: number;
}

export interface RawQueueSettings {
	/** The Posting Times collection as n8n gives it: `{ time: [{ weekday, timeOfDay }] }`. */
	postingTimes: unknown;
	timeZone: unknown;
	/** The workflow's time zone, used when Time Zone is empty. */
	workflowZone: string;
	postsPerSlot: unknown;
	leadMinutes: unknown;
	horizonDays: unknown;
}

const TIME_OF_DAY = /^\s*([01]?\d|2[0-3]):([0-5]\d)\s*$/;

function postingTimesOf(value: unknown): PostingTime[] {
	const field = 'Posting Times';
	const list = (value as { time?: unknown } | null | undefined)?.time ?? [];
	if (!Array.isArray(list) || list.length < QUEUE.postingTimes.min) {
		throw new ValidationError(
			field,
			`'${field}' needs at least one weekday and time of day for 'Timing' set to 'Next Free Slot'`,
		);
	}
	if (list.length > QUEUE.postingTimes.max) {
		throw new ValidationError(
			field,
			`'${field}' allows at most ${QUEUE.postingTimes.max} times, got ${list.length}`,
		);
	}
	return list.map((entry: { weekday?: unknown; timeOfDay?: unknown }, index) => {
		const day = WEEKDAYS.findIndex((name) => name.toLowerCase() === entry?.weekday);
		if (day < 0) {
			throw new ValidationError(
				field,
				`'${field}': time ${index + 1} needs a weekday from Monday to Sunday, got ${describe(entry?.weekday)}`,
			);
		}
		const match = typeof entry.timeOfDay === 'string' ? TIME_OF_DAY.exec(entry.timeOfDay) : null;
		if (!match) {
			throw new ValidationError(
				field,
				`'${field}': time ${index + 1} needs a 'Time of Day' from 00:00 to 23:59 (HH:MM), got ${describe(entry.timeOfDay)}`,
			);
		}
		return { weekday: day + 1, minute: Number(match[1]) * 60 + Number(match[2]) };
	});
}

function clockOf(value: unknown, workflowZone: string): ZoneClock {
	const zone = value === undefined || value === null || value === '' ? workflowZone : value;
	if (typeof zone === 'string') {
		try {
			return zoneClock(zone.trim());
		} catch {
			// Named below with the field.
		}
	}
	throw new ValidationError(
		'Time Zone',
		`'Time Zone' must be an IANA time zone such as Europe/Berlin or America/New_York, got ${describe(value)}`,
	);
}

export function validateQueueSettings(raw: RawQueueSettings): QueueSettings {
	const times = postingTimesOf(raw.postingTimes);
	const clock = clockOf(raw.timeZone, raw.workflowZone);
	// Unset options take their defaults; anything set, null included, must be in bounds.
	const orDefault = (value: unknown, fallback: number) => (value === undefined ? fallback : value);
	const perSlot = assertInteger(
		'Posts per Slot',
		orDefault(raw.postsPerSlot, QUEUE.postsPerSlot.default),
		QUEUE.postsPerSlot,
	);
	const leadMinutes = assertInteger(
		'Lead Time (Minutes)',
		orDefault(raw.leadMinutes, QUEUE.leadMinutes.default),
		QUEUE.leadMinutes,
	);
	const horizonDays = assertInteger(
		'Horizon (Days)',
		orDefault(raw.horizonDays, QUEUE.horizonDays.default),
		QUEUE.horizonDays,
	);
	if (leadMinutes >= horizonDays * 1440) {
		throw new ValidationError(
			'Lead Time (Minutes)',
			`'Lead Time (Minutes)' must be shorter than the 'Horizon (Days)' of ${horizonDays} (${horizonDays * 1440} minutes), got ${leadMinutes}`,
		);
	}
	return { times, clock, perSlot, leadMinutes, horizonDays };
}

/** The instants a post may go between: after the lead time (and strictly after now), up to the horizon. */
export function windowOf(now: number, settings: QueueSettings): { from: number; to: number } {
	return {
		from: Math.max(now + settings.leadMinutes * 60_000, now + 1),
		to: now + settings.horizonDays * 86_400_000,
	};
}
