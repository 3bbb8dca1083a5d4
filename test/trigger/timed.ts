/**
 * Histories of ./histories played through the node's own poll (n8n's PollContext, the transport,
 * the tracker) against the virtual service (./virtual): answers fast, slow or hanging, reset
 * headers of any window, one writer's clock far ahead, n8n's poll budget, and the runs n8n's
 * durable scheduler may make of one poll. Each poll is checked against the ground-truth model
 * (./model) and must end by its deadline; one that stores nothing must say so.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Script } from './histories';
import {
	compare,
	expectArticles,
	expectSocial,
	watchedSocial,
	type Acceptable,
	type Transition,
} from './model';
import { pollHarness } from '../../harness/trigger/poll';
import { RESET_WINDOWS, useVirtualClock, VirtualService } from '../../harness/trigger/virtual';
import { prng, World } from '../../harness/trigger/world';

/**
 * How n8n runs one poll. `once`: as planned. `abandoned`: past the scheduler's timeout the next
 * run starts from the same stored state while the first goes on; n8n keeps one of the two
 * results, either. `lease`: the lease expired; the poll is run again from the same state, and
 * only that run's result is kept. `overrun`: a run past 45 s is abandoned (as above); one that
 * ends in time is kept. `emptyDropped`: a run that emits nothing may have its state dropped.
 */
export type Run = 'once' | 'abandoned' | 'lease' | 'overrun' | 'emptyDropped';

export interface Timing {
	latency: 'fast' | 'slow' | 'hanging';
	reset: keyof typeof RESET_WINDOWS;
	/** `getPollBudgetMs()`; n8n's default (5 minutes) when undefined. */
	budgetMs?: number;
	everyMinutes: number;
	/** Cycled over the history's polls. */
	runs: Run[];
	/** Before this step, one writer's clock is 45 minutes ahead for one change. */
	aheadAt?: number;
	seed: number;
}

const AHEAD_MS = 45 * 60_000;
/** n8n's durable scheduler abandons a poll running longer than this. */
const SCHEDULER_TIMEOUT_MS = 45_000;
const HANG_SHARE = 0.15;

type Output = INodeExecutionData[][] | null | Error;

interface RunResult {
	output: Output;
	took: number;
	state: string;
	warned: boolean;
	articles: Map<string, string>;
	social: Map<string, string>;
}

function transitions(output: Output): Transition[] {
	if (output === null || output instanceof Error) return [];
	return output[0].map(({ json }) => ({
		id: String(json.id),
		previous: (json.previousStatus as string | null) ?? null,
		status: String(json.status),
		events: [...(json.events as string[])].sort(),
	}));
}

/** The tracker's part of the static data (a poll cut short may note when polls began to be late). */
const tracker = (state: string) =>
	JSON.stringify(
		(JSON.parse(state) as Record<string, IDataObject>)['node:ContentGen Trigger']?.tracker,
	);

function service(world: World, timing: Timing): VirtualService {
	const virtual = new VirtualService(world);
	const random = prng(timing.seed);
	virtual.reset = RESET_WINDOWS[timing.reset];
	virtual.latency = () => {
		if (timing.latency === 'slow') return 12_000 + Math.round(random() * 3_000);
		if (timing.latency === 'hanging' && random() < HANG_SHARE) return Infinity;
		return 100 + Math.round(random() * 700);
	};
	return virtual;
}

