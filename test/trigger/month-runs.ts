/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- a test reads its depth from the environment and plays the deep run in child processes */
/**
 * The month of a busy account as test cases (harness/trigger/month), for month.property.test.ts.
 *
 * Default run: one seed, and a shorter month of it with v7 ids and one with whole-second stamps, in
 * the test's own process. CONTENTGEN_DEEP=1: seeds 1-12 (DEEP_SEEDS),
 * both social list orders, both Deliveries; CONTENTGEN_MONTH_SEEDS=1-100 (or 3,9,12-15) plays
 * those seeds instead. A month is a CPU-bound simulation, so the deep run plays its cases in child
 * processes (./month-child.ts), one per core (CONTENTGEN_MONTH_WORKERS sets another count), each
 * case still a test of its own.
 */
import { spawn, type ChildProcess } from 'child_process';
import { availableParallelism } from 'os';
import { join } from 'path';

import {
	DEEP_SEEDS,
	MONTH,
	monthSizeOf,
	parseSeeds,
	type History,
	type MonthSize,
} from '../../harness/trigger/month';
import { runMonth, STATE_LIMIT, type Delivery } from '../../harness/trigger/month-run';
import { describe as describeHistory, shrink } from '../../harness/trigger/month-shrink';
import type { SocialOrder } from '../../harness/trigger/world';
import { ROOT } from '../helpers/sources';

const CHOSEN = process.env.CONTENTGEN_MONTH_SEEDS;
export const DEEP = process.env.CONTENTGEN_DEEP === '1' || CHOSEN !== undefined;
const SEEDS = parseSeeds(CHOSEN ?? DEEP_SEEDS);
/**
 * CONTENTGEN_MONTH_CLOCKS=3: writers' clocks up to 3 minutes off instead of MONTH's 2;
 * CONTENTGEN_MONTH_IDS=v7: time-ordered ids; CONTENTGEN_MONTH_STAMPS=s: whole-second stamps.
 */
const SIZE = monthSizeOf(process.env);
const SERVICE_SET =
	process.env.CONTENTGEN_MONTH_IDS !== undefined ||
	process.env.CONTENTGEN_MONTH_STAMPS !== undefined;

/**
 * The month a seed plays: the size the environment gives; when it names no ids or stamps, the deep
 * run's seeds take turns among the services that read the spec's silences (v4 ids and stamps in
 * ms, time-ordered v7 ids, whole-second stamps), at no extra cost.
 */
export function sizeOf(seed: number): MonthSize {
	if (SERVICE_SET) return SIZE;
	const turn = seed % 3;
	return turn === 1 ? SIZE : turn === 2 ? { ...SIZE, ids: 'v7' } : { ...SIZE, stamps: 's' };
}
const WORKERS = Number(process.env.CONTENTGEN_MONTH_WORKERS ?? availableParallelism());
if (!(WORKERS >= 1)) throw new Error('CONTENTGEN_MONTH_WORKERS: a count of processes, 1 or more');

/** What went wrong in the month (with its replay line and the smallest history that still fails), or undefined. */
export async function verdict(history: History, delivery: Delivery): Promise<string | undefined> {
	const result = await runMonth(history, delivery);
	if (result.problems.length === 0) {
		// The run did what a month does: polls after the warm-up, each within its bounds.
		if (result.requests.length <= (history.minutes - history.warmup) * 0.8)
			return `${result.requests.length} committed polls in ${history.minutes} minutes`;
		if (result.largestState > STATE_LIMIT) return `a stored state of ${result.largestState} bytes`;
		return undefined;
	}
	const shrunk = await shrink(history, delivery, result.firstBad, DEEP ? 60 : 12);
	const changed = (['clockSkewMinutes', 'ids', 'stamps'] as const)
		.filter((key) => history[key] !== MONTH[key])
		.map((key) => `${key}: ${JSON.stringify(history[key])}`);
	const size = [
		...changed,
		...(history.minutes === MONTH.minutes ? [] : [`minutes: ${history.minutes}`]),
	];
	const clocks = size.length === 0 ? '' : `, { ...MONTH, ${size.join(', ')} }`;
	return (
		`${result.problems.length} problem(s), first: ${result.problems[0]}\n` +
		`replay: monthOf(${history.seed}, '${history.order}'${clocks}) under ${delivery}\n` +
		describeHistory(shrunk, delivery)
	);
}

