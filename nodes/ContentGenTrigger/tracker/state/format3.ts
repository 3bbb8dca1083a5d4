/**
 * What a state of format 3 (ids packed into keys, statuses as letters) says about records: which
 * ones it held, in which status. Its catch-up (../catchup) reads every change since a minute before
 * its time; a record it held in the status the record still has was reported already (or was
 * edited only), so it is not reported again.
 */
type Json = Record<string, unknown>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Keys of finished articles below the floor were 9 characters, whatever the state's width. */
const OLD_KEY = 9;
const LETTERS: Record<string, string> = {
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
	publishing: 'u',
};

/** murmur3's finaliser, and the four Feistel rounds format 3 mixed the id's 128 bits with. */
function fmix(h: number): number {
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return (h ^ (h >>> 16)) >>> 0;
}

function packId(id: string): string | undefined {
	const hex = id.replace(/-/g, '');
	if (!/^[0-9a-f]{32}$/i.test(hex)) return undefined;
	let [l0, l1, r0, r1] = [0, 8, 16, 24].map((i) => parseInt(hex.slice(i, i + 8), 16));
	for (const k of [0x9e3779b9, 0x7f4a7c15, 0x3c6ef372, 0xdaa66d2b]) {
		const x = fmix(r0 ^ k);
		const y = fmix(r1 ^ x);
		[l0, l1, r0, r1] = [r0, r1, (l0 ^ fmix(x ^ y ^ k)) >>> 0, (l1 ^ y) >>> 0];
	}
	const bytes = [l0, l1, r0, r1].flatMap((w) => [
		w >>> 24,
		(w >>> 16) & 255,
		(w >>> 8) & 255,
		w & 255,
	]);
	let out = '';
	for (let i = 0; i < 16; i += 3) {
		const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
		out += [18, 12, 6, 0].map((shift) => ALPHABET[(n >> shift) & 63]).join('');
	}
	return out.slice(0, 22);
}

/** `id` -> whether the state held it in `status`; undefined when the state is not format 3. */
export function heldBy(stored: Json): ((id: string, status: string) => boolean) | undefined {
	const width = stored.w;
	if (stored.v !== 3 || typeof width !== 'number') return undefined;
	const held = new Set<string>();
	const byLetter = (map: unknown) => {
		for (const [letter, keys] of Object.entries((map ?? {}) as Json))
			for (let i = 0; typeof keys === 'string' && i < keys.length; i += width)
				held.add(keys.slice(i, i + width) + letter);
	};
	const grouped = (groups: unknown, w: number) => {
		for (const [, keys] of Array.isArray(groups) ? (groups as unknown[][]) : [])
			for (let i = 0; typeof keys === 'string' && i < keys.length; i += w + 1)
				held.add(keys.slice(i, i + w + 1));
	};
	const { a, s } = stored as { a?: Json; s?: Json };
	byLetter(a?.i);
	grouped(a?.s, width);
	grouped(a?.o, OLD_KEY);
	for (const map of [s?.m, s?.b, s?.g]) byLetter(map);
	return (id, status) => {
		const key = packId(id);
		const letter = LETTERS[status];
		if (!key || !letter) return false;
		return held.has(key.slice(0, width) + letter) || held.has(key.slice(0, OLD_KEY) + letter);
	};
}
