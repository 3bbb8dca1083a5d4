/**
 * What a stored state is to this build. It decodes the current format (./codec) and format 1
 * (below). Any other one, older or newer, is not decoded field by field: every format keeps `v`
 * and `t` (the n8n host's time of the last complete poll) at the top, so the trigger starts again
 * and reports the changes since `t` (../catchup), then relearns the account as at activation. An
 * older format's keys are not this build's (format 2 cut ids to prefixes of the UUID itself), and
 * a newer one's (a downgrade) is unknown: either way nothing of the update window is lost, and a
 * newer one is named in n8n's log rather than silently replaced.
 */
import { isSocialListStatus } from '../../../shared/domain/statuses';
import { decode, VERSION } from './codec';
import { RecordMap, codeStatus, FULL_KEY, plainKeyToKey } from './keys';
import type { ArticleMemory, Seen, SocialMemory, TrackerMemory } from './memory';

/** The formats this build decodes. */
export const FORMATS_READ: readonly number[] = [1, VERSION];

export type Stored =
	/** Nothing stored: never activated, or n8n kept no state (see ../../starts). */
	| { kind: 'none' }
	| { kind: 'read'; format: number; memory: TrackerMemory }
	/** Another format than those decoded: caught up from its time `t`, when it has one. */
	| { kind: 'foreign'; format: number; committedAt: number | undefined }
	/** Made for other filters, or not a state at all: the trigger starts again. */
	| { kind: 'other' };

type Json = Record<string, unknown>;

/** `now`: host time of this poll. */
export function readStored(stored: unknown, scope: string, now: number): Stored {
	if (stored === undefined || stored === null) return { kind: 'none' };
	if (typeof stored !== 'object') return { kind: 'other' };
	const j = stored as Json;
	if (!('v' in j)) return Object.keys(j).length === 0 ? { kind: 'none' } : { kind: 'other' };
	const format = j.v;
	if (typeof format !== 'number' || !Number.isInteger(format)) return { kind: 'other' };
	if (!FORMATS_READ.includes(format)) {
		if (typeof j.k === 'string' && j.k !== scope) return { kind: 'other' };
		return { kind: 'foreign', format, committedAt: committedAt(j) };
	}
	const memory = format === 1 ? decodeFormat1(j, scope, now) : decode(j, scope);
	return memory ? { kind: 'read', format, memory } : { kind: 'other' };
}

/** Host time of the last complete poll recorded in a stored state of any format, if any. */
export function committedAt(stored: unknown): number | undefined {
	const t = typeof stored === 'object' && stored !== null ? (stored as Json).t : undefined;
	return typeof t === 'number' && t > 0 ? t : undefined;
}

const readable = () =>
	`${FORMATS_READ.slice(0, -1).join(', ')} and ${FORMATS_READ[FORMATS_READ.length - 1]}`;

/** What n8n's log says about the stored state, when it is not this build's own. */
export function storedNotice(stored: Stored): { warn?: string; info?: string } {
	if (stored.kind === 'read' && stored.format !== VERSION) {
		return {
			info: `ContentGen Trigger: read the state saved by an earlier version of this package (state format ${stored.format}) and continues from it; it is saved in format ${VERSION} from now on`,
		};
	}
	if (stored.kind !== 'foreign') return {};
	const since = stored.committedAt && new Date(stored.committedAt).toISOString();
	if (stored.format < VERSION && since) {
		return {
			info: `ContentGen Trigger: the saved state is state format ${stored.format}, written by an earlier version of this package. It starts again and reports every change since that version's last poll (${since}), with the status each left unknown; the account is learnt anew over the next polls, as at activation. It is saved in format ${VERSION} from now on.`,
		};
	}
	const found = `ContentGen Trigger: the saved state is state format ${stored.format}, written by ${stored.format > VERSION ? 'a newer' : 'another'} version of n8n-nodes-contentgen; this version reads formats ${readable()}.`;
	if (since === undefined) {
		return {
			warn: `${found} It starts again from now: the changes made since that version's last poll are not reported. List recent content with the ContentGen node (Get Many) if they matter.`,
		};
	}
	return {
		warn: `${found} It starts again and reports every change since that version's last poll (${since}) once more: nothing is lost, some may repeat.`,
	};
}

