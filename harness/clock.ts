/* eslint-disable @n8n/community-nodes/no-restricted-globals -- dev-only: fakes the Date of the global object a test runs in */
/**
 * A run's clock set to an instant, so that what a test expects never depends on the day it runs:
 * only `Date` is faked (sinon's fake timers, as jest's own), and it keeps ticking with real time,
 * so timers, sockets, the sandbox and n8n's engine run as usual. The nodes, the sandbox's clock
 * and n8n read the instant given; `faketime` runs of the whole suite (`npm run test:at`, scripts/test-at.ts) check
 * that no test reads the host's calendar instead.
 */
import FakeTimers from '@sinonjs/fake-timers';

/** The set clock, for a test that moves it on (n8n's and the sandbox's time jump together). */
export interface SetClock {
	advance(ms: number): void;
}

/** Runs `work` with the clock at `instant` (ISO 8601 or ms), ticking from there. */
export async function at<T>(
	instant: string | number,
	work: (clock: SetClock) => Promise<T>,
): Promise<T> {
	const now = typeof instant === 'number' ? instant : Date.parse(instant);
	if (!Number.isFinite(now)) throw new Error(`at(): not an instant: ${String(instant)}`);
	const clock = FakeTimers.withGlobal(globalThis).install({
		now,
		toFake: ['Date'],
		shouldAdvanceTime: true,
		advanceTimeDelta: 5,
	});
	try {
		return await work({ advance: (ms) => clock.tick(ms) });
	} finally {
		clock.uninstall();
	}
}

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

/** The instant of `[year, month (1-12), day, hour, minute]` in UTC. */
const utc = (y: number, mo: number, d = 1, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);

/** The last Sunday of a month, or the nth Sunday (n >= 1), at hour:00 UTC. */
function sunday(year: number, month: number, n: number | 'last', hour: number): number {
	if (n === 'last') {
		const end = new Date(utc(year, month + 1, 0, hour));
		return end.getTime() - end.getUTCDay() * DAY;
	}
	const first = new Date(utc(year, month, 1, hour));
	return first.getTime() + (((7 - first.getUTCDay()) % 7) + (n - 1) * 7) * DAY;
}

/** The calendar's edges of a year: daylight-saving changes (EU, US), the year's end, February's. */
export function edges(year: number): number[][] {
	return [
		[sunday(year, 3, 'last', 1), sunday(year, 10, 'last', 1)],
		[sunday(year, 3, 2, 7), sunday(year, 11, 1, 6)],
		[utc(year + 1, 1, 1)],
		[utc(year, 3, 1)],
	];
}

/**
 * The instant `npm run test:at -- commit` runs the suite at, from HEAD's hash (hex) and commit
 * time: a year before the commit to three after, three picks of four moved within 90 minutes of a
 * date that breaks calendars.
 */
export function pick(hash: string, committedMs: number): number {
	const bits = (from: number, length: number) => parseInt(hash.slice(from, from + length), 16);
	const span = 4 * 365 * DAY;
	const instant =
		Math.floor(committedMs / MINUTE) * MINUTE -
		365 * DAY +
		(bits(0, 10) % (span / MINUTE)) * MINUTE;
	const kind = bits(10, 2) % 4;
	if (kind === 3) return instant;
	const year = new Date(instant).getUTCFullYear();
	const group = bits(12, 2) % 4;
	const candidates = [year - 1, year, year + 1].flatMap((y) => edges(y)[group]);
	const nearest = candidates.reduce((a, b) =>
		Math.abs(b - instant) < Math.abs(a - instant) ? b : a,
	);
	// up to 90 minutes either side of the edge
	return nearest + ((bits(14, 4) % 181) - 90) * MINUTE;
}
