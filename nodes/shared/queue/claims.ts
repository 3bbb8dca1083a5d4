/**
 * Claim and verify, pure: after an execution has scheduled its posts, it reads the scheduled list
 * again and keeps a post in its slot only when, on every platform of the post, fewer than "posts
 * per slot" other posts in that slot were scheduled at or before it (the service's `updated_at` of
 * the record, which scheduling sets). A post scheduled at the same instant as another counts the
 * other as earlier, so two posts that tie both move rather than both stay. Whoever schedules later
 * reads the earlier posts (they are in the list before its own read), so of two executions that
 * chose the same slot the later one always sees the slot over its limit and moves.
 */
import { firstFree, occupancyOf, slotKey, take, type Slot } from './slots';

export interface ListedPost {
	id: string;
	at: number;
	platforms: string[];
	/** When the service last changed the record (milliseconds); NaN when it did not say. */
	updatedAt: number;
}

/** Why a post of ours must leave its slot: the platform and how many posts were there first. */
export interface Crowded {
	id: string;
	platform: string;
	before: number;
}

/**
 * Of `ours` (record ids), those that are over `perSlot` in the slot the list shows them in, with the
 * first platform where they are. A post of ours missing from the list is not judged here.
 */
export function crowded(listed: ListedPost[], ours: Iterable<string>, perSlot: number): Crowded[] {
	const bySlot = new Map<number, ListedPost[]>();
	for (const post of listed) {
		const key = slotKey(post.at);
		const list = bySlot.get(key);
		if (list) list.push(post);
		else bySlot.set(key, [post]);
	}
	const byId = new Map(listed.map((post) => [post.id, post]));
	const out: Crowded[] = [];
	for (const id of ours) {
		const mine = byId.get(id);
		if (!mine) continue;
		for (const platform of mine.platforms) {
			const before = (bySlot.get(slotKey(mine.at)) ?? []).filter(
				(other) =>
					other.id !== id &&
					other.platforms.includes(platform) &&
					// Unknown times count as earlier: a post never stays on a guess.
					!(other.updatedAt > mine.updatedAt),
			).length;
			if (before >= perSlot) {
				out.push({ id, platform, before });
				break;
			}
		}
	}
	return out;
}

/**
 * Where every crowded post of the list goes next, decided the same way by every execution that
 * reads the same list: the crowded posts in the order they were scheduled, each to the first slot
 * with room after the posts that stay and those placed before it. An execution moves only its own
 * posts, but counting the others' moves keeps executions that lost the same slots from all moving
 * into the same next one. `slotsFor` gives the slots a post may take (the reader's own settings
 * stand in for other workflows' posts).
 */
export function reassign(
	listed: ListedPost[],
	perSlot: number,
	slotsFor: (post: ListedPost) => Iterable<Slot>,
): Map<string, Slot | undefined> {
	const moving = new Set(
		crowded(
			listed,
			listed.map((post) => post.id),
			perSlot,
		).map((c) => c.id),
	);
	const occupancy = occupancyOf(listed.filter((post) => !moving.has(post.id)));
	const order = listed
		.filter((post) => moving.has(post.id))
		.sort((a, b) => (a.updatedAt || 0) - (b.updatedAt || 0) || (a.id < b.id ? -1 : 1));
	const out = new Map<string, Slot | undefined>();
	for (const post of order) {
		const { slot } = firstFree(slotsFor(post), occupancy, post, perSlot);
		out.set(post.id, slot);
		if (slot) take(occupancy, { id: post.id, at: slot.at, platforms: post.platforms });
	}
	return out;
}
