/**
 * The stored state: the memory (./memory) encoded as n8n keeps it in the node's static data (JSON:
 * one-letter keys, packed ids; ./README.md gives every key), decoded, and measured against
 * STATE_BUDGET characters. Every map of record keys shares one key length: the longest that fits.
 * What is forgotten when even MIN_KEY characters do not fit is ./forget's choice.
 */
import { RecordMap, FULL_KEY, MIN_KEY, OLD_KEY } from './keys';
import type { Seen, TrackerMemory } from './memory';

export const STATE_BUDGET = 60_000;
/** The format written (3: keys of the mixed id, ./keys); `v` and `t` stay top-level (./formats). */
export const VERSION = 3;

export type Json = Record<string, unknown>;

/** Encodes at the key length given (callers first make the memory fit: see fittingKeyLength). */
export function encode(memory: TrackerMemory, keyLength: number): Json {
	const out: Json = { v: VERSION, k: memory.scope, w: keyLength, t: memory.committedAt };
	const a = memory.articles;
	if (a) {
		out.a = {
			c: a.cursor,
			f: a.floor,
			q: a.quietSince,
			i: packByStatus(a.pending, keyLength),
			s: packGroups(a.seen, keyLength, (seen) => seen),
			...(a.unread ? { r: [a.unread.position, a.unread.floor] } : {}),
			...(a.learn !== undefined ? { l: a.learn } : {}),
			...(a.old ? { o: packGroups(a.old, OLD_KEY, (seen) => seen) } : {}),
		};
	}
	const s = memory.social;
	if (s) {
		const b = s.newRecords;
		out.s = {
			e: s.followedLists,
			x: s.completeLists,
			c: s.listCounts,
			m: packByStatus(s.followed, keyLength),
			b: packByStatus(s.byId, FULL_KEY),
			g: packByStatus(s.missing, keyLength),
			n: b.count,
			h: b.newestCreated,
			o: packGroups(b.recent, keyLength, asBound),
			p: packGroups(b.reported, keyLength, asBound),
			l: b.uncertain,
			...(b.reportedFollowed.count > 0
				? { f: [b.reportedFollowed.count, b.reportedFollowed.newest] }
				: {}),
			q: s.searchPage,
			y: s.passes,
			u: (s.notNewestFirst ? 1 : 0) + (s.reorders ? 2 : 0),
			...(b.learning
				? { z: [b.learning.page, b.learning.newest, b.learning.count, b.learning.since] }
				: {}),
			...(b.hiddenByLoss ? { d: 1 } : {}),
		};
	}
	return out;
}

/** Reads what was stored; undefined for anything else (not activated yet, or another format). */
export function decode(stored: unknown, scope: string): TrackerMemory | undefined {
	if (typeof stored !== 'object' || stored === null) return undefined;
	const j = stored as Json;
	if (j.v !== VERSION || j.k !== scope) return undefined;
	const keyLength = num(j.w, FULL_KEY);
	if (keyLength < MIN_KEY || keyLength > FULL_KEY) return undefined;
	const memory: TrackerMemory = { scope, committedAt: num(j.t) };
	const a = j.a as Json | undefined;
	if (a && typeof a === 'object' && typeof a.c === 'number') {
		const r = Array.isArray(a.r) ? (a.r as unknown[]) : undefined;
		memory.articles = {
			cursor: a.c,
			floor: num(a.f, a.c),
			quietSince: num(a.q),
			pending: unpackByStatus(a.i, keyLength),
			seen: unpackGroups(a.s, keyLength, true, (seen) => seen),
			unread: r ? { position: num(r[0]), floor: num(r[1]) } : undefined,
			learn: typeof a.l === 'number' ? a.l : undefined,
			old: unpackGroups(a.o, OLD_KEY, true, (seen) => seen),
		};
	}
	const s = j.s as Json | undefined;
	if (s && typeof s === 'object' && typeof s.n === 'number') {
		const z = Array.isArray(s.z) ? (s.z as unknown[]) : undefined;
		const f = Array.isArray(s.f) ? (s.f as unknown[]) : undefined;
		memory.social = {
			followedLists: str(s.e),
			completeLists: str(s.x),
			listCounts: counts(s.c),
			followed: unpackByStatus(s.m, keyLength),
			byId: unpackByStatus(s.b, FULL_KEY),
			missing: unpackByStatus(s.g, keyLength),
			newRecords: {
				count: s.n,
				newestCreated: num(s.h),
				recent: unpackGroups(s.o, keyLength, false, (seen) => seen.bound),
				reported: unpackGroups(s.p, keyLength, false, (seen) => seen.bound),
				uncertain: num(s.l),
				reportedFollowed: { count: num(f?.[0]), newest: num(f?.[1], -Infinity) },
				learning: z
					? { page: num(z[0], 2), newest: num(z[1]), count: num(z[2]), since: num(z[3], Infinity) }
					: undefined,
				hiddenByLoss: s.d === 1,
			},
			searchPage: num(s.q, 2),
			passes: num(s.y),
			notNewestFirst: (num(s.u) & 1) === 1,
			reorders: (num(s.u) & 2) === 2,
		};
	}
	return memory;
}

