/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only benchmark: prints to the terminal, times with process.hrtime, reads the machine */
/**
 * `npm run bench`: request economy, throughput and size of the nodes, measured against the
 * in-process sandbox and n8n's own engine. Prints a table to stdout.
 * Flags: --runs=N (median over N timed runs, default 5), --no-build (measure dist as it is),
 * --write (also save the run to bench/last-run.json and rewrite every figure the docs quote from
 * it: see bench/figures.ts).
 */
import './resolve';
import './env';

import { cpus, loadavg, platform } from 'os';
import { join } from 'path';

import { table, unfinished, writeRun, type BenchRow } from './figures';
import {
	articlesUpTo,
	fmt,
	ms,
	requestRow,
	restoreTime,
	runNode,
	sandbox,
	type AddRow,
} from './kit';
import { latencyRows } from './latency';
import { LOAD_RUNS, packageRows } from './package';
import { queueRows } from './queue';
import { staticDataRow } from './static-data';
import { throughputRows } from './throughput';
import { triggerSocialRows as triggerSocialScaleRows } from './trigger-social';
import { triggerMonthRows } from './trigger-month';
import { triggerTimeRows } from './trigger-time';
import { triggerArticleRows, triggerSocialRows } from './trigger-rows';
import { waitRows } from './waits';

const ROOT = join(__dirname, '..');
const args = process.argv.slice(2);
const RUNS = Number(args.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 5);
const BUILD = !args.includes('--no-build');
const WRITE = args.includes('--write');
/** The machine is often shared: its load when the run started says how far to trust timings. */
const LOAD_AT_START = loadavg()[0];

const rows: BenchRow[] = [];
const notes: string[] = [];

const row: AddRow = (section, name, measured, reference, ratio, target) => {
	rows.push({ section, name, measured, reference, ratio, target });
};

// ------------------------------------------------------------------------------------------
// 1. requests used vs the minimum

async function requestCounts(): Promise<void> {
	const sb = await sandbox(1000, 101);
	try {
		sb.control.advance(86_400_000); // let the seeded generations settle
		await articlesUpTo(sb, 10_000);

		sb.control.resetRequests();
		const all = await runNode(sb, { resource: 'article', operation: 'getMany', returnAll: true });
		if (all.length !== 10_000) throw new Error(`return-all gave ${all.length} items`);
		requestRow(row, 'article getMany, return all of 10,000', sb.control.requests().length, 100);

		sb.control.resetRequests();
		const some = await runNode(sb, {
			resource: 'article',
			operation: 'getMany',
			returnAll: false,
			limit: 250,
		});
		if (some.length !== 250) throw new Error(`limit 250 gave ${some.length} items`);
		requestRow(row, 'article getMany, limit 250', sb.control.requests().length, 3);
	} finally {
		await sb.close();
	}
}

// ------------------------------------------------------------------------------------------

function machine(): string {
	return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), ${platform()}, Node ${process.version}`;
}

function print(): void {
	for (const l of table(rows)) console.log(l);
	console.log('');
	for (const note of notes) console.log(`- ${note}`);
	console.log(
		`- machine: ${machine()}; timed figures are medians of ${RUNS} runs (cold load: ${LOAD_RUNS}).`,
	);
}

function write(seconds: number): void {
	const changed = writeRun(ROOT, {
		date: new Date().toISOString().slice(0, 10),
		command: ['npm run bench --', ...process.argv.slice(2)].join(' '),
		seconds: Number(fmt(seconds, 1)),
		machine: machine(),
		loadAtStart: Number(fmt(LOAD_AT_START, 1)),
		runs: RUNS,
		loadRuns: LOAD_RUNS,
		rows,
		notes,
	});
	console.log(
		`- wrote bench/last-run.json and the figures of ${changed.join(', ') || 'no document'}.`,
	);
}

async function main(): Promise<void> {
	const started = process.hrtime.bigint();
	await requestCounts();
	try {
		await triggerArticleRows(row);
		await triggerSocialRows(row);
		await triggerSocialScaleRows(row);
	} finally {
		restoreTime(); // the trigger rows moved n8n's clock with the sandbox's
	}
	await triggerTimeRows(row);
	await triggerMonthRows(row);
	await waitRows(row, notes);
	await queueRows(row, notes);
	await throughputRows(row, notes, RUNS);
	await latencyRows(row, notes);
	await staticDataRow(row, 1000);
	await staticDataRow(row, 5000);
	packageRows(row, notes, BUILD);
	print();
	const seconds = ms(started) / 1000;
	console.log(`- bench took ${fmt(seconds, 1)} s.`);
	if (WRITE) write(seconds);
	const left = unfinished(rows);
	if (left.length > 0) {
		console.log(`- did not finish: ${left.map((r) => r.name).join('; ')}.`);
		process.exitCode = 1;
	}
}

main().then(
	() => process.exit(process.exitCode ?? 0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
