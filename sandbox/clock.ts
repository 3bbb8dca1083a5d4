/** Sandbox time: real time plus everything `advance` added. Never goes backwards. */
export class Clock {
	private offset = 0;

	nowMs(): number {
		return Date.now() + this.offset;
	}

	now(): Date {
		return new Date(this.nowMs());
	}

	advance(ms: number): void {
		if (!Number.isFinite(ms) || ms < 0) throw new Error('advance(ms) needs a finite ms >= 0');
		this.offset += ms;
	}
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

export function dayKey(ms: number): string {
	return iso(ms).slice(0, 10);
}

const FRACTION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.\d+(Z|[+-]\d{2}:?\d{2})$/;

/** An answer's body with every ISO stamp cut to whole seconds, as a service storing seconds shows it. */
export function wholeSeconds(value: unknown): unknown {
	if (typeof value === 'string') return value.replace(FRACTION, '$1$2');
	if (Array.isArray(value)) return value.map(wholeSeconds);
	if (value === null || typeof value !== 'object') return value;
	const out: Record<string, unknown> = {};
	for (const [key, field] of Object.entries(value)) out[key] = wholeSeconds(field);
	return out;
}
