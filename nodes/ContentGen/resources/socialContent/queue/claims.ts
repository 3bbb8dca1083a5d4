/**
 * Claim and verify, pure: after an execution has scheduled its posts, it reads the scheduled list
 * again and keeps a post in its slot only when, on every platform of the post, fewer than "posts
 * per slot" posts of that slot come before it in one order every reader computes alike from the
 * list: the service's `updated_at` of the record (which scheduling sets; unknown counts as
 * earliest), then the record id. Ties on `updated_at` (a service that stamps whole seconds) are so
 * broken the same way by every execution, and exactly the posts over the limit move. Whoever
 * schedules later reads the earlier posts (they are in the list before its own read), so of two
 * executions that chose the same slot the later one always sees the slot over its limit and moves.
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

/** The order of the posts of a slot: `updated_at` (unknown first), then the id. */
export function earlier(a: ListedPost, b: ListedPost): number {
	const at = (post: ListedPost) => (Number.isNaN(post.updatedAt) ? -Infinity : post.updatedAt);
	return at(a) - at(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
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
					other.id !== id && other.platforms.includes(platform) && earlier(other, mine) < 0,
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
 * reads the same list: the crowded posts in the slot order above, each to the first slot with room
 * after the posts that stay and those placed before it, never the slot it leaves. An execution
 * moves only its own posts, but counting the others' moves keeps executions that lost the same
 * slots from all moving into the same next one. `slotsFor` gives the slots a post may take (the reader's own settings
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
	const order = listed.filter((post) => moving.has(post.id)).sort(earlier);
	const out = new Map<string, Slot | undefined>();
	for (const post of order) {
		const { slot } = firstFree(elsewhere(slotsFor(post), post.at), occupancy, post, perSlot);
		out.set(post.id, slot);
		if (slot) take(occupancy, { id: post.id, at: slot.at, platforms: post.platforms });
	}
	return out;
}

/** The slots but the one an instant is in. */
function* elsewhere(slots: Iterable<Slot>, at: number): Generator<Slot> {
	for (const slot of slots) if (slotKey(slot.at) !== slotKey(at)) yield slot;
}

/**
 * How many posts the slot of `id` holds on its first platform where they are over `perSlot`, the
 * post itself included; undefined when none is.
 */
export function overFull(
	listed: ListedPost[],
	id: string,
	perSlot: number,
): { platform: string; count: number } | undefined {
	const mine = listed.find((post) => post.id === id);
	if (!mine) return undefined;
	for (const platform of mine.platforms) {
		const count = listed.filter(
			(post) => slotKey(post.at) === slotKey(mine.at) && post.platforms.includes(platform),
		).length;
		if (count > perSlot) return { platform, count };
	}
	return undefined;
}

/**
 * Whether a post of an over-full slot shares its `updated_at` with a post the order puts after it.
 * Their order then comes from the ids, not from when they were scheduled: the other post's
 * execution may have read the list back before this one was listed, and keep its post.
 */
export function tiedAfter(listed: ListedPost[], id: string, perSlot: number): boolean {
	const mine = listed.find((post) => post.id === id);
	const shared = overFull(listed, id, perSlot);
	if (!mine || !shared) return false;
	return listed.some(
		(post) =>
			slotKey(post.at) === slotKey(mine.at) &&
			post.platforms.includes(shared.platform) &&
			(post.updatedAt === mine.updatedAt ||
				(Number.isNaN(post.updatedAt) && Number.isNaN(mine.updatedAt))) &&
			earlier(mine, post) < 0,
	);
}