export async function holds(history: History, delivery: Delivery): Promise<void> {
	const message = await verdict(history, delivery);
	if (message !== undefined) throw new Error(message);
}

export type MonthCase = [seed: number, order: SocialOrder, delivery: Delivery];

/** Each seed in both list orders and both Deliveries. */
export function casesOf(seeds: number[]): MonthCase[] {
	return seeds.flatMap((seed) =>
		(['id', 'newest'] as const).flatMap((order) =>
			(['exactlyOnce', 'atLeastOnce'] as const).map(
				(delivery): MonthCase => [seed, order, delivery],
			),
		),
	);
}

/** A line a child process writes per case; anything else it prints is not read. */
export const RESULT = 'month-case ';
const CHILD = join(__dirname, 'month-child.ts');

/** Every case's verdict, played by `workers` child processes, every workers-th case each. */
function playAside(cases: MonthCase[], workers: number, children: ChildProcess[]) {
	const settle: Array<{ resolve: (m?: string) => void; reject: (e: Error) => void }> = [];
	const verdicts = cases.map(
		(_c, index) =>
			new Promise<string | undefined>((resolve, reject) => {
				settle[index] = { resolve, reject };
			}),
	);
	// A case whose process died fails in its own test; until then nothing awaits it.
	for (const pending of verdicts) pending.catch(() => undefined);
	for (let worker = 0; worker < Math.min(workers, cases.length); worker++) {
		const mine = cases
			.map((c, index) => ({ c, index }))
			.filter((x) => x.index % workers === worker);
		const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(mine)], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		children.push(child);
		let out = '';
		let err = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
			out += chunk;
			for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
				const line = out.slice(0, end);
				out = out.slice(end + 1);
				if (!line.startsWith(RESULT)) continue;
				const { index, message } = JSON.parse(line.slice(RESULT.length)) as {
					index: number;
					message?: string;
				};
				settle[index].resolve(message);
			}
		});
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
			err = (err + chunk).slice(-4_000);
		});
		// Settling a settled promise does nothing: only the cases it never reached fail here.
		child.on('close', (code, signal) => {
			for (const { index } of mine)
				settle[index].reject(new Error(`the month's process ended (${code ?? signal}):\n${err}`));
		});
	}
	return verdicts;
}

/** The deep run, one test per case; in the default run, a skipped line saying so. */
export function deepRun(): void {
	if (!DEEP) {
		it.skip('not run here (CONTENTGEN_DEEP=1 plays the deep month)', () => undefined);
		return;
	}
	const cases = casesOf(SEEDS);
	const children: ChildProcess[] = [];
	let verdicts: Array<Promise<string | undefined>> = [];
	beforeAll(() => {
		verdicts = playAside(cases, WORKERS, children);
	});
	afterAll(() => {
		for (const child of children) child.kill();
	});
	it.each(
		cases.map(([seed, order, delivery], index) => {
			const { ids, stamps } = sizeOf(seed);
			return [seed, order, delivery, ids, stamps, index] as const;
		}),
	)(
		'seed %i, social list in %s order, %s, %s ids, stamps in %s: nothing missed, repeated or made up',
		async (_seed, _order, _delivery, _ids, _stamps, index) => {
			const message = await verdicts[index];
			if (message !== undefined) throw new Error(message);
		},
		// A test waits for the cases its process plays before its own.
		3_600_000,
	);
}
