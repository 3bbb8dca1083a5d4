/**
 * The pacer that keeps one execution's requests within Parallel Requests and the key's budget:
 * its rules one by one, then executions on one key simulated in virtual time against a service that
 * counts per fixed window and answers 429 past its budget, as the spec's rate limits do.
 */
import { Pacer, type Turn } from '../../nodes/shared/transport/pacer';
import type { RateLimitInfo } from '../../nodes/shared/types';

const NOW = 1_800_000_000_000;
const RESET = NOW / 1000 + 60;
const budget = (remaining: number, reset = RESET): RateLimitInfo => ({
	limit: 100,
	remaining,
	reset,
});

/** Starts requests while the pacer says go; returns how many went. */
function burst(pacer: Pacer, now = NOW, most = 100): number {
	let sent = 0;
	while (sent < most && pacer.turn(now).go) {
		pacer.start();
		sent++;
	}
	return sent;
}

const ANSWER = { go: false, answer: true };

describe('Pacer', () => {
	it('lets ten requests ask before any answer has reported the budget, then as many as it has left', () => {
		const pacer = new Pacer(1000);
		expect(burst(pacer, NOW, 1000)).toBe(10);
		expect(pacer.turn(NOW)).toEqual(ANSWER);
		pacer.settle(budget(950), NOW);
		// nine still out: 950 - 9 more may go
		expect(burst(pacer, NOW, 1000)).toBe(941);
		expect(pacer.turn(NOW)).toEqual(ANSWER);
	});

	it('counts its opening requests answered after the budget is known as its own, not as another client draining the key', () => {
		const pacer = new Pacer(10);
		expect(burst(pacer)).toBe(10);
		pacer.settle(budget(99), NOW);
		expect(burst(pacer)).toBe(1);
		// the other nine opening answers: the service counted them, the run sent them
		for (let left = 98; left >= 90; left--) pacer.settle(budget(left), NOW);
		expect(burst(pacer)).toBe(9);
	});

	it('opens with no more than its slots', () => {
		const pacer = new Pacer(3);
		expect(burst(pacer)).toBe(3);
	});

	it('never has more than its slots in flight', () => {
		const pacer = new Pacer(3);
		pacer.start();
		pacer.settle(budget(10_000), NOW);
		expect(burst(pacer)).toBe(3);
		pacer.settle(budget(9_999), NOW);
		expect(burst(pacer)).toBe(1);
	});

	it('never has more in flight than the budget has left', () => {
		const pacer = new Pacer(20);
		pacer.start();
		pacer.settle(budget(3), NOW);
		expect(burst(pacer)).toBe(3);
		expect(pacer.turn(NOW)).toEqual(ANSWER);
		// answers come back out of order: the lowest count is the latest
		pacer.settle(budget(0), NOW);
		pacer.settle(budget(2), NOW);
		expect(pacer.turn(NOW)).toEqual(ANSWER);
	});

	it('waits for the window to reset once the budget is spent, then asks as before any answer', () => {
		const pacer = new Pacer(20);
		pacer.start();
		pacer.settle(budget(0), NOW);
		expect(pacer.turn(NOW + 20_000)).toEqual({ go: false, waitMs: 40_000 });
		expect(burst(pacer, RESET * 1000)).toBe(10);
		pacer.settle(budget(99, RESET + 60), RESET * 1000 + 150);
		expect(burst(pacer, RESET * 1000 + 150)).toBe(11);
	});

	it('ignores an answer from a window that is already over', () => {
		const pacer = new Pacer(5);
		pacer.start();
		pacer.settle(budget(50, RESET + 60), NOW);
		pacer.start();
		pacer.settle(budget(0, RESET), NOW);
		expect(burst(pacer)).toBe(5);
	});

	it('alone on the key, spends the last of the budget at full speed', () => {
		const pacer = new Pacer(5);
		pacer.start();
		pacer.settle(budget(6), NOW);
		// its own requests drained the budget one for one: nobody else is there
		expect(burst(pacer)).toBe(5);
		for (let left = 5; left > 1; left--) pacer.settle(budget(left), NOW);
		expect(burst(pacer)).toBe(1);
	});

	it("sends one at a time once what is left is about what the key's users may have in flight", () => {
		const pacer = new Pacer(5);
		pacer.start();
		pacer.settle(budget(90), NOW);
		// one request of ours while the budget fell by 10: nine went to others
		pacer.start();
		pacer.settle(budget(80), NOW);
		expect(burst(pacer)).toBe(5);
		for (const left of [75, 70, 65, 60, 55]) pacer.settle(budget(left), NOW);
		// 55 left, draining five times as fast as the run's own requests: more than 2 x 5 slots x 5
		expect(burst(pacer)).toBe(5);
		for (const left of [50, 45, 40, 35, 30]) pacer.settle(budget(left), NOW);
		expect(burst(pacer)).toBe(1);
		expect(pacer.turn(NOW)).toEqual(ANSWER);
	});

	it('is bounded by its slots alone when the service reports no budget', () => {
		const pacer = new Pacer(4);
		pacer.start();
		pacer.settle({}, NOW);
		expect(burst(pacer)).toBe(4);
	});

	it('without a reset time, follows the latest count and lets a request go when none is left', () => {
		const pacer = new Pacer(4);
		pacer.start();
		pacer.settle({ remaining: 2 }, NOW);
		expect(burst(pacer)).toBe(2);
		pacer.settle({ remaining: 0 }, NOW);
		pacer.settle({ remaining: 0 }, NOW);
		// nothing to wait for: one request goes, and its 429 says how long
		expect(burst(pacer)).toBe(1);
		pacer.settle({ remaining: 50 }, NOW);
		expect(burst(pacer)).toBe(4);
	});

	it('keeps no more in flight than the day has left', () => {
		const pacer = new Pacer(5);
		pacer.start();
		pacer.settle({ ...budget(99), dailyRemaining: 2 }, NOW);
		expect(burst(pacer)).toBe(2);
	});

	it('wakes every request waiting for an answer when one comes', async () => {
		const pacer = new Pacer(1);
		pacer.start();
		const woken: number[] = [];
		const waits = [1, 2].map(async (n) => {
			await pacer.answered();
			woken.push(n);
		});
		pacer.settle(budget(50), NOW);
		await Promise.all(waits);
		expect(woken).toEqual([1, 2]);
	});
});

