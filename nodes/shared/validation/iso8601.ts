/**
 * ISO 8601 dates and times as a person may type them: calendar (2026-12-01, 20261201), week
 * (2026-W49-2, 2026W492) and ordinal (2026-335, 2026335) dates, alone or with a time in the
 * extended (09:00, 09:00:30.5) or basic (0900, 090030,5) form, and an offset (Z, +02:00, +0200,
 * +02). Pure: the caller decides which zone a time without offset is read in.
 */

export interface IsoParts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
	/** Minutes ahead of UTC; undefined when the text gave no offset (a local time). */
	offsetMinutes?: number;
}

const DATE_FORMS: Array<[RegExp, (m: RegExpExecArray) => [number, number, number] | undefined]> = [
	[/^(\d{4})-(\d{2})-(\d{2})$/, (m) => [+m[1], +m[2], +m[3]]],
	[/^(\d{4})(\d{2})(\d{2})$/, (m) => [+m[1], +m[2], +m[3]]],
	[/^(\d{4})-?W(\d{2})(?:-?([1-7]))?$/, (m) => fromWeek(+m[1], +m[2], m[3] ? +m[3] : 1)],
	[/^(\d{4})-?(\d{3})$/, (m) => fromOrdinal(+m[1], +m[2])],
];

const TIME_FORMS = [
	/^(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?$/,
	/^(\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?$/,
	/^(\d{2})()()()$/,
];

const OFFSET = /(Z|[+-]\d{2}(?::?\d{2})?)$/i;

function daysInYear(year: number): number {
	return new Date(Date.UTC(year, 1, 29)).getUTCMonth() === 1 ? 366 : 365;
}

function weeksInYear(year: number): number {
	// A year has 53 ISO weeks when it starts on a Thursday, or is a leap year starting on a Wednesday.
	const jan1 = new Date(Date.UTC(year, 0, 1)).getUTCDay();
	return jan1 === 4 || (jan1 === 3 && daysInYear(year) === 366) ? 53 : 52;
}

function fromOrdinal(year: number, ordinal: number): [number, number, number] | undefined {
	if (ordinal < 1 || ordinal > daysInYear(year)) return undefined;
	const date = new Date(Date.UTC(year, 0, ordinal));
	return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
}

function fromWeek(
	year: number,
	week: number,
	weekday: number,
): [number, number, number] | undefined {
	if (week < 1 || week > weeksInYear(year)) return undefined;
	// Week 1 holds the year's first Thursday; its Monday is at most 3 days before 4 January.
	const jan4 = new Date(Date.UTC(year, 0, 4));
	const mondayOfWeek1 = Date.UTC(year, 0, 4 - ((jan4.getUTCDay() + 6) % 7));
	const date = new Date(mondayOfWeek1 + ((week - 1) * 7 + weekday - 1) * 86_400_000);
	return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
}

function parseDate(text: string): [number, number, number] | undefined {
	for (const [form, read] of DATE_FORMS) {
		const match = form.exec(text);
		if (!match) continue;
		const date = read(match);
		if (!date) return undefined;
		const [year, month, day] = date;
		const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
		return month >= 1 && month <= 12 && day >= 1 && day <= days ? date : undefined;
	}
	return undefined;
}

function parseOffset(text: string): number | undefined {
	if (text.toUpperCase() === 'Z') return 0;
	const sign = text[0] === '-' ? -1 : 1;
	const digits = text.slice(1).replace(':', '');
	const hours = +digits.slice(0, 2);
	const minutes = digits.length > 2 ? +digits.slice(2, 4) : 0;
	if (hours > 23 || minutes > 59) return undefined;
	return sign * (hours * 60 + minutes);
}

/** The parts of an ISO 8601 date or date-time, or undefined when the text is not one. */
export function parseIso8601(input: string): IsoParts | undefined {
	const text = input.trim();
	const separator = text.search(/[T ]/i);
	const datePart = separator === -1 ? text : text.slice(0, separator);
	const date = parseDate(datePart);
	if (!date) return undefined;
	const [year, month, day] = date;
	const parts: IsoParts = { year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 };
	if (separator === -1) return parts;
	let timePart = text.slice(separator + 1);
	const offset = OFFSET.exec(timePart);
	if (offset) {
		const minutes = parseOffset(offset[1]);
		if (minutes === undefined) return undefined;
		parts.offsetMinutes = minutes;
		timePart = timePart.slice(0, offset.index);
	}
	const time = TIME_FORMS.map((form) => form.exec(timePart)).find(Boolean);
	if (!time) return undefined;
	const [hour, minute, second] = [time[1], time[2], time[3]].map((part) => +(part || 0));
	const endOfDay = hour === 24 && minute === 0 && second === 0 && !/[1-9]/.test(time[4] ?? '');
	if (!endOfDay && (hour > 23 || minute > 59 || second > 59)) return undefined;
	Object.assign(parts, {
		hour,
		minute,
		second,
		millisecond: Math.floor(Number(`0.${time[4] || '0'}`) * 1000),
	});
	return parts;
}
