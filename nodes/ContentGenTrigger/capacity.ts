/**
 * Keeps the stored state under its budget. Keys narrow first (down to MIN_KEY characters); only
 * when that is not enough are records forgotten, least needed first, and the trigger says so:
 * finished articles older than the look-back (memory only), then recent ones (the article
 * look-back shrinks to what is remembered), then followed social records (their next change is
 * reported only when they show up in a list again), then articles in flight (their completion
 * can go unreported), then recent social records (births are then looked for above them only).
 */
import type { Book } from './ids';
import { MIN_KEY } from './ids';
import { fittingWidth, footprint, STATE_BUDGET, type TrackerMemory } from './state';

export const UNFOLLOWED = 'too many social records to follow: the oldest are no longer followed';

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

/**
 * The key width to store with; forgets what must go, noting it in `notes`. `reserved`: characters
 * the rest of the state takes (the journal of at-least-once delivery, ./replay).
 */
export function fit(
	memory: TrackerMemory,
	notes: string[],
	lookBackMs: number,
	reserved = 0,
): number {
	const width = fittingWidth(memory, reserved);
	if (width !== undefined) return width;
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
			notes.push(`too many article changes to remember: the look-back is shorter for now`);
		}
	}
	if (s && forget(s.followed, excess(memory)) > 0) {
		s.exact = '';
		if (!notes.includes(UNFOLLOWED)) notes.push(UNFOLLOWED);
	}
	if (a && forget(a.inFlight, excess(memory)) > 0) {
		notes.push('too many articles in flight to remember: the oldest are no longer followed');
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
		notes.push('too many new social records at once: some may go unreported');
	}
	return fittingWidth(memory, reserved) ?? MIN_KEY;
}
