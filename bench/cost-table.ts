/**
 * docs/trigger.md's table of what an idle trigger costs a day: the requests of an idle poll as the
 * last benchmark run measured them, times the polls a day of each Poll Times, against each plan's
 * daily limit. Rendered into the `<!-- bench:trigger-cost:start -->` block by bench/figures.ts.
 */
import type { BenchRun } from './run-record';

/** The rows of the run that measure an idle poll, by the events they stand for. */
const IDLE_ROWS = {
	articles: 'article trigger, idle poll (10,000 records)',
	finished:
		'social trigger, idle poll, socialFinished + socialFailed, 10,000 records in every status',
	other:
		'social trigger, idle poll, socialScheduled + socialPublished, 10,000 records in every status',
};

const POLL_TIMES: Array<[string, number]> = [
	['every minute', 1440],
	['every 5 minutes', 288],
	['every 15 minutes', 96],
	['every hour', 24],
];

const PLANS: Array<[string, number]> = [
	['Free (5,000 a day)', 5_000],
	['Starter-Business (50,000 a day)', 50_000],
];

function idle(run: BenchRun, name: string): number {
	const row = run.rows.find((r) => r.name === name);
	const requests = Number(row?.measured);
	if (!Number.isInteger(requests)) throw new Error(`the last run has no idle-poll row "${name}"`);
	return requests;
}

export function triggerCostTable(run: BenchRun): string {
	const articles = idle(run, IDLE_ROWS.articles);
	const other = idle(run, IDLE_ROWS.other);
	const events: Array<[string, number]> = [
		['articles (any article events)', articles],
		['social: Finished and/or Failed only', idle(run, IDLE_ROWS.finished)],
		['social: any other selection', other],
		['articles + social (any)', articles + other],
	];
	const header = [
		'Poll Times',
		'Events',
		'requests per idle poll',
		'requests per day',
		...PLANS.map(([plan]) => plan),
		'Enterprise',
	];
	const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
	for (const [times, polls] of POLL_TIMES) {
		for (const [selection, perPoll] of events) {
			const perDay = perPoll * polls;
			const shares = PLANS.map(([, limit]) => {
				const share = `${((perDay / limit) * 100).toFixed(1)} %`;
				return perDay > limit / 2 ? `${share} (warns)` : share;
			});
			const cells = [times, selection, String(perPoll), perDay.toLocaleString('en-US'), ...shares];
			lines.push(`| ${[...cells, 'unlimited'].join(' | ')} |`);
		}
	}
	return lines.join('\n');
}
