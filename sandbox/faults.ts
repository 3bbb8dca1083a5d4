import type { Rng } from './prng';
import type { FaultConfig } from './types';

export type FaultKind = 'drop' | 'server' | 'malformed' | 'html';

export interface FaultDecision {
	latencyMs: number;
	/** Retry-After seconds when a rate-limit storm answers this request */
	storm?: number;
	fault?: FaultKind;
	afterProcessing: boolean;
	serverStatus?: number;
}

const RATES: Array<[keyof FaultConfig, FaultKind]> = [
	['dropRate', 'drop'],
	['serverErrorRate', 'server'],
	['malformedJsonRate', 'malformed'],
	['htmlErrorRate', 'html'],
];

export class Faults {
	private config: FaultConfig | null = null;
	private stormLeft = 0;

	constructor(private readonly rng: Rng) {}

	set(f: FaultConfig): void {
		let sum = 0;
		for (const [name] of RATES) {
			const v = f[name];
			if (v === undefined) continue;
			if (typeof v !== 'number' || !(v >= 0 && v <= 1))
				throw new Error(`${name} must be between 0 and 1`);
			sum += v;
		}
		if (sum > 1 + 1e-9) throw new Error('fault rates add up to more than 1');
		if (f.latencyMs !== undefined && !(f.latencyMs >= 0)) throw new Error('latencyMs must be >= 0');
		this.config = { ...f, match: f.match ? { ...f.match } : undefined };
		this.stormLeft = f.rateLimitStorm ? Math.max(0, Math.floor(f.rateLimitStorm.requests)) : 0;
	}

	clear(): void {
		this.config = null;
		this.stormLeft = 0;
	}

	decide(method: string, path: string): FaultDecision {
		const c = this.config;
		const none: FaultDecision = { latencyMs: 0, afterProcessing: false };
		if (!c) return none;
		if (c.match?.method && c.match.method.toUpperCase() !== method.toUpperCase()) return none;
		if (c.match?.pathPrefix && !path.startsWith(c.match.pathPrefix)) return none;
		const d: FaultDecision = {
			latencyMs: c.latencyMs ?? 0,
			afterProcessing: c.afterProcessing === true,
		};
		if (this.stormLeft > 0 && c.rateLimitStorm) {
			this.stormLeft--;
			d.storm = Math.max(0, Math.floor(c.rateLimitStorm.retryAfter));
			return d;
		}
		const roll = this.rng.next();
		let acc = 0;
		for (const [name, kind] of RATES) {
			acc += (c[name] as number | undefined) ?? 0;
			if (roll < acc) {
				d.fault = kind;
				if (kind === 'server') d.serverStatus = this.rng.pick([500, 502, 503, 504]);
				break;
			}
		}
		return d;
	}
}
