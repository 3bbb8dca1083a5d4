/**
 * State format 1, written by the first build (fece5e5, the CHANGELOG's 0.1.0): `v: 1`, no time
 * of the last poll. Articles: `a.c` the newest updated_at read, `a.m` every article seen as packed
 * key + status code (23 characters each, oldest first), `a.r` a window still being read. Social:
 * `s.m` the followed records the same way, `s.e` the watched lists, `s.f` those read whole, `s.w`
 * the newest created_at counted and `s.n` the count then, `s.p` births reported since.
 *
 * Everything it holds is carried over. Articles continue from `a.c` exactly as that build would
 * have: everything at or below it was read. Social content keeps its followed records and its
 * count; format 1 kept no list of recent records, so the whole list is read once more (as at
 * activation) to learn them, and meanwhile a record created after `s.w` is new, as it was there.
 */
import { isSocialListStatus } from '../shared/domain/statuses';
import { Book, codeStatus, FULL_KEY } from './ids';
import type { ArticleMemory, Seen, SocialMemory, TrackerMemory } from './state';

type Json = Record<string, unknown>;

const IN_FLIGHT_CODES = 'dq';

/** `[key, code]` pairs of a format-1 map (whole keys, a status letter each). */
function* entries(packed: unknown): Generator<[string, string]> {
	if (typeof packed !== 'string') return;
	for (let i = 0; i + FULL_KEY + 1 <= packed.length; i += FULL_KEY + 1) {
		yield [packed.slice(i, i + FULL_KEY), packed[i + FULL_KEY]];
	}
}

function articles(a: Json, cursor: number): ArticleMemory {
	const inFlight = new Book<string>();
	const seen = new Book<Seen>();
	for (const [key, code] of entries(a.m)) {
		if (IN_FLIGHT_CODES.includes(code)) inFlight.set(key, code);
		else seen.set(key, { code, label: cursor });
	}
	const r = a.r as Json | undefined;
	const resume =
		r && typeof r.p === 'number' && typeof r.c === 'number'
			? { position: r.p, floor: r.c }
			: undefined;
	return { cursor, floor: cursor, quietSince: 0, inFlight, seen, resume };
}

function social(s: Json, watermark: number, count: number, now: number): SocialMemory {
	const followed = new Book<string>();
	const single = new Book<string>();
	for (const [key, code] of entries(s.m)) {
		(isSocialListStatus(codeStatus(code)) ? followed : single).set(key, code);
	}
	// Births already reported: created after the watermark, and before this read.
	const found = new Book<number>();
	const created = Number.isFinite(now) ? now : watermark;
	for (let i = 0; typeof s.p === 'string' && i + FULL_KEY <= s.p.length; i += FULL_KEY) {
		found.set(s.p.slice(i, i + FULL_KEY), created);
	}
	return {
		watched: typeof s.e === 'string' ? s.e : '',
		exact: typeof s.f === 'string' ? s.f : '',
		counts: {},
		followed,
		single,
		missing: new Book(),
		births: {
			count,
			watermark,
			known: new Book(),
			found,
			followedFound: { count: 0, newest: -Infinity },
			slack: 0,
			census: { page: 2, newest: watermark, count, since: watermark },
		},
		scan: 2,
		passes: 0,
		unordered: false,
		unstable: false,
	};
}

/** A format-1 state as today's memory; undefined when it is not one, or made for other filters. */
export function decodeFormat1(stored: Json, scope: string, now: number): TrackerMemory | undefined {
	if (stored.v !== 1 || stored.k !== scope) return undefined;
	const memory: TrackerMemory = { scope, committedAt: 0 };
	const a = stored.a as Json | undefined;
	if (a && typeof a === 'object' && typeof a.c === 'number') memory.articles = articles(a, a.c);
	const s = stored.s as Json | undefined;
	if (s && typeof s === 'object' && typeof s.w === 'number' && typeof s.n === 'number')
		memory.social = social(s, s.w, s.n, now);
	return memory;
}
