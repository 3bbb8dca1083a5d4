import type { RateLimitInfo } from '../types';

/**
 * How the requests of one execution share the key's budget with each other and with every other
 * execution and worker on the key, whose only shared truth is the `X-RateLimit-*` headers of the
 * answers: at most `slots` in flight (Parallel Requests), never more than the latest answer says
 * is left, none once the window is spent until it resets. How fast the budget drains beside the
 * run's own requests says how many others draw on it: once what is left is about what all of them
 * may have in flight (CAREFUL_ROUNDS times), the run sends one request at a time, so each sees
 * the latest count and rarely more than one is refused per window; a polling wait spaces its
 * rounds to its share of what is left. Pure: the caller gives the time, sends, and waits as told.
 */

/** Go; wait for a request in flight to be answered; or wait `waitMs` for the window to reset. */
export type Turn = { go: true } | { go: false; answer: true } | { go: false; waitMs: number };

const GO: Turn = { go: true };
const ANSWER: Turn = { go: false, answer: true };
const CAREFUL_ROUNDS = 2;

/**
 * In flight before an answer has told the budget: a tenth of the smallest plan's minute (Free,
 * 100). A key with fewer left refuses the rest with a 429, sent again through the pacer, which
 * knows the budget by then; asking with one alone would cost every run a latency.
 */
const OPENING = 10;

interface Window {
	/** Epoch seconds; undefined when answers give no usable reset time. */
	reset?: number;
	/** The least any answer of the window reported left: the service's latest count. */
	remaining: number;
	/** What the window's first answer said was left, and the run's requests sent since. */
	first: number;
	sent: number;
}

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
			// (An answer from a window already over says nothing about this one.)
			window.remaining = Math.min(window.remaining, remaining);
		}
	}
}
