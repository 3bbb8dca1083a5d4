/* eslint-disable @n8n/community-nodes/no-restricted-globals -- dev-only benchmark: reads its depth from the environment */
/**
 * Rows of `npm run bench` for the trigger over a month of a busy account (harness/trigger/month:
 * 3,000 articles, 3,000 social records, every event selected, 400 polls a minute apart, bursts,
 * deletions, clocks off, failed, slow and discarded polls): requests per poll after the warm-up,
 * mean, 99th percentile and largest, against the idle price of the same account (its last poll
 * before anything moves), for a social list listed newest first and one in no date order; and
 * what the oracle found (the target is nothing). CONTENTGEN_DEEP=1 plays seeds 1 to 12 instead of
 * one; CONTENTGEN_MONTH_SEEDS=1-100 (or 3,9,12-15) plays those.
 */
import { DEEP_SEEDS, monthOf, monthSizeOf, parseSeeds } from '../harness/trigger/month';
import { runMonth, type Delivery } from '../harness/trigger/month-run';
import type { SocialOrder } from '../harness/trigger/world';
import { fmt, printAlone, type AddRow } from './kit';

const SEED = 20261127;
/** CONTENTGEN_MONTH_CLOCKS, CONTENTGEN_MONTH_IDS=v7, CONTENTGEN_MONTH_STAMPS=s: as the month's tests. */
const SIZE = monthSizeOf(process.env);
const CHOSEN = process.env.CONTENTGEN_MONTH_SEEDS;
const SEEDS =
	CHOSEN !== undefined
		? parseSeeds(CHOSEN)
		: process.env.CONTENTGEN_DEEP === '1'
			? parseSeeds(DEEP_SEEDS)
			: [SEED];

const ORDERS: Array<[SocialOrder, string]> = [
	['newest', 'social list newest first'],
	['id', 'social list in no date order'],
];

async function monthRows(row: AddRow, order: SocialOrder, label: string, delivery: Delivery) {
	const requests: number[] = [];
	let idle = Infinity;
	let problems = 0;
	let state = 0;
	for (const seed of SEEDS) {
		const result = await runMonth(monthOf(seed, order, SIZE), delivery);
		for (const r of result.requests) requests.push(r);
		idle = Math.min(idle, result.idle);
		problems += result.problemCount;
		state = Math.max(state, result.largestState);
	}
	requests.sort((a, b) => a - b);
	const mean = requests.reduce((sum, r) => sum + r, 0) / requests.length;
	const p99 = requests[Math.min(requests.length - 1, Math.floor(requests.length * 0.99))];
	const max = requests[requests.length - 1];
	const name = `trigger month (${SEEDS.length} seed${SEEDS.length > 1 ? 's' : ''}), ${label}, ${delivery === 'exactlyOnce' ? 'Exactly Once' : 'At Least Once'}`;
	const ref = `${idle} (idle poll, every event)`;
	row('month', `${name}: requests per poll, mean`, fmt(mean, 1), ref, fmt(mean / idle), '-');
	row(
		'month',
		`${name}: requests per poll, 99th percentile`,
		String(p99),
		ref,
		fmt(p99 / idle),
		'-',
	);
	row('month', `${name}: requests per poll, largest`, String(max), ref, fmt(max / idle), '-');
	row(
		'month',
		`${name}: misses, duplicates and ghosts`,
		String(problems),
		'0',
		String(problems),
		'0',
	);
	row(
		'month',
		`${name}: largest state (characters)`,
		String(state),
		'4 MB, every cap full',
		fmt(state / 4_194_304),
		'< 1.00',
	);
}

export async function triggerMonthRows(row: AddRow): Promise<void> {
	for (const [order, label] of ORDERS) {
		await monthRows(row, order, label, 'exactlyOnce');
		await monthRows(row, order, label, 'atLeastOnce');
	}
}

if (require.main === module) printAlone(triggerMonthRows);