// ----- format 1 -----

/**
 * State format 1, written by the first build (fece5e5, the CHANGELOG's 0.1.0): `v: 1`, no time
 * of the last poll. Articles: `a.c` the newest updated_at read, `a.m` every article seen as packed
 * key + status code (23 characters each, oldest first), `a.r` a window still being read. Social:
 * `s.m` the followed records the same way, `s.e` the followed lists, `s.f` those read whole, `s.w`
 * the newest created_at counted and `s.n` the count then, `s.p` new records reported since.
 *
 * Its keys were the UUID itself in base64url, always whole: each is turned into this build's key.
 * Everything it holds is carried over. Articles continue from `a.c` exactly as that build would
 * have: everything at or below it was read. Social content keeps its followed records and its
 * count; format 1 kept no list of recent records, so the whole list is read once more (as at
 * activation) to learn them, and meanwhile a record created after `s.w` is new, as it was there.
 */
const PENDING_CODES = 'dq';

/** `[key, code]` pairs of a format-1 map (whole keys, a status letter each). */
function entries(packed: unknown): Array<[string, string]> {
	const out: Array<[string, string]> = [];
	if (typeof packed !== 'string') return out;
	for (let i = 0; i + FULL_KEY + 1 <= packed.length; i += FULL_KEY + 1) {
		out.push([plainKeyToKey(packed.slice(i, i + FULL_KEY)), packed[i + FULL_KEY]]);
	}
	return out;
}

function format1Articles(a: Json, cursor: number): ArticleMemory {
	const pending = new RecordMap<string>();
	const seen = new RecordMap<Seen>();
	for (const [key, code] of entries(a.m)) {
		if (PENDING_CODES.includes(code)) pending.set(key, code);
		else seen.set(key, { code, bound: cursor });
	}
	const r = a.r as Json | undefined;
	const unread =
		r && typeof r.p === 'number' && typeof r.c === 'number'
			? { position: r.p, floor: r.c }
			: undefined;
	return { cursor, floor: cursor, quietSince: 0, pending, seen, unread };
}

function format1Social(s: Json, newestCreated: number, count: number, now: number): SocialMemory {
	const followed = new RecordMap<string>();
	const byId = new RecordMap<string>();
	for (const [key, code] of entries(s.m)) {
		(isSocialListStatus(codeStatus(code)) ? followed : byId).set(key, code);
	}
	// New records already reported: created after `s.w`, and before this read.
	const reported = new RecordMap<number>();
	const created = Number.isFinite(now) ? now : newestCreated;
	for (let i = 0; typeof s.p === 'string' && i + FULL_KEY <= s.p.length; i += FULL_KEY) {
		reported.set(plainKeyToKey(s.p.slice(i, i + FULL_KEY)), created);
	}
	return {
		followedLists: typeof s.e === 'string' ? s.e : '',
		completeLists: typeof s.f === 'string' ? s.f : '',
		listCounts: {},
		followed,
		byId,
		missing: new RecordMap(),
		newRecords: {
			count,
			newestCreated,
			recent: new RecordMap(),
			reported,
			reportedFollowed: { count: 0, newest: -Infinity },
			uncertain: 0,
			learning: { page: 2, newest: newestCreated, count, since: newestCreated },
		},
		searchPage: 2,
		passes: 0,
		notNewestFirst: false,
		reorders: false,
	};
}

/** A format-1 state as today's memory; undefined when it is not one, or made for other filters. */
export function decodeFormat1(stored: Json, scope: string, now: number): TrackerMemory | undefined {
	if (stored.v !== 1 || stored.k !== scope) return undefined;
	const memory: TrackerMemory = { scope, committedAt: 0 };
	const a = stored.a as Json | undefined;
	if (a && typeof a === 'object' && typeof a.c === 'number')
		memory.articles = format1Articles(a, a.c);
	const s = stored.s as Json | undefined;
	if (s && typeof s === 'object' && typeof s.w === 'number' && typeof s.n === 'number')
		memory.social = format1Social(s, s.w, s.n, now);
	return memory;
}
