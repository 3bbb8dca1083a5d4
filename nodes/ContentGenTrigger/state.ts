/**
 * The tracker's memory between polls. Code reads named fields; what n8n stores (the node's
 * static data, as JSON) uses one-letter keys and packed ids. Every book of record keys shares one
 * key width, chosen when encoding so that the whole stays under STATE_BUDGET characters.
 */
import { Book, FULL_KEY, MIN_KEY } from './ids';

export const STATE_BUDGET = 60_000;
/** The format written: `v` and `t` stay top-level in every format (./stored says why). */
export const VERSION = 2;

/** Entries of a labelled book carry the time of their group: an upper bound of their own. */
export type Labelled = Book<number>;

/** A finished article: its status code and the newest updated_at of the poll that saw it. */
export interface Seen {
	code: string;
	label: number;
}

export interface ArticleMemory {
	/** Newest updated_at accepted, never ahead of the n8n host's clock (epoch ms). */
	cursor: number;
	/** Changes stamped at or after it are (re-)read; everything below is done. */
	floor: number;
	/** Host time of the last poll that read something new: a quiet look-back closes. */
	quietSince: number;
	/** Every article in draft or queued, key -> status code. */
	inFlight: Book<string>;
	/** Finished articles seen, oldest first. */
	seen: Book<Seen>;
	/** A window too long for one poll: its unread band starts at this list position. */
	resume?: { position: number; floor: number };
}

export interface Census {
	/** Next page of the whole list to read. */
	page: number;
	/** Newest created_at read so far. */
	newest: number;
	/** Record count when the read started. */
	count: number;
	/** The service's clock at activation: a record created after it is new, not one to learn. */
	since: number;
}

export interface BirthMemory {
	/** Records counted at the baseline. */
	count: number;
	/** Newest created_at at the baseline, never ahead of the host's clock. */
	watermark: number;
	/** Records created within the look-back of the watermark (key -> a bound above its created_at). */
	known: Labelled;
	/** Births reported since the baseline that are not followed. */
	found: Labelled;
	/** Births reported since the baseline that are followed (the followed books hold their keys). */
	followedFound: { count: number; newest: number };
	/** Births of the activation read that it may have taken for existing records. */
	slack: number;
	/** Set while the whole list is being read to learn the newest record. */
	census?: Census;
	/** The count fell: births may hide behind the loss, so a whole pass looks for them. */
	hunt?: boolean;
}

export interface SocialMemory {
	/** Status codes of the lists followed. */
	watched: string;
	/** Codes of the watched lists whose members were all known at the last poll. */
	exact: string;
	/** Each watched list's count when its members were last all accounted for, by status code. */
	counts: Record<string, number>;
	/** Records in the followed lists, key -> status code. */
	followed: Book<string>;
	/** Records in a status no list filter accepts (`publishing`), fetched one by one: whole keys. */
	single: Book<string>;
	/** Followed records that left the watched lists and have not been found yet. */
	missing: Book<string>;
	births: BirthMemory;
	/** Next page of the whole list to search, and full passes without finding what was missing. */
	scan: number;
	passes: number;
	/** Once the list proved not to be newest first, the search stops relying on page 1. */
	unordered: boolean;
	/** Once its order proved to move between requests, a whole read must fit in one poll. */
	unstable: boolean;
}

export interface TrackerMemory {
	scope: string;
	/** Host time of the last poll that completed (epoch ms). */
	committedAt: number;
	articles?: ArticleMemory;
	social?: SocialMemory;
}

type Json = Record<string, unknown>;

function books(memory: TrackerMemory): Array<Book<unknown>> {
	const a = memory.articles;
	const s = memory.social;
	return [
		...(a ? [a.inFlight, a.seen] : []),
		...(s ? [s.followed, s.missing, s.births.known, s.births.found] : []),
	];
}

/** Characters the books take at a key width (status-code books add one per entry). */
export function footprint(memory: TrackerMemory, width: number): number {
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
export function fittingWidth(memory: TrackerMemory, reserved = 0): number | undefined {
	const widest = books(memory).reduce((low, book) => Math.min(low, book.shortest), FULL_KEY);
	for (let width = widest; width >= MIN_KEY; width--) {
		if (footprint(memory, width) + reserved <= STATE_BUDGET) return width;
	}
	return undefined;
}

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
