/**
 * What is forgotten when the memory does not fit the state's budget (./codec measures it) even at
 * MIN_KEY characters a key: the least needed first, and the trigger says so in its notes. Finished
 * articles below the floor, those changed longest ago first (a later move of one between finished
 * statuses goes unreported); then recent ones (the article look-back shrinks to what is
 * remembered); then followed social records (their next change is reported only when they show up
 * in a list again); then pending articles (their completion can go unreported); then recent social
 * records (new ones are then looked for above them only).
 */
import { forgetLeastRecent } from '../learn-articles';
import type { Notes } from '../poll-run';
import { encode, fittingKeyLength, footprint, STATE_BUDGET, type Json } from './codec';
import { MIN_KEY, type RecordMap } from './keys';
import type { TrackerMemory } from './memory';

/**
 * What to store after a poll: the memory at the longest key length that fits STATE_BUDGET less
 * `reserved` (what the rest of the state takes: the journal of at-least-once delivery,
 * ../repeats), forgetting first when none does.
 */
export function store(memory: TrackerMemory, notes: Notes, lookBackMs: number, reserved = 0): Json {
	const keyLength =
		fittingKeyLength(memory, reserved) ?? forgetToFit(memory, notes, lookBackMs, reserved);
	return encode(memory, keyLength);
}

/** Removes the oldest entries of a map, at most `count`; returns how many went. */
function forget<V>(
	map: RecordMap<V>,
	count: number,
	when: (value: V) => boolean = () => true,
): number {
	let removed = 0;
	for (const [key, value] of [...map]) {
		if (removed >= count) break;
		if (!when(value)) continue;
		map.delete(key);
		removed++;
	}
	return removed;
}

/** Forgets what must go for the state to fit, in the header's order, saying so; the key length then. */
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
		if (a.old) forgetLeastRecent(a.old, excess(memory), Infinity);
		forgetLeastRecent(a.seen, excess(memory), a.floor);
		let newestSeen = -Infinity;
		const n = forget(a.seen, excess(memory), (seen) => {
			newestSeen = Math.max(newestSeen, seen.bound);
			return true;
		});
		if (n > 0) {
			a.floor = Math.max(a.floor, newestSeen + 1);
			notes.add(`too many article changes to remember: the look-back is shorter for now`);
		}
	}
	if (s && forget(s.followed, excess(memory)) > 0) {
		s.completeLists = '';
		notes.addUnfollowed();
	}
	if (a && forget(a.pending, excess(memory)) > 0) {
		notes.add('too many articles in flight to remember: the oldest are no longer followed');
	}
	let newestForgotten = -Infinity;
	const forgotten = s
		? forget(s.newRecords.recent, excess(memory), (bound) => {
				newestForgotten = Math.max(newestForgotten, bound);
				return true;
			})
		: 0;
	if (s && forgotten > 0) {
		// Recent records forgotten must not pass for new ones: new ones are looked for above them.
		s.newRecords.newestCreated = Math.max(s.newRecords.newestCreated, newestForgotten + lookBackMs);
		notes.add('too many new social records at once: some may go unreported');
	}
	return fittingKeyLength(memory, reserved) ?? MIN_KEY;
}
