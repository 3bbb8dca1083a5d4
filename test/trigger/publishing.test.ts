/**
 * A social record that comes into `publishing` from a status the trigger does not follow
 * (`failed`, `published`): no list shows `publishing` and no count the trigger reads changes, so
 * when it gets there without a poll seeing it in a followed list, its next move is out of reach
 * (docs/trigger.md, Limits). The month's oracle (harness/trigger/month-run) excuses exactly that
 * case; the same moves spread over two polls are still owed, and reported.
 */
import type { Action, History, Minute } from '../../harness/trigger/month';
import { runMonth } from '../../harness/trigger/month-run';

/** 20 old social records: 16 published, 3 failed (the 17th is the one that moves), 1 completed. */
const SIZE = {
	articles: 0,
	social: 20,
	warmup: 3,
	minutes: 50,
	clockSkewMinutes: 0,
	ids: 'v4' as const,
	stamps: 'ms' as const,
};

// Account.pick: 0.9475 of every record is the 17th (failed); among the two in flight, 0.75 is it.
const regenerate: Action = { do: 'move', kind: 'social', pick: 0.9475, choice: 0.9, skew: 0 };
const move = (choice: number): Action => ({
	do: 'move',
	kind: 'social',
	pick: 0.75,
	choice,
	skew: 0,
});
// Choices among the next statuses: generating -> completed, completed -> publishing,
// publishing -> published.
const toCompleted = move(0.04);
const toPublishing = move(0.1);
const toPublished = move(0.04);

function history(moves: Record<number, Action[]>): History {
	const list: Minute[] = Array.from({ length: SIZE.minutes }, (_, m) => ({
		actions: moves[m] ?? [],
		fault: 'none',
		at: 1,
		during: [],
	}));
	return { ...SIZE, seed: 7, order: 'id', list };
}

const itemsOf = (polls: Array<{ items: string[] }>) => polls.flatMap((p) => p.items);

describe('a social record that comes into publishing from a status not followed', () => {
	it('regenerated and published within one interval: its move to published is out of reach, and excused', async () => {
		const result = await runMonth(
			history({ 5: [regenerate, toCompleted, toPublishing], 10: [toPublished] }),
			'exactlyOnce',
		);
		// The trigger never saw it: no item of it at all.
		expect(itemsOf(result.polls)).toEqual([]);
		expect(result.problems).toEqual([]);
	});

	it('seen in completed at one poll: followed by id, and its move to published is owed and reported', async () => {
		const moves = { 5: [regenerate, toCompleted], 6: [toPublishing], 10: [toPublished] };
		const result = await runMonth(history(moves), 'exactlyOnce');
		expect(result.problems).toEqual([]);
		expect(itemsOf(result.polls).map((item) => item.split(' ')[1])).toEqual([
			'null>completed',
			'completed>publishing',
			'publishing>published',
		]);
		// The excuse is that case only: a trigger that forgets the records it reads by id misses it.
		const forget = (state: Record<string, unknown>) => {
			(state.social as Record<string, unknown>).byId = {};
		};
		const forgetful = await runMonth(history(moves), 'exactlyOnce', SIZE.minutes, forget);
		expect(forgetful.problems).toEqual([
			expect.stringMatching(/missed social \S+ publishing>published/),
		]);
	});
});