// ---- executions on one key, in virtual time ---------------------------------------------------

interface Sim {
	answered: number;
	limited: number;
	/** Virtual ms from the start until the last execution's last answer. */
	ms: number;
}

/**
 * `executions` runs of `each` requests, `slots` at a time, on one key allowing `perWindow`
 * requests per fixed window of 60 s; every answer comes `latencyMs` after its request, which the
 * service counts as it arrives (half-way). A 429 is retried after its Retry-After, as the
 * transport does. `paced`: through a Pacer each; otherwise `slots` at a time regardless of budget.
 */
function simulate(options: {
	executions: number;
	each: number;
	slots: number;
	perWindow: number;
	latencyMs: number;
	paced: boolean;
	startMs?: number;
}): Sim {
	const windowMs = 60_000;
	const start = options.startMs ?? NOW;
	let now = start;
	const events: Array<{ at: number; seq: number; run: () => void }> = [];
	let seq = 0;
	const at = (time: number, run: () => void) => events.push({ at: time, seq: seq++, run });
	const counts = new Map<number, number>();
	const result: Sim = { answered: 0, limited: 0, ms: 0 };

	/** The service: counts the request in its window, answers with the budget. */
	function serve(arrival: number): { ok: boolean; rate: RateLimitInfo; retryAfterMs: number } {
		const window = Math.floor(arrival / windowMs);
		const used = counts.get(window) ?? 0;
		const reset = ((window + 1) * windowMs) / 1000;
		if (used >= options.perWindow) {
			return { ok: false, rate: { remaining: 0, reset }, retryAfterMs: reset * 1000 - arrival };
		}
		counts.set(window, used + 1);
		return { ok: true, rate: { remaining: options.perWindow - used - 1, reset }, retryAfterMs: 0 };
	}

	for (let e = 0; e < options.executions; e++) {
		const pacer = new Pacer(options.slots);
		let left = options.each;
		let inFlight = 0;
		let waiting = false;
		const send = () => {
			inFlight++;
			const sentAt = now;
			const answer = serve(sentAt + options.latencyMs / 2);
			at(sentAt + options.latencyMs, () => {
				inFlight--;
				if (options.paced) pacer.settle(answer.rate, now);
				if (answer.ok) {
					result.answered++;
					result.ms = Math.max(result.ms, now - start);
				} else {
					result.limited++;
					at(now + Math.max(1000, answer.retryAfterMs), () => {
						left++;
						drive();
					});
				}
				drive();
			});
		};
		const drive = () => {
			if (waiting) return;
			while (left > 0) {
				if (!options.paced) {
					if (inFlight >= options.slots) return;
					left--;
					send();
					continue;
				}
				const turn: Turn = pacer.turn(now);
				if (turn.go) {
					pacer.start();
					left--;
					send();
				} else if ('answer' in turn)
					return; // the next answer drives again
				else {
					waiting = true;
					at(now + turn.waitMs, () => {
						waiting = false;
						drive();
					});
					return;
				}
			}
		};
		at(start, drive);
	}
	while (events.length > 0) {
		events.sort((a, b) => a.at - b.at || a.seq - b.seq);
		const next = events.shift() as (typeof events)[number];
		now = next.at;
		next.run();
	}
	return result;
}

