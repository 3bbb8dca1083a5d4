import type { RateLimitInfo } from '../types';

/**
 * How the requests of one execution share the key's budget with each other and with every other
 * execution and worker on the key, whose only shared truth is the `X-RateLimit-*` headers of the
 * answers. At most `slots` in flight (the Parallel Requests option), never more than the latest
 * answer says is left, and none once the window is spent, until it resets. How fast the budget
 * drains beside the run's own requests says how many others draw on it: once what is left is
 * about what all of them may have in flight, the run sends one request at a time, so each sees
 * the latest count before the next and rarely more than one is refused per window; a polling
 * wait spaces its rounds to its share of what is left. Pure: the caller gives the time, sends,
 * and waits as told.
 */

export type Turn =
	| { go: true }
	/** Wait until a request in flight is answered, then ask again. */
	| { go: false; answer: true }
	/** Wait this long, then ask again: the budget is spent until the window resets. */
	| { go: false; waitMs: number };

const GO: Turn = { go: true };
const ANSWER: Turn = { go: false, answer: true };

/** Left in the budget, in multiples of what the key's users may have in flight: from there, one at a time. */
const CAREFUL_ROUNDS = 2;

/**
 * In flight before an answer has told the budget: a tenth of the smallest plan's minute (Free,
 * 100). A key with fewer left refuses the rest with a 429, each sent again after its Retry-After
 * through the pacer, which by then knows the budget; asking with one alone would cost every run a
 * latency.
 */
export const OPENING = 10;

export class Pacer {
	private inFlight = 0;
	/** The most the run has had in flight: what the careful rule assumes each user of the key has. */
	private peak = 0;
	/**
	 * The budget's window: when it resets (epoch seconds, undefined when answers give none), the
	 * least any answer reported left (the latest count), what its first answer said was left, and
	 * the run's requests since.
	 */
	private window?: { reset?: number; remaining: number; first: number; sent: number };
	private daily?: number;
	/** Answers carry no budget: only the slots bound the run. */
	private unreported = false;
	private waiting: Array<() => void> = [];

	constructor(readonly slots: number) {}

	/** Whether a request may be sent now. */
	turn(nowMs: number): Turn {
		if (this.inFlight >= this.slots) return ANSWER;
		if (this.daily !== undefined && this.inFlight > 0 && this.inFlight >= this.daily) return ANSWER;
		const window = this.current(nowMs);
		if (!window) return this.unreported || this.inFlight < OPENING ? GO : ANSWER;
		if (this.inFlight > 0) {
			if (window.remaining - this.inFlight < 1) return ANSWER;
			const share = this.share();
			return share > 1 && window.remaining <= CAREFUL_ROUNDS * this.peak * share ? ANSWER : GO;
		}
		if (window.remaining > 0 || window.reset === undefined) return GO;
		// Spent: a request now would be a sure 429. Without a reset time, a 429 says how long.
		return { go: false, waitMs: Math.max(1, Math.ceil(window.reset * 1000 - nowMs)) };
	}

	/**
	 * Time between a polling wait's requests that makes its share of what is left last until the
	 * window resets: small while the budget is ample, so a lone wait is never slower.
	 */
	spacingMs(nowMs: number): number {
		const window = this.current(nowMs);
		if (window?.reset === undefined) return 0;
		return ((window.reset * 1000 - nowMs) * this.share()) / (Math.max(0, window.remaining) + 1);
	}

	/** A request is being sent. */
	start(): void {
		this.inFlight++;
		this.peak = Math.max(this.peak, this.inFlight);
		if (this.window) this.window.sent++;
	}

	/** A request ended: with the budget its answer reported, or undefined when no answer came. */
	settle(rateLimit: RateLimitInfo | undefined, nowMs: number): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		if (rateLimit) this.hear(rateLimit, nowMs);
		const waiting = this.waiting;
		this.waiting = [];
		for (const wake of waiting) wake();
	}

	/** Settles when the next request in flight ends. */
	async answered(): Promise<void> {
		return await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	/** How many requests leave the budget for each of the run's: 1 when it is alone on the key. */
	private share(): number {
		const window = this.window;
		return window && window.sent > 0
			? Math.max(1, (window.first - window.remaining) / window.sent)
			: 1;
	}

	private current(nowMs: number): typeof this.window {
		// A window that has reset is refilled by an amount only the next answer will tell.
		if (this.window?.reset !== undefined && nowMs >= this.window.reset * 1000)
			this.window = undefined;
		return this.window;
	}

	private hear(rateLimit: RateLimitInfo, nowMs: number): void {
		if (rateLimit.dailyRemaining !== undefined) this.daily = Math.max(1, rateLimit.dailyRemaining);
		const { remaining } = rateLimit;
		if (remaining === undefined) {
			if (!this.window) this.unreported = true;
			return;
		}
		this.unreported = false;
		const reset =
			rateLimit.reset !== undefined && rateLimit.reset * 1000 > nowMs ? rateLimit.reset : undefined;
		const window = this.window;
		if (reset === undefined || window?.reset === undefined || reset > window.reset) {
			// A new window, or answers without one: the latest count stands. The run's requests still
			// out may be counted in later answers: they are its own, not others' draining the key.
			this.window = { reset, remaining, first: remaining, sent: this.inFlight };
		} else if (reset === window.reset) {
			// An answer from a window already over says nothing about this one.
			window.remaining = Math.min(window.remaining, remaining);
		}
	}
}
