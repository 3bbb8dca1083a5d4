/**
 * The stored state: the memory (./memory) encoded as n8n keeps it in the node's static data (JSON:
 * one-letter keys, packed ids; ../../README.md gives the legend), and kept under STATE_BUDGET
 * characters. Every book of record keys shares one key width: the widest that fits. When even
 * MIN_KEY characters do not, records are forgotten, least needed first, and the trigger says so:
 * finished articles older than the look-back (memory only), then recent ones (the article
 * look-back shrinks to what is remembered), then followed social records (their next change is
 * reported only when they show up in a list again), then articles in flight (their completion can
 * go unreported), then recent social records (births are then looked for above them only).
 */
import { Book, FULL_KEY, MIN_KEY } from './keys';
import type { Notes } from '../context';
import type { Seen, TrackerMemory } from './memory';

export const STATE_BUDGET = 60_000;
/** The format written: `v` and `t` stay top-level in every format (./formats says why). */
export const VERSION = 2;

type Json = Record<string, unknown>;

/**
 * What to store after a poll: the memory at the widest key width that fits STATE_BUDGET less
 * `reserved` (what the rest of the state takes: the journal of at-least-once delivery,
 * ../repeats), forgetting first when none does.
 */
export function store(memory: TrackerMemory, notes: Notes, lookBackMs: number, reserved = 0): Json {
	const width = fittingWidth(memory, reserved) ?? forgetToFit(memory, notes, lookBackMs, reserved);
	return encode(memory, width);
}

/** Encodes at the width given (callers first make the memory fit: see fittingWidth). */
export function encode(memory: TrackerMemory, width: number): Json {
	const out: Json = { v: VERSION, k: memory.scope, w: width, t: memory.committedAt };
	const a = memory.articles;
	if (a) {
		out.a = {
			c: a.cursor,
			f: a.floor,
			q: a.quietSince,
			i: packBook(a.inFlight, width),
			s: packGroups(a.seen, width, (seen) => seen),
			...(a.resume ? { r: [a.resume.position, a.resume.floor] } : {}),
		};
	}
	const s = memory.social;
	if (s) {
		const b = s.births;
		out.s = {
			e: s.watched,
			x: s.exact,
			c: s.counts,
			m: packBook(s.followed, width),
			b: packBook(s.single, FULL_KEY),
			g: packBook(s.missing, width),
			n: b.count,
			h: b.watermark,
			o: packGroups(b.known, width, asLabel),
			p: packGroups(b.found, width, asLabel),
			l: b.slack,
			...(b.followedFound.count > 0 ? { f: [b.followedFound.count, b.followedFound.newest] } : {}),
			q: s.scan,
			y: s.passes,
			u: (s.unordered ? 1 : 0) + (s.unstable ? 2 : 0),
			...(b.census ? { z: [b.census.page, b.census.newest, b.census.count, b.census.since] } : {}),
			...(b.hunt ? { d: 1 } : {}),
		};
	}
	return out;
}