/** Plays the script; returns the first problem, or null. */
export async function runTimed(script: Script, timing: Timing): Promise<string | null> {
	const world = new World(prng(script.seed), { socialOrder: script.order });
	for (const [kind, status, created] of script.initial) world.create(kind, status, { created });
	const virtual = service(world, timing);
	const pollTimes =
		timing.everyMinutes === 1
			? { item: [{ mode: 'everyMinute' }] }
			: { item: [{ mode: 'everyX', value: timing.everyMinutes, unit: 'minutes' }] };
	const harness = pollHarness({ events: script.events, pollTimes }, undefined, {
		http: virtual.http,
		pollBudgetMs: timing.budgetMs,
	});
	const gap = timing.everyMinutes * 60_000;
	const bound = Math.min(gap - 5_000, timing.budgetMs ?? Infinity);
	const random = prng(timing.seed ^ 0x5bd1e995);
	const wanted = new Set(script.events);
	const watched = watchedSocial(script.events);
	let committed: { articles: Map<string, string>; social: Map<string, string> } | undefined;
	let followed = new Set<string>();
	const failedSeen = new Set<string>();
	let due = world.now;
	let polls = 0;

	async function run(from: IDataObject): Promise<RunResult> {
		harness.load(from);
		const start = world.now;
		const output = await harness.poll().catch((error: Error) => error);
		const state = JSON.stringify(harness.staticData());
		return {
			output,
			took: world.now - start,
			state,
			warned: harness.warnings().length > 0,
			articles: world.snapshot('article'),
			social: world.snapshot('social'),
		};
	}

	/** The result n8n keeps: checked against the model, its state stored for the next poll. */
	function keep(result: RunResult, before: string): string | null {
		const stored = tracker(result.state) !== tracker(before);
		if (!stored) {
			if (transitions(result.output).length > 0) return 'emitted items but stored nothing';
			if (!(result.output instanceof Error) && !result.warned) return 'stored nothing, silently';
			harness.load(JSON.parse(before) as IDataObject);
			return null;
		}
		let expected = new Map<string, Acceptable>();
		if (committed === undefined) {
			followed = new Set([...result.social].filter(([, s]) => watched.has(s)).map(([id]) => id));
		} else {
			// Minutes pass between polls: records finished before the look-back may be forgotten.
			expected = expectArticles(committed.articles, result.articles, wanted, false);
			const s = expectSocial(
				committed.social,
				result.social,
				followed,
				watched,
				wanted,
				false,
				failedSeen,
			);
			for (const [id, acceptable] of s.expected) expected.set(id, acceptable);
			followed = s.followed;
		}
		committed = { articles: result.articles, social: result.social };
		harness.load(JSON.parse(result.state) as IDataObject);
		return compare(transitions(result.output), expected);
	}

	/** One change between two runs of the same poll. */
	function change(): void {
		const ids = [...world.articles.keys()];
		if (ids.length > 0) world.set('article', ids[Math.floor(random() * ids.length)], 'cms');
	}

	async function poll(): Promise<string | null> {
		world.now = Math.max(world.now, due);
		due = world.now + gap;
		const kind = timing.runs[polls++ % timing.runs.length];
		const before = JSON.stringify(harness.staticData());
		const stored = JSON.parse(before) as IDataObject;
		const first = await run(stored);
		if (first.took > bound) return `a poll took ${first.took} ms, over ${bound} ms`;
		const twice =
			kind === 'abandoned' ||
			kind === 'lease' ||
			(kind === 'overrun' && first.took > SCHEDULER_TIMEOUT_MS);
		if (!twice) {
			if (kind !== 'emptyDropped' || transitions(first.output).length > 0)
				return keep(first, before);
			// n8n may not store what a poll that emitted nothing changed: it is as if it never ran.
			harness.load(stored);
			return null;
		}
		world.tick(kind === 'lease' ? 60_000 - first.took : SCHEDULER_TIMEOUT_MS - first.took);
		change();
		const second = await run(stored);
		if (second.took > bound) return `a poll run again took ${second.took} ms, over ${bound} ms`;
		const kept = kind === 'lease' || random() < 0.5 ? second : first;
		return keep(kept, before);
	}

	const stop = useVirtualClock(world);
	try {
		for (const [index, step] of script.steps.entries()) {
			if (index === timing.aheadAt) {
				const ids = [...world.articles.keys()];
				if (ids.length > 0) world.set('article', ids[0], 'cms', AHEAD_MS);
				else world.create('social', 'completed', { skew: AHEAD_MS });
			}
			if (step.t === 'tick') world.tick(step.ms);
			else if (step.t === 'create') world.create(step.kind, step.status, { skew: step.skew });
			else if (step.t === 'set') {
				const ids = [...(step.kind === 'article' ? world.articles : world.social).keys()];
				if (ids.length > 0) world.set(step.kind, ids[step.pick % ids.length], step.status);
			} else if (step.t === 'restart') harness.restart();
			else if (step.t === 'poll') {
				const problem = await poll();
				if (problem) return `poll at step ${index} (${JSON.stringify(timing)}): ${problem}`;
			}
		}
	} finally {
		stop();
	}
	// Fast answers commit a poll, unless every poll emitted nothing and n8n dropped its state.
	const mayNotCommit = timing.latency !== 'fast' || timing.runs.includes('emptyDropped');
	return committed === undefined && !mayNotCommit ? 'no poll committed' : null;
}
