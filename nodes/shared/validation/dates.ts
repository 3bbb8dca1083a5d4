import { describe, ValidationError } from './primitives';

const LOCAL_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

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
function localToUtc(match: RegExpExecArray, timeZone: string): Date | undefined {
	const [, year, month, day, hour = '0', minute = '0', second = '0', milli = '0'] = match;
	const wall = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second, +milli.padEnd(3, '0'));
	try {
		// Two passes settle the offset across a daylight-saving change.
		let utc = wall - zoneOffsetMs(wall, timeZone);
		utc = wall - zoneOffsetMs(utc, timeZone);
		return new Date(utc);
	} catch {
		return undefined;
	}
}

/** False for a written date that does not exist (month 13, 31 February, 25:00), which Date would roll over. */
function isRealDateTime(text: string): boolean {
	const parts = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(text);
	if (!parts) return true;
	const [year, month, day, hour, minute, second] = parts.slice(1).map((part) => Number(part ?? 0));
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	return (
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= daysInMonth &&
		hour <= 23 &&
		minute <= 59 &&
		second <= 59
	);
}

/**
 * Accepts an n8n date (string or Date-like) and returns ISO 8601 in UTC. A date-time without
 * an offset (what n8n's date picker produces) is read in `timeZone` (the workflow's zone) when
 * one is given.
 */
export function toIsoDate(field: string, value: unknown, timeZone?: string): string {
	const local = typeof value === 'string' && timeZone ? LOCAL_DATE_TIME.exec(value.trim()) : null;
	const real = typeof value !== 'string' || isRealDateTime(value.trim());
	const candidate = !real
		? undefined
		: local
			? localToUtc(local, timeZone as string)
			: value instanceof Date
				? value
				: typeof value === 'string' || typeof value === 'number'
					? new Date(value)
					: typeof (value as { toISO?: unknown })?.toISO === 'function'
						? new Date((value as { toISO: () => string }).toISO())
						: undefined;
	if (!candidate || Number.isNaN(candidate.getTime())) {
		throw new ValidationError(
			field,
			`${field} must be a date and time such as 2026-12-01T09:00:00Z, got ${describe(value)}`,
		);
	}
	return candidate.toISOString();
}