/** Reads what was stored; undefined for anything else (not activated yet, or another format). */
export function decode(stored: unknown, scope: string): TrackerMemory | undefined {
	if (typeof stored !== 'object' || stored === null) return undefined;
	const j = stored as Json;
	if (j.v !== VERSION || j.k !== scope) return undefined;
	const width = num(j.w, FULL_KEY);
	if (width < MIN_KEY || width > FULL_KEY) return undefined;
	const memory: TrackerMemory = { scope, committedAt: num(j.t) };
	const a = j.a as Json | undefined;
	if (a && typeof a === 'object' && typeof a.c === 'number') {
		const r = Array.isArray(a.r) ? (a.r as unknown[]) : undefined;
		memory.articles = {
			cursor: a.c,
			floor: num(a.f, a.c),
			quietSince: num(a.q),
			inFlight: unpackBook(a.i, width),
			seen: unpackGroups(a.s, width, true, (seen) => seen),
			resume: r ? { position: num(r[0]), floor: num(r[1]) } : undefined,
		};
	}
	const s = j.s as Json | undefined;
	if (s && typeof s === 'object' && typeof s.n === 'number') {
		const z = Array.isArray(s.z) ? (s.z as unknown[]) : undefined;
		const f = Array.isArray(s.f) ? (s.f as unknown[]) : undefined;
		memory.social = {
			watched: str(s.e),
			exact: str(s.x),
			counts: counts(s.c),
			followed: unpackBook(s.m, width),
			single: unpackBook(s.b, FULL_KEY),
			missing: unpackBook(s.g, width),
			births: {
				count: s.n,
				watermark: num(s.h),
				known: unpackGroups(s.o, width, false, (seen) => seen.label),
				found: unpackGroups(s.p, width, false, (seen) => seen.label),
				slack: num(s.l),
				followedFound: { count: num(f?.[0]), newest: num(f?.[1], -Infinity) },
				census: z
					? { page: num(z[0], 2), newest: num(z[1]), count: num(z[2]), since: num(z[3], Infinity) }
					: undefined,
				hunt: s.d === 1,
			},
			scan: num(s.q, 2),
			passes: num(s.y),
			unordered: (num(s.u) & 1) === 1,
			unstable: (num(s.u) & 2) === 2,
		};
	}
	return memory;
}

/** Host time of the last complete poll recorded in a stored state, if any. */
export function committedAt(stored: unknown): number | undefined {
	const t = typeof stored === 'object' && stored !== null ? (stored as Json).t : undefined;
	return typeof t === 'number' && t > 0 ? t : undefined;
}

// ----- size: the key width, and what is forgotten when no width fits -----

function books(memory: TrackerMemory): Array<Book<unknown>> {
	const a = memory.articles;
	const s = memory.social;
	return [
		...(a ? [a.inFlight, a.seen] : []),
		...(s ? [s.followed, s.missing, s.births.known, s.births.found] : []),
	];
}

/** Characters the books take at a key width (status-code books add one per entry). */
function footprint(memory: TrackerMemory, width: number): number {
	const a = memory.articles;
	const s = memory.social;
	// Books of statuses are stored grouped by status; seen articles carry theirs per entry.
	const coded = (a ? a.seen.size : 0) + 4 * 13;
	const entries = books(memory).reduce((sum, book) => sum + book.size, 0);
	const whole = s ? s.single.size * FULL_KEY : 0;
	const groups =
		(a ? groupCount(a.seen, (e) => e.label) : 0) +
		(s ? groupCount(s.births.known, (label) => label) + groupCount(s.births.found, (l) => l) : 0);
	return entries * width + whole + coded + groups * 20 + 600;
}

function groupCount<V>(book: Book<V>, label: (value: V) => number): number {
	return new Set([...book].map(([, value]) => label(value))).size;
}

/** The widest key that fits the budget (less `reserved`) and every entry has, or undefined. */
function fittingWidth(memory: TrackerMemory, reserved = 0): number | undefined {
	const widest = books(memory).reduce((low, book) => Math.min(low, book.shortest), FULL_KEY);
	for (let width = widest; width >= MIN_KEY; width--) {
		if (footprint(memory, width) + reserved <= STATE_BUDGET) return width;
	}
	return undefined;
}

/** Removes the oldest entries of a book, at most `count`; returns how many went. */
function forget<V>(book: Book<V>, count: number, when: (value: V) => boolean = () => true): number {
	let removed = 0;
	for (const [key, value] of [...book]) {
		if (removed >= count) break;
		if (!when(value)) continue;
		book.delete(key);
		removed++;
	}
	return removed;
}