describe('executions sharing one key, simulated', () => {
	const FREE = 100;
	/** Starts at the opening of a window, as a fresh key does in the benchmark. */
	const windowStart = Math.ceil(NOW / 60_000) * 60_000;

	it('one execution of 50 at 150 ms: 5 at a time, no 429, about 50 / 5 latencies', () => {
		const sim = simulate({
			executions: 1,
			each: 50,
			slots: 5,
			perWindow: FREE,
			latencyMs: 150,
			paced: true,
			startMs: windowStart,
		});
		expect(sim).toMatchObject({ answered: 50, limited: 0 });
		// five at a time from the first: no request asks alone
		expect(sim.ms).toBe((50 / 5) * 150);
	});

	it('one execution of 1,000 on Free: no 429, done in the 10th window', () => {
		const sim = simulate({
			executions: 1,
			each: 1000,
			slots: 5,
			perWindow: FREE,
			latencyMs: 150,
			paced: true,
			startMs: windowStart,
		});
		expect(sim).toMatchObject({ answered: 1000, limited: 0 });
		expect(sim.ms).toBeGreaterThan(9 * 60_000);
		expect(sim.ms).toBeLessThan(9 * 60_000 + 5_000);
	});

	it('ten executions of 50 on one Free key: at most one 429 each a window where bursts take hundreds, no slower', () => {
		const shape = { executions: 10, each: 50, slots: 5, perWindow: FREE, latencyMs: 150 };
		const paced = simulate({ ...shape, paced: true, startMs: windowStart });
		const bursts = simulate({ ...shape, paced: false, startMs: windowStart });
		expect(paced.answered).toBe(500);
		expect(bursts.answered).toBe(500);
		expect(bursts.limited).toBeGreaterThan(100);
		expect(paced.limited).toBeLessThanOrEqual(10 * 5);
		// 500 requests need 5 windows: done in the fifth, as the bursts are
		expect(paced.ms).toBeGreaterThan(4 * 60_000);
		expect(paced.ms).toBeLessThan(5 * 60_000);
	});
});
