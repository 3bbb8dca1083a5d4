/**
 * Random histories of an account, replayed against the tracker and checked poll by poll against
 * the ground-truth model (./model). A history is a script of steps; the runner resolves random
 * picks (which record, which clock error) with a seeded PRNG, so a failure replays exactly.
 * This file plays a script; ./late compares a run within a request budget with an unlimited one;
 * ./arbitraries generates the scripts.
 */
import {
	runPoll,
	type EmittedItem,
	type PollOutcome,
	type TrackerConfig,
} from '../../nodes/ContentGenTrigger/tracker';
import {
	ARTICLE_EVENT_NAMES,
	compare,
	expectArticles,
	expectSocial,
	SOCIAL_EVENT_NAMES,
	watchedSocial,
	type Acceptable,
	type Transition,
} from './model';
import { applySocialStep, type SocialStep } from './social-steps';
import { STATE_LIMIT } from '../../harness/trigger/month-run';
import { prng, World, type SocialOrder } from '../../harness/trigger/world';

export const ALL_EVENTS = [...ARTICLE_EVENT_NAMES, ...SOCIAL_EVENT_NAMES];
export const LOOK_BACK_MS = 5 * 60_000;

export type Kind = 'article' | 'social';
export type Step =
	| { t: 'tick'; ms: number }
	| { t: 'create'; kind: Kind; status: string; count: number; skew: number }
	| { t: 'burst'; kind: Kind; count: number }
	| { t: 'set'; kind: Kind; pick: number; status: string; skew: number }
	| { t: 'finish'; kind: Kind; share: number; skew: number }
	| { t: 'ahead'; pick: number }
	| { t: 'poll'; failAt: number | null }
	| { t: 'restart' }
	| SocialStep;

export interface Script {
	events: string[];
	order: SocialOrder;
	seed: number;
	/** Article page size the tracker asks for (tiny pages exercise paging). */
	pageSize?: number;
	/** Records that exist before activation: [kind, status, created] */
	initial: Array<[Kind, string, number]>;
	steps: Step[];
	/** The tracker must know every record (small accounts). */
	strict: boolean;
	/** Extra tracker settings (budgets). */
	config?: Partial<TrackerConfig>;
}

/** One transition per item. */
export function transitionsOf(items: EmittedItem[]): Transition[] {
	return items.map((i) => ({
		id: i.record.id,
		previous: i.previousStatus,
		status: i.record.status,
		events: [...i.events].sort(),
	}));
}

export const IN_FLIGHT: Record<Kind, readonly string[]> = {
	article: ['draft', 'queued'],
	social: ['draft', 'queued', 'generating'],
};
export const OUTCOMES: Record<Kind, readonly string[]> = {
	article: ['cms', 'cms', 'cms', 'needs_editing', 'failed'],
	social: ['completed', 'completed', 'ready', 'failed'],
};

export type PollHook = (step: number, outcome: PollOutcome, world: World) => string | null | void;

/** The failure a script injects into a poll's requests (the service answering 503). */
class InjectedFailure extends Error {
	constructor() {
		super('HTTP 503');
		this.name = 'InjectedFailure';
	}
}

/** Alters the stored state between polls: a broken tracker the properties must catch. */
export type Mutant = (state: Record<string, unknown>) => Record<string, unknown>;

/**
 * Plays a script: changes the world step by step and polls the tracker where it says so (an
 * injected failing request makes the poll fail, so nothing is committed; any other error, of the
 * tracker or of the service it asked, ends the run). `check` sees each committed poll and may
 * stop the run with a problem. A run in which no poll committed is a problem too.
 */