/** Forgets what must go for the state to fit (see the header), saying so; the key width then. */
function forgetToFit(
	memory: TrackerMemory,
	notes: Notes,
	lookBackMs: number,
	reserved: number,
): number {
	const excess = (m: TrackerMemory) => {
		const over = footprint(m, MIN_KEY) + reserved - STATE_BUDGET;
		return over > 0 ? Math.ceil(over / MIN_KEY) + 1 : 0;
	};
	const a = memory.articles;
	const s = memory.social;
	if (a) {
		forget(a.seen, excess(memory), (seen) => seen.label < a.floor);
		let newestSeen = -Infinity;
		const n = forget(a.seen, excess(memory), (seen) => {
			newestSeen = Math.max(newestSeen, seen.label);
			return true;
		});
		if (n > 0) {
			a.floor = Math.max(a.floor, newestSeen + 1);
			notes.add(`too many article changes to remember: the look-back is shorter for now`);
		}
	}
	if (s && forget(s.followed, excess(memory)) > 0) {
		s.exact = '';
		notes.addUnfollowed();
	}
	if (a && forget(a.inFlight, excess(memory)) > 0) {
		notes.add('too many articles in flight to remember: the oldest are no longer followed');
	}
	let newestForgotten = -Infinity;
	const forgotten = s
		? forget(s.births.known, excess(memory), (label) => {
				newestForgotten = Math.max(newestForgotten, label);
				return true;
			})
		: 0;
	if (s && forgotten > 0) {
		// Unknown recent records must not pass for new ones: births are looked for above them only.
		s.births.watermark = Math.max(s.births.watermark, newestForgotten + lookBackMs);
		notes.add('too many new social records at once: some may go unreported');
	}
	return fittingWidth(memory, reserved) ?? MIN_KEY;
}

// ----- packing -----

/** A book of statuses as { statusCode: keys }: entries of one status share its code. */
function packBook(book: Book<string>, width: number): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, code] of book) out[code] = (out[code] ?? '') + key.slice(0, width);
	return out;
}

function unpackBook(packed: unknown, width: number): Book<string> {
	const book = new Book<string>(width);
	if (typeof packed !== 'object' || packed === null) return book;
	for (const [code, keys] of Object.entries(packed as Record<string, unknown>)) {
		if (code.length !== 1 || typeof keys !== 'string') continue;
		for (let i = 0; i + width <= keys.length; i += width) book.set(keys.slice(i, i + width), code);
	}
	return book;
}

/** Groups keys (with their status code, if any) by label, oldest group first. */
function packGroups<V>(
	book: Book<V>,
	width: number,
	entry: (value: V) => Seen,
): Array<[number, string]> {
	const groups = new Map<number, string>();
	for (const [key, value] of book) {
		const { code, label } = entry(value);
		groups.set(label, (groups.get(label) ?? '') + key.slice(0, width) + code);
	}
	return [...groups].sort((x, y) => x[0] - y[0]);
}

function unpackGroups<V>(
	packed: unknown,
	width: number,
	coded: boolean,
	value: (seen: Seen) => V,
): Book<V> {
	const book = new Book<V>(width);
	if (!Array.isArray(packed)) return book;
	const step = width + (coded ? 1 : 0);
	for (const group of packed) {
		if (!Array.isArray(group) || typeof group[0] !== 'number' || typeof group[1] !== 'string')
			continue;
		const [label, keys] = group as [number, string];
		for (let i = 0; i + step <= keys.length; i += step) {
			book.set(keys.slice(i, i + width), value({ code: coded ? keys[i + width] : '', label }));
		}
	}
	return book;
}

const asLabel = (label: number): Seen => ({ code: '', label });

const num = (value: unknown, fallback = 0) =>
	typeof value === 'number' && Number.isFinite(value) ? value : fallback;
const str = (value: unknown) => (typeof value === 'string' ? value : '');

function counts(value: unknown): Record<string, number> {
	const out: Record<string, number> = {};
	if (typeof value !== 'object' || value === null) return out;
	for (const [code, n] of Object.entries(value as Json)) if (typeof n === 'number') out[code] = n;
	return out;
}
