/**
 * Lateness within a request budget: the same history with an unlimited budget gives the reference.
 */
import type { PollOutcome } from '../../nodes/ContentGenTrigger/tracker';
import { articleEventsOf, socialEventsOf, type Transition } from './model';
import { simulate, transitionsOf, type Script, type Step } from './script';

/** A record's reports, in order, with the poll that made each. */
type Chains = Map<string, Array<Transition & { step: number }>>;

function record(chains: Chains, step: number, outcome: PollOutcome): void {
	for (const t of transitionsOf(outcome.items)) {
		const chain = chains.get(t.id) ?? [];
		chain.push({ ...t, step });
		chains.set(t.id, chain);
	}
}

/**
 * With a request budget per poll, the tracker may be late but never silent or wrong: the same
 * history with an unlimited budget gives the reference. Each record's reports must be that
 * reference's reports merged into fewer, later ones (from the first one's previous status to
 * the last one's status, with the events of that change; a merged change without a selected
 * event gives no report); whenever the budgeted tracker is not where the reference is after a
 * poll, it must say it is behind; and idle polls afterwards must let it catch up. A social record
 * that appeared or moved while the tracker was still learning the account may miss its first
 * reports.
 */
export async function runLate(script: Script, budget: number): Promise<string | null> {
	// Both runs must commit the same polls: a request that fails would hit different reads.
	script = {
		...script,
		steps: script.steps.map((step) => (step.t === 'poll' ? { ...step, failAt: null } : step)),
	};
	// Enough idle polls to read the whole list a few times at this budget.
	const polls = 10 + 4 * Math.ceil(script.initial.length / 100 / budget);
	const settle: Step[] = [];
	for (let i = 0; i < polls; i++)
		settle.push({ t: 'tick', ms: 60_000 }, { t: 'poll', failAt: null });
	const reference: Chains = new Map();
	const referenceAt = new Map<number, Map<string, string>>();
	const problem = await simulate(
		{ ...script, config: { ...script.config, requestBudget: Infinity } },
		(step, outcome) => {
			record(reference, step, outcome);
			referenceAt.set(step, lastStatuses(reference));
		},
		settle,
	);
	if (problem) return `reference run: ${problem}`;

	const late: Chains = new Map();
	let activation: Map<string, string> | undefined;
	const learnt = new Set<string>();
	let learning = true;
	let behind = true;
	const result = await simulate(
		{ ...script, config: { ...script.config, requestBudget: budget } },
		(step, outcome, world) => {
			record(late, step, outcome);
			activation ??= world.snapshot('social');
			// Up to the poll that ends the learning, what changed may have been taken as it was.
			if (learning) {
				for (const [id, status] of world.snapshot('social'))
					if (activation.get(id) !== status) learnt.add(id);
			}
			learning = outcome.lag.learning;
			behind = outcome.lag.behind;
			if (behind) return null;
			const now = lastStatuses(late);
			for (const [id, status] of referenceAt.get(step) ?? []) {
				if (now.get(id) !== status && !learnt.has(id))
					return `not behind, yet ${id} is reported at ${now.get(id) ?? 'nothing'}, not ${status}`;
			}
			return null;
		},
		settle,
	);
	if (result) return result;
	if (behind) return `still behind after ${polls} idle polls`;
	const wanted = new Set(script.events);
	for (const id of new Set([...reference.keys(), ...late.keys()])) {
		const problem = merged(reference.get(id) ?? [], late.get(id) ?? [], learnt.has(id), wanted);
		if (problem) return `${id}: ${problem}`;
	}
	return null;
}

function lastStatuses(chains: Chains): Map<string, string> {
	return new Map([...chains].map(([id, chain]) => [id, chain[chain.length - 1].status]));
}

/** The selected events of a merged change; a null previous may mean "new" or "unknown". */
function mergedEvents(id: string, previous: string | null, status: string, wanted: Set<string>) {
	const of = id.includes('-0001-') ? articleEventsOf : socialEventsOf;
	const pick = (p: string | null | undefined) =>
		of(p, status)
			.filter((e) => wanted.has(e))
			.sort()
			.join();
	return previous === null ? [pick(undefined), pick(null)] : [pick(previous)];
}

/** Whether `late` is `reference` cut into consecutive spans, each merged into one report or none. */
function merged(
	reference: Transition[],
	late: Transition[],
	mayStartLate: boolean,
	wanted: Set<string>,
): string | null {
	const show = () => `reported ${JSON.stringify(late)}; reference ${JSON.stringify(reference)}`;
	let next = 0;
	for (const item of late) {
		const starts = reference
			.map((r, k) => k)
			.filter((k) => k >= next && reference[k].previous === item.previous);
		const start =
			mayStartLate && next === 0
				? (starts[0] ?? next)
				: starts.find((k) => k === next || skippable(reference, next, k, wanted));
		if (start === undefined) return show();
		const end = reference.findIndex((r, k) => k >= start && r.status === item.status);
		if (end < 0) return show();
		if (!mergedEvents(item.id, item.previous, item.status, wanted).includes(item.events.join()))
			return `events of ${JSON.stringify(item)}`;
		next = end + 1;
	}
	if (
		next < reference.length &&
		!mayStartLate &&
		!skippable(reference, next, reference.length, wanted)
	)
		return `${show()}: ends early`;
	return null;
}

/** Reference reports [from, to) merge into a change without a selected event (so no report). */
function skippable(
	reference: Transition[],
	from: number,
	to: number,
	wanted: Set<string>,
): boolean {
	if (to <= from) return true;
	const first = reference[from];
	const last = reference[to - 1];
	return mergedEvents(first.id, first.previous, last.status, wanted).includes('');
}
