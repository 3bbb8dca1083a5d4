/**
 * The smallest history that still fails, from a failing month (./month, ./month-run): the minutes
 * after the first problem's reach are cut, then faults and actions are taken out, halves first,
 * then smaller pieces, keeping each cut that still fails. Bounded by `runs` replays.
 */
import type { History, Minute } from './month';
import { LATE, runMonth, type Delivery } from './month-run';

export interface Shrunk {
	history: History;
	minutes: number;
	problems: string[];
	runs: number;
}

/** A history as a reader replays it: the seed, the order, and the minutes that do something. */
export function describe(shrunk: Shrunk, delivery: Delivery): string {
	const { history } = shrunk;
	const busy = history.list
		.map((minute, index) => ({ index, ...minute }))
		.filter((m, i) => i < shrunk.minutes && (m.actions.length > 0 || m.fault !== 'none'));
	return [
		`seed ${history.seed}, ${history.order} social order, ${delivery}, ${shrunk.minutes} minutes (${shrunk.runs} replays to shrink):`,
		...busy.map(
			(m) =>
				`  minute ${m.index}: ${m.fault === 'none' ? '' : `${m.fault} after ${m.at} requests${m.during.length ? ` ${JSON.stringify(m.during)}` : ''}; `}${JSON.stringify(m.actions)}`,
		),
		...shrunk.problems.map((p) => `  -> ${p}`),
	].join('\n');
}

export async function shrink(
	history: History,
	delivery: Delivery,
	firstBad: number,
	runs = 40,
): Promise<Shrunk> {
	let best: Shrunk = { history, minutes: history.list.length, problems: [], runs: 0 };
	let used = 0;
	const fails = async (candidate: History, minutes: number): Promise<boolean> => {
		if (used >= runs) return false;
		used++;
		const result = await runMonth(candidate, delivery, minutes);
		if (result.problems.length === 0) return false;
		best = { history: candidate, minutes, problems: result.problems.slice(0, 3), runs: used };
		return true;
	};
	// The first problem is judged within LATE polls of it, with margin for failed polls.
	const cut = Math.min(history.list.length, firstBad + 2 * LATE + 2);
	if (!(await fails(history, cut))) await fails(history, history.list.length);
	const edit = (change: (list: Minute[]) => Minute[]): History => ({
		...best.history,
		list: change(best.history.list),
	});
	// Faults out, then actions out: pieces of halving size over the minutes before the cut.
	const pieces = (length: number) => {
		const out: Array<[number, number]> = [];
		for (let size = Math.ceil(length / 2); size >= 1; size = Math.floor(size / 2)) {
			for (let from = 0; from < length; from += size) out.push([from, from + size]);
			if (size === 1) break;
		}
		return out;
	};
	for (const [from, to] of pieces(best.minutes)) {
		if (used >= runs) break;
		const quiet = (list: Minute[]) =>
			list.map((m, i) => (i >= from && i < to ? { ...m, fault: 'none' as const, during: [] } : m));
		if (best.history.list.slice(from, to).some((m) => m.fault !== 'none'))
			await fails(edit(quiet), best.minutes);
	}
	for (const [from, to] of pieces(best.minutes)) {
		if (used >= runs) break;
		const empty = (list: Minute[]) =>
			list.map((m, i) => (i >= from && i < to && i >= history.warmup ? { ...m, actions: [] } : m));
		if (best.history.list.slice(from, to).some((m) => m.actions.length > 0))
			await fails(edit(empty), best.minutes);
	}
	return { ...best, runs: used };
}