export async function simulate(
	script: Script,
	check: PollHook,
	extra: Step[] = [],
	mutant?: Mutant,
): Promise<string | null> {
	const world = new World(prng(script.seed), { socialOrder: script.order });
	const random = prng(script.seed ^ 0x9e3779b9);
	const clockError = (max: number) => Math.round((random() * 2 - 1) * max);
	for (const [kind, status, created] of script.initial) world.create(kind, status, { created });
	const table = (kind: Kind) => (kind === 'article' ? world.articles : world.social);
	let stored: unknown = {};
	let committedPolls = 0;

	for (const [index, step] of [...script.steps, ...extra].entries()) {
		if (step.t === 'tick') world.tick(step.ms);
		else if (step.t === 'create') {
			for (let i = 0; i < step.count; i++)
				world.create(step.kind, step.status, { skew: clockError(step.skew) });
		} else if (step.t === 'burst') {
			for (let i = 0; i < step.count; i++)
				world.create(step.kind, step.kind === 'article' ? 'queued' : 'generating');
		} else if (step.t === 'set') {
			const ids = [...table(step.kind).keys()];
			if (ids.length > 0)
				world.set(step.kind, ids[step.pick % ids.length], step.status, clockError(step.skew));
		} else if (step.t === 'finish') {
			for (const row of table(step.kind).values()) {
				if (!IN_FLIGHT[step.kind].includes(row.status) || random() >= step.share) continue;
				const outcome = OUTCOMES[step.kind][Math.floor(random() * OUTCOMES[step.kind].length)];
				world.set(step.kind, row.id, outcome, clockError(step.skew));
			}
		} else if (step.t === 'ahead') {
			// One writer's clock an hour fast: its stamp must not hide later changes.
			const ids = [...world.articles.keys()];
			if (ids.length > 0) world.set('article', ids[step.pick % ids.length], 'cms', 3_600_000);
		} else if (step.t === 'advance' || step.t === 'remove') {
			applySocialStep(world, step, script);
		} else if (step.t === 'restart') {
			stored = JSON.parse(JSON.stringify(stored));
		} else {
			let requests = 0;
			const config = {
				events: script.events as TrackerConfig['events'],
				scope: 'all',
				articlePageSize: script.pageSize,
				maxArticlePages: 1000,
				...script.config,
				now: world.now,
				lookBackMs: LOOK_BACK_MS,
			};
			let outcome: PollOutcome;
			// An order that holds within a poll shows the same records on a page read again.
			const pages = new Set<number>();
			let reread: number | undefined;
			try {
				outcome = await runPoll(stored, config, (request) => {
					if (step.failAt !== null && requests++ === step.failAt) throw new InjectedFailure();
					if (request.kind === 'socialList' && !request.status && script.order !== 'shuffled') {
						if (pages.has(request.page)) reread ??= request.page;
						pages.add(request.page);
					}
					return world.answer(request);
				});
			} catch (error) {
				if (error instanceof InjectedFailure) continue; // nothing committed
				// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- a crash of the tracker or a refused request is the finding itself
				throw error;
			}
			if (reread !== undefined) return `poll at step ${index}: read page ${reread} twice`;
			const size = JSON.stringify(outcome.state).length;
			if (size > STATE_LIMIT) return `poll at step ${index}: state too large: ${size}`;
			const problem = check(index, outcome, world);
			if (problem) return `poll at step ${index}: ${problem}`;
			stored = mutant ? mutant(JSON.parse(JSON.stringify(outcome.state))) : outcome.state;
			committedPolls++;
		}
	}
	return committedPolls === 0 ? 'no poll committed' : null;
}

/**
 * What the model expects of each committed poll of one run, in turn: the changes between the
 * account at the last committed poll and the account now (none at the first).
 */
export function expectations(script: Script): (world: World) => Map<string, Acceptable> {
	const wanted = new Set(script.events);
	const watched = watchedSocial(script.events);
	let committed: { articles: Map<string, string>; social: Map<string, string> } | null = null;
	let followed = new Set<string>();
	const failedSeen = new Set<string>();
	return (world) => {
		const articles = world.snapshot('article');
		const social = world.snapshot('social');
		let expected = new Map<string, Acceptable>();
		if (committed === null) {
			followed = new Set([...social].filter(([, s]) => watched.has(s)).map(([id]) => id));
		} else {
			expected = expectArticles(committed.articles, articles, wanted, script.strict);
			const s = expectSocial(
				committed.social,
				social,
				followed,
				watched,
				wanted,
				false,
				failedSeen,
			);
			for (const [id, acceptable] of s.expected) expected.set(id, acceptable);
			followed = s.followed;
		}
		committed = { articles, social };
		return expected;
	};
}

/** Checks each poll against the ground-truth model; returns the first disagreement, or null. */
export async function runScript(
	script: Script,
	mutant?: Mutant,
	also?: PollHook,
): Promise<string | null> {
	const expected = expectations(script);
	return await simulate(
		script,
		(step, outcome, world) =>
			compare(transitionsOf(outcome.items), expected(world)) ?? also?.(step, outcome, world),
		[],
		mutant,
	);
}
