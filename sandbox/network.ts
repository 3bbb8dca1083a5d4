import type { Rng } from './prng';

/**
 * The network between a client and the service: every answer waits the latency, give or take the
 * jitter (uniform, from its own seeded stream), so tests and benchmarks see what a real network
 * costs. It also counts the requests in progress, so a test can see how many a client had in flight.
 */
export class Network {
	private latencyMs = 0;
	private jitterMs = 0;
	private inProgress = 0;

	constructor(private readonly rng: Rng) {}

	set(latencyMs = 0, jitterMs = 0): void {
		if (!Number.isFinite(latencyMs) || latencyMs < 0) throw new Error('latency must be >= 0 ms');
		if (!Number.isFinite(jitterMs) || jitterMs < 0) throw new Error('jitter must be >= 0 ms');
		this.latencyMs = latencyMs;
		this.jitterMs = jitterMs;
	}

	get latency(): { latencyMs: number; jitterMs: number } {
		return { latencyMs: this.latencyMs, jitterMs: this.jitterMs };
	}

	/** How long this answer travels. */
	delayMs(): number {
		if (this.jitterMs === 0) return this.latencyMs;
		return Math.max(0, this.latencyMs + (this.rng.next() * 2 - 1) * this.jitterMs);
	}

	/** A request arrived: how many are in progress now, itself included. */
	arrive(): number {
		return ++this.inProgress;
	}

	leave(): void {
		this.inProgress = Math.max(0, this.inProgress - 1);
	}
}
