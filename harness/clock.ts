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
