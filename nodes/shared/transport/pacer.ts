import type { RateLimitInfo } from '../types';

/**
 * How an execution's requests share the key's budget with each other and with every execution and
 * worker on the key, whose only shared truth is the answers' `X-RateLimit-*` headers: at most
 * `slots` in flight (Parallel Requests), never more than the latest answer says is left, none once
 * the window is spent. How fast the budget drains beside the run's own requests says how many others
 * draw on it: near the end (CAREFUL_ROUNDS times what all may have in flight) the run sends one at a
 * time, so rarely more than one is refused per window. Pure: the caller gives the time and waits.
 */

/** Go; wait for a request in flight to be answered; or wait `waitMs` for the window to reset. */
export type Turn = { go: true } | { go: false; answer: true } | { go: false; waitMs: number };

const GO: Turn = { go: true };
const ANSWER: Turn = { go: false, answer: true };
const CAREFUL_ROUNDS = 2;

/** In flight before an answer has told the budget: a tenth of Free's minute; one alone costs a latency. */
const OPENING = 10;

/** When the window resets (epoch s), the latest (least) count left, its first, the run's sent since. */
type Window = { reset?: number; remaining: number; first: number; sent: number };

export class Pacer {
	private inFlight = 0;
	/** The most the run has had in flight: what the careful rule assumes each user of the key has. */
	private peak = 0;
	private window?: Window;
	private daily?: number;
	/** Answers carry no budget: only the slots bound the run. */
	private unreported = false;
	private waiting: Array<() => void> = [];

	constructor(readonly slots: number) {}

	turn(nowMs: number): Turn {
		if (this.inFlight >= this.slots) return ANSWER;
		if (this.daily !== undefined && this.inFlight > 0 && this.inFlight >= this.daily) return ANSWER;
		const window = this.current(nowMs);
		if (!window) return this.unreported || this.inFlight < OPENING ? GO : ANSWER;
		if (this.inFlight > 0) {
			if (window.remaining - this.inFlight < 1) return ANSWER;
			const share = this.share(window);
			return share > 1 && window.remaining <= CAREFUL_ROUNDS * this.peak * share ? ANSWER : GO;
		}
		if (window.remaining > 0 || window.reset === undefined) return GO;
		// A request now would be a sure 429. Without a reset time, its 429 says how long.
		return { go: false, waitMs: Math.max(1, Math.ceil(window.reset * 1000 - nowMs)) };
	}

	/** Time between a wait's requests that makes its share of what is left last the window. */
	spacingMs(nowMs: number): number {
		const window = this.current(nowMs);
		if (window?.reset === undefined) return 0;
		const left = Math.max(0, window.remaining) + 1;
		return ((window.reset * 1000 - nowMs) * this.share(window)) / left;
	}

	start(): void {
		this.inFlight++;
		this.peak = Math.max(this.peak, this.inFlight);
		if (this.window) this.window.sent++;
	}

	/** A request ended, with the budget its answer reported if one came. */
	settle(rateLimit: RateLimitInfo | undefined, nowMs: number): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		if (rateLimit) this.hear(rateLimit, nowMs);
		const waiting = this.waiting;
		this.waiting = [];
		for (const wake of waiting) wake();
	}

	async answered(): Promise<void> {
		return await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	/** How many requests leave the budget for each of the run's: 1 when it is alone on the key. */
	private share(window: Window): number {
		return window.sent > 0 ? Math.max(1, (window.first - window.remaining) / window.sent) : 1;
	}

	private current(nowMs: number): Window | undefined {
		// A window that has reset is refilled by an amount only the next answer will tell.
		if (this.window?.reset !== undefined && nowMs >= this.window.reset * 1000)
			this.window = undefined;
		return this.window;
	}

	private hear({ remaining, reset, dailyRemaining }: RateLimitInfo, nowMs: number): void {
		if (dailyRemaining !== undefined) this.daily = Math.max(1, dailyRemaining);
		this.unreported = remaining === undefined && !this.window;
		if (remaining === undefined) return;
		const ends = reset !== undefined && reset * 1000 > nowMs ? reset : undefined;
		const window = this.window;
		if (ends === undefined || window?.reset === undefined || ends > window.reset) {
			// A new window, or answers without one: the latest count stands. The run's requests still
			// out may be counted in later answers: they are its own, not others' draining the key.
			this.window = { reset: ends, remaining, first: remaining, sent: this.inFlight };
		} else if (ends === window.reset) {
			window.remaining = Math.min(window.remaining, remaining);
		}
	}
}
