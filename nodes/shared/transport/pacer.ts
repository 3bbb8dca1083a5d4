import type { RateLimitInfo } from '../types';

/**
 * How the requests of one execution share the key's budget: at most `slots` in flight (the
 * Parallel Requests option), and never more in flight than the `X-RateLimit-*` headers of the
 * latest answers say is left this window. When the run means to send more than is left, the rest
 * is spread over the window at the pace the budget is draining (other executions and workers draw
 * on it too, in the spirit of `budgetSpacingMs`), so executions sharing a key slow to their share
 * instead of bursting into 429s. Before any answer has reported the budget, one request asks.
 * Pure: the caller gives the time, sends, and waits as told.
 */

export type Turn =
	| { go: true }
	/** Wait until a request in flight is answered, then ask again. */
	| { go: false; answer: true }
	/** Wait this long, then ask again; `reset` when the budget is spent until the window resets. */
	| { go: false; waitMs: number; reset: boolean };

const GO: Turn = { go: true };
const ANSWER: Turn = { go: false, answer: true };

interface Window {
	/** Epoch seconds when it resets; undefined when answers give no usable reset time. */
	reset?: number;
	/** The least any answer of this window reported left: the service's latest count. */
	remaining: number;
	/** What the first answer of the window said was left, and the answers heard since. */
	first: number;
	answers: number;
}

export class Pacer {
	private inFlight = 0;
	private window?: Window;
	private daily?: number;
	/** Answers carry no budget: only the slots bound the run. */
	private unreported = false;
	private lastStart = -Infinity;
	private demand = 1;
	private waiting: Array<() => void> = [];

	constructor(readonly slots: number) {}

	/** Requests the run still means to send, the next one included: spreading starts when they outrun the budget. */
	expect(requests: number): void {
		this.demand = Math.max(1, requests);
	}

	/** Whether a request may be sent now. */
	turn(nowMs: number): Turn {
		if (this.inFlight >= this.slots) return ANSWER;
		if (this.daily !== undefined && this.inFlight > 0 && this.inFlight >= this.daily) return ANSWER;
		const window = this.current(nowMs);
		if (!window) return this.unreported || this.inFlight === 0 ? GO : ANSWER;
		// How many requests leave the budget for each of ours: 1 when the run is alone on the key;
		// the others are taken to have as many in flight in proportion.
		const share =
			window.answers > 0 ? Math.max(1, (window.first - window.remaining) / window.answers) : 1;
		const available = Math.floor(window.remaining - this.inFlight * share);
		if (available <= 0) {
			if (this.inFlight > 0) return ANSWER;
			// Without a reset time there is nothing to wait for: a 429 will say how long.
			if (window.reset === undefined) return GO;
			return {
				go: false,
				waitMs: Math.max(1, Math.ceil(window.reset * 1000 - nowMs)),
				reset: true,
			};
		}
		if (window.reset === undefined) return GO;
		if (this.demand * share <= available) return GO;
		const spacing = ((window.reset * 1000 - nowMs) * share) / (available + 1);
		const waitMs = Math.ceil(this.lastStart + spacing - nowMs);
		return waitMs > 0 ? { go: false, waitMs, reset: false } : GO;
	}

	/** A request is being sent. */
	start(nowMs: number): void {
		this.inFlight++;
		this.lastStart = nowMs;
		this.demand = Math.max(1, this.demand - 1);
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

	private current(nowMs: number): Window | undefined {
		const window = this.window;
		// A window that has reset is refilled by an amount only the next answer will tell.
		if (window?.reset !== undefined && nowMs >= window.reset * 1000) this.window = undefined;
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
			// A new window, or answers without one: the latest count stands.
			this.window = { reset, remaining, first: remaining, answers: 0 };
			return;
		}
		// An answer from a window already over says nothing about this one.
		if (reset < window.reset) return;
		window.answers++;
		window.remaining = Math.min(window.remaining, remaining);
	}
}
