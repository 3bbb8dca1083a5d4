// Seeded PRNG (mulberry32): the same seed gives the same data, outcomes and fault rolls.
export class Rng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** integer in [min, max] */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	hex(length: number): string {
		let out = '';
		for (let i = 0; i < length; i++) out += Math.floor(this.next() * 16).toString(16);
		return out;
	}

	uuid(): string {
		const h = this.hex(32).split('');
		h[12] = '4';
		h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
		const s = h.join('');
		return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
	}

	/** A UUIDv7: `ms` in its first 48 bits, so ids minted in one millisecond share 12 hex digits. */
	uuidv7(ms: number): string {
		return uuidv7(ms, () => this.next());
	}

	shuffle<T>(items: T[]): T[] {
		for (let i = items.length - 1; i > 0; i--) {
			const j = Math.floor(this.next() * (i + 1));
			const tmp = items[i];
			items[i] = items[j];
			items[j] = tmp;
		}
		return items;
	}
}

/** RFC 9562 version 7: 48 bits of Unix milliseconds, version 7, 74 random bits, variant 10. */
export function uuidv7(ms: number, random: () => number): string {
	const hex = (n: number, digits: number) => Math.floor(n).toString(16).padStart(digits, '0');
	const time = hex(ms, 12);
	const variant = hex(0x8000 + random() * 0x4000, 4);
	const tail = hex(random() * 0x1000000, 6) + hex(random() * 0x1000000, 6);
	return `${time.slice(0, 8)}-${time.slice(8)}-7${hex(random() * 0x1000, 3)}-${variant}-${tail}`;
}

/** Small stable string hash, for deterministic per-record variations at render time. */
export function hashString(s: string): number {
	let h = 2166136261;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 16777619);
	}
	return h >>> 0;
}
