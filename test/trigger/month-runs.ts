/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test reads its depth from the environment */
/**
 * The month of a busy account as test cases (harness/trigger/month), shared by
 * month.property.test.ts and the month-<part>.property.test.ts files: the deep run is split over
 * PARTS files so that jest's workers play them side by side.
 *
 * Default run: one seed (month.property.test.ts), and a shorter month of it with v7 ids and one with
 * whole-second stamps. CONTENTGEN_DEEP=1: seeds 1-12 (DEEP_SEEDS), both
 * social list orders, both Deliveries; CONTENTGEN_MONTH_SEEDS=1-100 (or 3,9,12-15) plays those
 * seeds instead. Part p of PARTS plays every PARTS-th seed from the p-th.
 */
import {
	DEEP_SEEDS,
	MONTH,
	monthSizeOf,
	parseSeeds,
	type History,
} from '../../harness/trigger/month';
import { monthOf } from '../../harness/trigger/month';
import { runMonth, type Delivery } from '../../harness/trigger/month-run';
import { describe as describeHistory, shrink } from '../../harness/trigger/month-shrink';
import type { SocialOrder } from '../../harness/trigger/world';

export const PARTS = 6;
const CHOSEN = process.env.CONTENTGEN_MONTH_SEEDS;
export const DEEP = process.env.CONTENTGEN_DEEP === '1' || CHOSEN !== undefined;
const SEEDS = parseSeeds(CHOSEN ?? DEEP_SEEDS);
/**
 * CONTENTGEN_MONTH_CLOCKS=3: writers' clocks up to 3 minutes off instead of MONTH's 2;
 * CONTENTGEN_MONTH_IDS=v7: time-ordered ids; CONTENTGEN_MONTH_STAMPS=s: whole-second stamps.
 */
const SIZE = monthSizeOf(process.env);

export async function holds(history: History, delivery: Delivery): Promise<void> {
	const result = await runMonth(history, delivery);
	if (result.problems.length === 0) {
		// The run did what a month does: polls after the warm-up, each within its bounds.
		expect(result.requests.length).toBeGreaterThan((history.minutes - history.warmup) * 0.8);
		expect(result.largestState).toBeLessThanOrEqual(65_000);
		return;
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
	throw new Error(
		`${result.problems.length} problem(s), first: ${result.problems[0]}\n` +
			`replay: monthOf(${history.seed}, '${history.order}'${clocks}) under ${delivery}\n` +
			describeHistory(shrunk, delivery),
	);
}

/** Each seed in both list orders and both Deliveries. */
export function casesOf(seeds: number[]): Array<[number, SocialOrder, Delivery]> {
	return seeds.flatMap((seed) =>
		(['id', 'newest'] as const).flatMap((order) =>
			(['exactlyOnce', 'atLeastOnce'] as const).map((delivery): [number, SocialOrder, Delivery] => [
				seed,
				order,
				delivery,
			]),
		),
	);
}

/** Part `part` (1 to PARTS) of the deep run; in the default run, a skipped line saying so. */
export function deepPart(part: number): void {
	const seeds = SEEDS.filter((_, index) => index % PARTS === part - 1);
	if (!DEEP || seeds.length === 0) {
		it.skip(`not run here (CONTENTGEN_DEEP=1 plays part ${part} of the deep month)`, () =>
			undefined);
		return;
	}
	it.each(casesOf(seeds))(
		'seed %i, social list in %s order, %s: nothing missed, repeated or made up',
		async (seed, order, delivery) => {
			await holds(monthOf(seed, order, SIZE), delivery);
		},
		600_000,
	);
}