// ----- size: the key length that fits -----

function maps(memory: TrackerMemory): Array<RecordMap<unknown>> {
	const a = memory.articles;
	const s = memory.social;
	return [
		...(a ? [a.pending, a.seen] : []),
		...(s ? [s.followed, s.missing, s.newRecords.recent, s.newRecords.reported] : []),
	];
}

/** Characters the maps take at a key length (status-code maps add one per entry). */
export function footprint(memory: TrackerMemory, keyLength: number): number {
	const a = memory.articles;
	const s = memory.social;
	// Maps of statuses are stored grouped by status; seen articles carry theirs per entry.
	const coded = (a ? a.seen.size : 0) + 4 * 13;
	const entries = maps(memory).reduce((sum, map) => sum + map.size, 0);
	const whole = s ? s.byId.size * FULL_KEY : 0;
	const n = s?.newRecords;
	const groups =
		(a ? groupCount(a.seen, (e) => e.bound) : 0) +
		(n ? groupCount(n.recent, (b) => b) + groupCount(n.reported, (b) => b) : 0);
	return entries * keyLength + whole + coded + groups * 20 + oldSize(a?.old) + 600;
}

function groupCount<V>(map: RecordMap<V>, bound: (value: V) => number): number {
	return new Set([...map].map(([, value]) => bound(value))).size;
}

/** The longest key that fits the budget (less `reserved`) and every entry has, or undefined. */
export function fittingKeyLength(memory: TrackerMemory, reserved = 0): number | undefined {
	const longest = maps(memory).reduce((low, map) => Math.min(low, map.shortest), FULL_KEY);
	for (let keyLength = longest; keyLength >= MIN_KEY; keyLength--) {
		if (footprint(memory, keyLength) + reserved <= STATE_BUDGET) return keyLength;
	}
	return undefined;
}

/** Characters the old articles take stored: a key and a status letter each, a group a day. */
function oldSize(old: RecordMap<Seen> | undefined): number {
	if (!old) return 0;
	return old.size * (OLD_KEY + 1) + new Set([...old].map(([, e]) => e.bound)).size * 20;
}

// ----- packing -----

/** A map of statuses as { statusCode: keys }: entries of one status share its code. */
function packByStatus(map: RecordMap<string>, keyLength: number): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, code] of map) out[code] = (out[code] ?? '') + key.slice(0, keyLength);
	return out;
}

function unpackByStatus(packed: unknown, keyLength: number): RecordMap<string> {
	const map = new RecordMap<string>(keyLength);
	if (typeof packed !== 'object' || packed === null) return map;
	for (const [code, keys] of Object.entries(packed as Record<string, unknown>)) {
		if (code.length !== 1 || typeof keys !== 'string') continue;
		for (let i = 0; i + keyLength <= keys.length; i += keyLength)
			map.set(keys.slice(i, i + keyLength), code);
	}
	return map;
}

/** Groups keys (with their status code, if any) by bound, oldest group first. */
function packGroups<V>(
	map: RecordMap<V>,
	keyLength: number,
	entry: (value: V) => Seen,
): Array<[number, string]> {
	const groups = new Map<number, string>();
	for (const [key, value] of map) {
		const { code, bound } = entry(value);
		groups.set(bound, (groups.get(bound) ?? '') + key.slice(0, keyLength) + code);
	}
	return [...groups].sort((x, y) => x[0] - y[0]);
}

function unpackGroups<V>(
	packed: unknown,
	keyLength: number,
	coded: boolean,
	value: (seen: Seen) => V,
): RecordMap<V> {
	const map = new RecordMap<V>(keyLength);
	if (!Array.isArray(packed)) return map;
	const step = keyLength + (coded ? 1 : 0);
	for (const group of packed) {
		if (!Array.isArray(group) || typeof group[0] !== 'number' || typeof group[1] !== 'string')
			continue;
		const [bound, keys] = group as [number, string];
		for (let i = 0; i + step <= keys.length; i += step) {
			const code = coded ? keys[i + keyLength] : '';
			map.set(keys.slice(i, i + keyLength), value({ code, bound }));
		}
	}
	return map;
}

const asBound = (bound: number): Seen => ({ code: '', bound });
const num = (value: unknown, fallback = 0) =>
	typeof value === 'number' && Number.isFinite(value) ? value : fallback;
const str = (value: unknown) => (typeof value === 'string' ? value : '');

function counts(value: unknown): Record<string, number> {
	const out: Record<string, number> = {};
	if (typeof value !== 'object' || value === null) return out;
	for (const [code, n] of Object.entries(value as Json)) if (typeof n === 'number') out[code] = n;
	return out;
}
