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
