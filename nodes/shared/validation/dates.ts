import { parseIso8601, type IsoParts } from './iso8601';
import { describe, ValidationError } from './primitives';

/** Milliseconds the zone is ahead of UTC at the given instant. */
function zoneOffsetMs(instant: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(instant));
	const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
	const asUtc = Date.UTC(
		get('year'),
		get('month') - 1,
		get('day'),
		get('hour'),
		get('minute'),
		get('second'),
	);
	return asUtc - Math.floor(instant / 1000) * 1000;
}

/** A wall-clock time without offset, read in the given IANA zone. */
function localToUtc(wall: number, timeZone: string): Date | undefined {
	try {
		// Two passes settle the offset across a daylight-saving change.
		let utc = wall - zoneOffsetMs(wall, timeZone);
		utc = wall - zoneOffsetMs(utc, timeZone);
		return new Date(utc);
	} catch {
		return undefined;
	}
}

/** An ISO 8601 text as an instant; one without offset is read in `timeZone` (UTC without one). */
function fromIso(parts: IsoParts, timeZone?: string): Date | undefined {
	const { year, month, day, hour, minute, second, millisecond, offsetMinutes } = parts;
	const wall = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
	if (offsetMinutes !== undefined) return new Date(wall - offsetMinutes * 60_000);
	return timeZone ? localToUtc(wall, timeZone) : new Date(wall);
}

/**
 * The written dates JavaScript itself produces (`toUTCString()`, `toString()`: a month by name),
 * kept for workflows that pass them; nothing else that is not ISO 8601 is guessed at.
 */
const WRITTEN_DATE = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i;

/**
 * Accepts an n8n date (string or Date-like) and returns ISO 8601 in UTC. A string is read as ISO
 * 8601 in any form a person may type (./iso8601.ts); one without an offset (what n8n's date picker
 * produces) is read in `timeZone` (the workflow's zone) when one is given.
 */
export function toIsoDate(field: string, value: unknown, timeZone?: string): string {
	let candidate: Date | undefined;
	if (typeof value === 'string') {
		const parts = parseIso8601(value);
		if (parts) candidate = fromIso(parts, timeZone);
		else if (WRITTEN_DATE.test(value)) candidate = new Date(value);
	} else if (value instanceof Date) candidate = value;
	else if (typeof value === 'number') candidate = new Date(value);
	else if (typeof (value as { toISO?: unknown })?.toISO === 'function')
		candidate = new Date((value as { toISO: () => string }).toISO());
	if (!candidate || Number.isNaN(candidate.getTime())) {
		throw new ValidationError(
			field,
			`'${field}' must be an ISO 8601 date and time such as 2026-12-01T09:00:00Z (or 20261201T090000Z, 2026-W49-2T09:00, 2026-335T09:00+01:00), got ${describe(value)}`,
		);
	}
	return candidate.toISOString();
}
