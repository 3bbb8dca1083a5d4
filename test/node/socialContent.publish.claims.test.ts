/**
 * The queue's claim and verify, pure: every reader of one list orders the posts of a slot alike
 * (updated_at, then the id), so ties on updated_at (a service stamping whole seconds) move exactly
 * the posts over Posts per Slot, each once, and never into the slot they leave.
 */
import {
	crowded,
	reassign,
	tiedAfter,
	type ListedPost,
} from '../../nodes/ContentGen/resources/socialContent/queue/claims';
import type { Slot } from '../../nodes/ContentGen/resources/socialContent/queue/slots';

const MONDAY = Date.parse('2026-11-30T09:00:00Z');
const TUESDAY = Date.parse('2026-12-01T09:00:00Z');
const WEDNESDAY = Date.parse('2026-12-02T09:00:00Z');
const SECOND = Date.parse('2026-11-27T12:00:00Z');

const slot = (at: number): Slot => ({
	at,
	time: { weekday: 1, minute: 540 },
	local: new Date(at).toISOString().slice(0, 16),
});
const SLOTS = [slot(MONDAY), slot(TUESDAY), slot(WEDNESDAY)];

const post = (id: string, at: number, updatedAt: number, platforms = ['linkedin']): ListedPost => ({
	id,
	at,
	platforms,
	updatedAt,
});

const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const C = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

describe('ties on updated_at', () => {
	it('two posts of one second in a slot of one: only the later id is crowded, whoever reads', () => {
		const listed = [post(B, MONDAY, SECOND), post(A, MONDAY, SECOND)];
		expect(crowded(listed, [A], 1)).toEqual([]);
		expect(crowded(listed, [B], 1)).toEqual([{ id: B, platform: 'linkedin', before: 1 }]);
		expect(crowded([...listed].reverse(), [A, B], 1).map((c) => c.id)).toEqual([B]);
	});

	it('reassign moves exactly the posts over the limit, to the next free slots, never back', () => {
		const listed = [post(C, MONDAY, SECOND), post(A, MONDAY, SECOND), post(B, MONDAY, SECOND)];
		const moves = reassign(listed, 1, () => SLOTS);
		expect([...moves.entries()].map(([id, s]) => [id, s?.at])).toEqual([
			[B, TUESDAY],
			[C, WEDNESDAY],
		]);
		expect(reassign([...listed].reverse(), 1, () => SLOTS)).toEqual(moves);
	});

	it('a post over the limit on one platform does not come back when the post before it leaves on another', () => {
		// A stays on linkedin; B is over on linkedin; A is over on twitter behind C. Neither returns.
		const listed = [
			post(C, MONDAY, SECOND - 1000, ['twitter']),
			post(A, MONDAY, SECOND, ['linkedin', 'twitter']),
			post(B, MONDAY, SECOND, ['linkedin']),
		];
		const moves = reassign(listed, 1, () => SLOTS);
		expect([...moves.keys()].sort()).toEqual([A, B]);
		for (const s of moves.values()) expect(s?.at).not.toBe(MONDAY);
	});

	it('an unknown updated_at counts as earliest: the post never stays on a guess', () => {
		const listed = [post(A, MONDAY, SECOND), post(B, MONDAY, NaN)];
		expect(crowded(listed, [A, B], 1).map((c) => c.id)).toEqual([A]);
	});

	it('tiedAfter: the post first by id in an over-full slot knows its order came from the ids', () => {
		const listed = [post(A, MONDAY, SECOND), post(B, MONDAY, SECOND), post(C, TUESDAY, SECOND)];
		expect(tiedAfter(listed, A, 1)).toBe(true);
		expect(tiedAfter(listed, B, 1)).toBe(false);
		expect(tiedAfter(listed, A, 2)).toBe(false);
		expect(tiedAfter([post(A, MONDAY, SECOND), post(B, MONDAY, SECOND + 1000)], A, 1)).toBe(false);
		// A service that gives no updated_at: every order comes from the ids.
		expect(tiedAfter([post(A, MONDAY, NaN), post(B, MONDAY, NaN)], A, 1)).toBe(true);
	});
});
