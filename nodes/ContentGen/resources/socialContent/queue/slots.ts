/**
 * The posting queue's calendar, pure: the slots a weekly list of posting times gives in a time zone
 * between two instants, and the first of them with room for a post on each of its platforms.
 *
 * Daylight saving: a slot is a wall-clock time in the zone. On a spring-forward day a posting time
 * inside the skipped hour does not exist and that day has no such slot (the queue does not move it
 * to another hour nobody listed). On a fall-back day a posting time inside the repeated hour exists
 * twice and only its first occurrence is a slot, so no posting time gives two slots on one day.
 */
import type { ZoneClock } from './zone';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Monday is 1, Sunday 7 (ISO 8601). */
export const WEEKDAYS = [
	'Monday',
	'Tuesday',
	'Wednesday',
	'Thursday',
	'Friday',
	'Saturday',
	'Sunday',
] as const;

export interface PostingTime {
	/** 1 (Monday) to 7 (Sunday). */
	weekday: number;
	/** Minutes after midnight, 0 to 1439. */
	minute: number;
}

export interface Slot {
	/** The instant, in UTC milliseconds (always a whole minute). */
	at: number;
	/** The posting time it comes from. */
	time: PostingTime;
	/** Its wall-clock date and time in the zone, YYYY-MM-DDTHH:MM. */
	local: string;
}

/** The weekday (1 to 7) of a wall-ms day. */
export function weekdayOf(wall: number): number {
	return ((new Date(wall).getUTCDay() + 6) % 7) + 1;
}

/** "Monday 09:30". */
export function describeTime({ weekday, minute }: PostingTime): string {
	const hh = String(Math.floor(minute / 60)).padStart(2, '0');
	const mm = String(minute % 60).padStart(2, '0');
	return `${WEEKDAYS[weekday - 1]} ${hh}:${mm}`;
}

/** The posting times once each, in week order. */
export function distinctTimes(times: PostingTime[]): PostingTime[] {
	const seen = new Map<number, PostingTime>();
	for (const time of times) seen.set(time.weekday * 1440 + time.minute, time);
	return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, time]) => time);
}

/** The slots from `from` through `to` (instants), in time order. */
export function* slotsBetween(
	clock: ZoneClock,
	times: PostingTime[],
	from: number,
	to: number,
): Generator<Slot> {
	const week = distinctTimes(times);
	if (week.length === 0 || to < from) return;
	const firstDay = Math.floor(clock.wallOf(from) / DAY_MS) * DAY_MS;
	const lastDay = Math.floor(clock.wallOf(to) / DAY_MS) * DAY_MS;
	for (let day = firstDay; day <= lastDay; day += DAY_MS) {
		const weekday = weekdayOf(day);
		for (const time of week) {
			if (time.weekday !== weekday) continue;
			const wall = day + time.minute * MINUTE_MS;
			// The first occurrence only; none when the wall-clock time is skipped that day.
			const at = clock.instantsOf(wall)[0];
			if (at === undefined || at < from || at > to) continue;
			yield { at, time, local: new Date(wall).toISOString().slice(0, 16) };
		}
	}
}

/** Posts already in each slot, per platform: minute of the slot -> platform -> record ids. */
export type Occupancy = Map<number, Map<string, Set<string>>>;

/** The occupancy key of an instant: a post scheduled within a slot's minute is in that slot. */
export const slotKey = (at: number): number => Math.floor(at / MINUTE_MS);

export interface ScheduledPost {
	id: string;
	at: number;
	platforms: string[];
}

export function occupancyOf(posts: Iterable<ScheduledPost>): Occupancy {
	const occupancy: Occupancy = new Map();
	for (const post of posts) take(occupancy, post);
	return occupancy;
}

/** Counts a post in its slot on each of its platforms (once per record). */
export function take(occupancy: Occupancy, post: ScheduledPost): void {
	const key = slotKey(post.at);
	let slot = occupancy.get(key);
	if (!slot) occupancy.set(key, (slot = new Map()));
	for (const platform of post.platforms) {
		let ids = slot.get(platform);
		if (!ids) slot.set(platform, (ids = new Set()));
		ids.add(post.id);
	}
}

/** Removes a record from every slot (it is being scheduled again). */
export function release(occupancy: Occupancy, id: string): void {
	for (const slot of occupancy.values()) for (const ids of slot.values()) ids.delete(id);
}

/** Posts other than `id` in the slot at `at` on `platform`. */
export function countIn(occupancy: Occupancy, at: number, platform: string, id?: string): number {
	const ids = occupancy.get(slotKey(at))?.get(platform);
	if (!ids) return 0;
	return ids.size - (id !== undefined && ids.has(id) ? 1 : 0);
}

export type Pick = { slot: Slot; full: number } | { slot?: undefined; full: number; slots: number };

/**
 * The first slot where every platform of the post has fewer than `perSlot` posts (the post itself
 * not counted), with how many slots before it were full; or, when none has room, how many slots
 * there were and how many were full.
 */
export function firstFree(
	slots: Iterable<Slot>,
	occupancy: Occupancy,
	post: { id: string; platforms: string[] },
	perSlot: number,
): Pick {
	let full = 0;
	let count = 0;
	for (const slot of slots) {
		count++;
		if (post.platforms.every((p) => countIn(occupancy, slot.at, p, post.id) < perSlot)) {
			return { slot, full };
		}
		full++;
	}
	return { full, slots: count };
}
