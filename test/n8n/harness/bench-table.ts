/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only benchmark: writes BENCHMARKS.md */
// The figures of the queue-mode benchmark (bench.ts): one row per case and variant, reported as they
// are measured and at the end as a markdown table, which `npm run bench:n8n -- --write` puts into
// BENCHMARKS.md.
import { readFileSync, writeFileSync } from 'fs';

import { medianRun, type Run } from './bench-run';
import { report } from './report';

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const count = (n: number) => n.toLocaleString('en-US');
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '-');

export interface Row {
	/** where the row goes in the table: rows are printed by section, then in the order measured */
	section?: number;
	benchmark: string;
	variant: string;
	requests: string;
	limited: string;
	time: string;
	minimum: string;
	ratio: string;
	/** the median time against the median of the same case with n8n's HTTP Request node */
	versusHttp: string;
	failed: string;
	result: string;
}

/** A correctness check of the benchmark: reported as it is made, asserted by the test. */
export interface Check {
	ok: boolean;
	text: string;
}
export function checker() {
	const checks: Check[] = [];
	return {
		checks,
		check(ok: boolean, text: string): void {
			checks.push({ ok, text });
			report(`${ok ? 'PASS' : 'FAIL'} ${text}`);
		},
	};
}

/** The rows measured so far, and the table they make. */
export function resultTable() {
	const rows: Row[] = [];

	/**
	 * One row from the samples of a case: the median sample's time, requests and 429s, the spread
	 * of the times, the failed executions of all samples. `minimum` and `result` are the median
	 * sample's (medianRun); `http`: the samples of the same case with n8n's HTTP Request node.
	 */
	function row(
		section: number,
		benchmark: string,
		variant: string,
		runs: Run[],
		minimum: { ms: number; what: string; applies: boolean },
		result: string,
		http?: Run[],
	): Row {
		const r = medianRun(runs);
		const times = runs.map((x) => x.wallMs);
		const limited = r.requests.filter((q) => q.status === 429).length;
		const executions = runs.flatMap((x) => x.executions);
		const failed = executions.filter((e) => e.status !== 'success').length;
		const spread =
			runs.length > 1
				? ` (${(Math.min(...times) / 1000).toFixed(1)}-${seconds(Math.max(...times))}, ${runs.length} runs)`
				: '';
		const entry: Row = {
			section,
			benchmark,
			variant,
			requests: count(r.requests.length),
			limited: count(limited),
			time: `${seconds(r.wallMs)}${spread}`,
			minimum: minimum.ms > 0 ? `${seconds(minimum.ms)} (${minimum.what})` : '-',
			// A run that did not do the whole job has no meaningful time ratio.
			ratio: minimum.ms > 0 && minimum.applies ? ratio(r.wallMs, minimum.ms) : '-',
			// A time beside an HTTP Request run that failed compares with nothing done.
			versusHttp:
				http && medianRun(http).executions.every((e) => e.status === 'success')
					? ratio(r.wallMs, medianRun(http).wallMs)
					: '-',
			failed: `${failed} of ${executions.length}`,
			result,
		};
		rows.push(entry);
		report(`${benchmark} | ${variant}: ${Object.values(entry).slice(3).join(' | ')}`);
		return entry;
	}

	function render(): string {
		const header: Row = {
			benchmark: 'benchmark',
			variant: 'variant',
			requests: 'requests',
			limited: '429s',
			time: 'time: median (spread)',
			minimum: 'minimum',
			ratio: 'time / min',
			versusHttp: '÷ HTTP Request',
			failed: 'failed executions',
			result: 'result',
		};
		const keys = (Object.keys(header) as Array<keyof Row>).filter((k) => k !== 'section');
		rows.sort((a, b) => (a.section ?? 0) - (b.section ?? 0));
		// Unpadded: Markdown aligns the columns, and padding doubled the bytes.
		const line = (r: Row) => `| ${keys.map((k) => String(r[k])).join(' | ')} |`;
		return [line(header), `|${keys.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
	}

	return { rows, row, render };
}

export function write(file: string, text: string): void {
	const start = '<!-- bench:n8n:start -->';
	const end = '<!-- bench:n8n:end -->';
	const current = readFileSync(file, 'utf8');
	const from = current.indexOf(start);
	const to = current.indexOf(end);
	if (from < 0 || to < from) throw new Error(`${file} has no ${start} ... ${end} block`);
	writeFileSync(file, `${current.slice(0, from + start.length)}\n${text}\n${current.slice(to)}`);
}
