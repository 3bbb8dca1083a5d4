/**
 * Compact forms for the stored state: record ids as keys of 22 base64url characters and statuses
 * as one letter. A key is the whole UUID mixed (below), so that its every character depends on
 * every bit of the id: when many records must be remembered, a prefix of it (at least MIN_KEY
 * characters) stands for the record, and ids that share a long prefix (UUIDv7 minted in one
 * millisecond, v1/v6 of one clock, sequential ids) still get unrelated ones. The prefix is then
 * 54 bits of a well-mixed value: two of 10,000 records sharing one is a 3 in 10^9 event
 * (10,000^2 / 2 / 2^54), for any UUID version.
 */

import { UUID_PATTERN } from '../../../shared/constants';
import {
	type ARTICLE_STATUSES,
	SOCIAL_PUBLISHING,
	type SOCIAL_STATUSES,
} from '../../../shared/domain/statuses';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Characters of a whole packed id: a key this wide can be turned back into the UUID. */
export const FULL_KEY = 22;
export const MIN_KEY = 9;
/** Keys of finished articles below the floor (54 bits), whatever length the state's other keys have. */
export const OLD_KEY = 9;

/** murmur3's finaliser: a bijection of 32 bits in which each output bit depends on every input bit. */
function fmix(h: number): number {
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return (h ^ (h >>> 16)) >>> 0;
}

const ROUND_KEYS = [0x9e3779b9, 0x7f4a7c15, 0x3c6ef372, 0xdaa66d2b];

/** A Feistel round function: 64 bits of one half to 64 bits depending on each of them. */
function scramble(a: number, b: number, k: number): [number, number] {
	const x = fmix(a ^ k);
	const y = fmix(b ^ x);
	return [fmix(x ^ y ^ k), y];
}

/**
 * Four Feistel rounds over the two 64-bit halves of the id's 128 bits: invertible whatever the
 * round function (so a whole key turns back into the UUID), and after two rounds every bit of
 * each half depends on every bit of the id. Not a secret: it spreads ids, it does not hide them.
 */
function mix(words: number[], inverse = false): number[] {
	let [l0, l1, r0, r1] = inverse ? [words[2], words[3], words[0], words[1]] : words;
	for (let i = 0; i < ROUND_KEYS.length; i++) {
		const [f0, f1] = scramble(r0, r1, ROUND_KEYS[inverse ? ROUND_KEYS.length - 1 - i : i]);
		[l0, l1, r0, r1] = [r0, r1, (l0 ^ f0) >>> 0, (l1 ^ f1) >>> 0];
	}
	return inverse ? [r0, r1, l0, l1] : [l0, l1, r0, r1];
}

/** The id mixed, as 22 base64url characters; undefined for anything that is not a UUID. */
export function packId(id: string): string | undefined {
	if (!UUID_PATTERN.test(id)) return undefined;
	const hex = id.replace(/-/g, '');
	const words = [0, 8, 16, 24].map((i) => parseInt(hex.slice(i, i + 8), 16));
	const bytes = mix(words).flatMap((w) => [w >>> 24, (w >>> 16) & 255, (w >>> 8) & 255, w & 255]);
	let out = '';
	for (let i = 0; i < 16; i += 3) {
		const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
		out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
		if (i + 1 < 16) out += ALPHABET[(n >> 6) & 63];
		if (i + 2 < 16) out += ALPHABET[n & 63];
	}
	return out;
}

/** The 16 bytes of 22 base64url characters, as four 32-bit words. */
function wordsOf(packed: string): number[] {
	const bytes: number[] = [];
	for (let i = 0; i < FULL_KEY; i += 4) {
		const chunk = packed.slice(i, i + 4);
		let n = 0;
		for (let j = 0; j < 4; j++) n = (n << 6) | (j < chunk.length ? ALPHABET.indexOf(chunk[j]) : 0);
		bytes.push((n >> 16) & 255);
		if (chunk.length > 2) bytes.push((n >> 8) & 255);
		if (chunk.length > 3) bytes.push(n & 255);
	}
	return [0, 4, 8, 12].map(
		(i) => ((bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3]) >>> 0,
	);
}

function uuidOf(words: number[]): string {
	const hex = words.map((w) => w.toString(16).padStart(8, '0')).join('');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The UUID of a whole key (lower case). */
export function unpackId(packed: string): string {
	return uuidOf(mix(wordsOf(packed), true));
}

/** The key of a record id at full length, or undefined when the record cannot be tracked. */
export function keyOf(id: unknown): string | undefined {
	return typeof id === 'string' ? packId(id) : undefined;
}

type KnownStatus =
	| (typeof ARTICLE_STATUSES)[number]
	| (typeof SOCIAL_STATUSES)[number]
	| typeof SOCIAL_PUBLISHING;

/**
 * One letter per status, part of the stored format (a status added to the spec fails to compile
 * until it has one); 'x' stands for a status outside the spec (decoded as unknown).
 */
const STATUS_CODES: Record<string, string> = {
	draft: 'd',
	queued: 'q',
	cms: 'c',
	needs_editing: 'n',
	failed: 'f',
	archived: 'a',
	generating: 'g',
	ready: 'r',
	completed: 'o',
	scheduled: 's',
	published: 'p',
	[SOCIAL_PUBLISHING]: 'u',
} satisfies Record<KnownStatus, string>;
const CODE_STATUSES: Record<string, string> = Object.fromEntries(
	Object.entries(STATUS_CODES).map(([status, code]) => [code, status]),
);
const OTHER = 'x';

export function statusCode(status: string): string {
	return STATUS_CODES[status] ?? OTHER;
}

/** The status a code stands for; null for a status outside the spec. */
export function codeStatus(code: string): string | null {
	return CODE_STATUSES[code] ?? null;
}

/**
 * Records remembered by key. Lookups compare the first `keyLength` characters (every map of a poll
 * uses the key length the state was stored with); each entry keeps the longest key seen for it, so
 * a state narrowed to save space widens again as its narrow entries are replaced or forgotten.
 */
export class RecordMap<V> {
	private readonly entries = new Map<string, { key: string; value: V }>();

	constructor(public keyLength: number = FULL_KEY) {}

	get size(): number {
		return this.entries.size;
	}

	get(key: string): V | undefined {
		return this.entries.get(key.slice(0, this.keyLength))?.value;
	}

	has(key: string): boolean {
		return this.entries.has(key.slice(0, this.keyLength));
	}

	/** Adds or moves an entry to the newest end (the oldest entries are the first forgotten). */
	set(key: string, value: V): void {
		const short = key.slice(0, this.keyLength);
		const seen = this.entries.get(short)?.key ?? '';
		this.entries.delete(short);
		this.entries.set(short, { key: seen.length > key.length ? seen : key, value });
	}

	delete(key: string): boolean {
		return this.entries.delete(key.slice(0, this.keyLength));
	}

	/** Entries oldest first: [longest key seen, value]. */
	*[Symbol.iterator](): IterableIterator<[string, V]> {
		for (const { key, value } of this.entries.values()) yield [key, value];
	}

	/** Length of the shortest key held (FULL_KEY when empty). */
	get shortest(): number {
		let min = FULL_KEY;
		for (const { key } of this.entries.values()) min = Math.min(min, key.length);
		return min;
	}

	/** The UUID behind a key, when the whole key was seen. */
	idOf(key: string): string | undefined {
		const seen = this.entries.get(key.slice(0, this.keyLength))?.key ?? key;
		return seen.length >= FULL_KEY ? unpackId(seen) : undefined;
	}
}
