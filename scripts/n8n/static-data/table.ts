/**
 * The static-data benchmark's figures: one row per database and size from its polls' windows, and
 * the Markdown table of them, each time and byte count also as a ratio to the 64 KB row of the same
 * database in the same run.
 */

/** One line of the hook's log: a call n8n made, timed inside n8n. */
export interface Call {
	role: 'main' | 'worker' | 'other';
	call:
		| 'saveStaticDataById'
		| 'getStaticDataById'
		| 'runPollFunction'
		| 'runWorkflow'
		| 'processJob';
	workflowId: string;
	/** when it started, ms since the epoch */
	at: number;
	ms: number;
	/** runPollFunction: items the poll returned */
	items?: number;
	/** runPollFunction in main: the longest event-loop delay since the previous poll started */
	loopMaxMs?: number;
}

/** One poll, from the counters read 8 s after it and 8 s after the one before. */
export interface Window {
	emitted: boolean;
	pollMs: number;
	saveMs: number;
	/** main reading the static data back for the execution (one process) */
	readMs: number;
	/** the worker's job (queue mode) */
	jobMs: number;
	executionMs: number;
	loopMaxMs: number;
	/** Postgres: WAL bytes; SQLite: bytes main wrote to storage */
	written: number;
	/** bytes the database's processes wrote to storage (Postgres) */
	databaseWritten: number;
	mainWritten: number;
	workerWritten: number;
	mainRss: number;
	workerRss: number;
	/** whether the stored poll counter moved */
	stored: boolean;
}

export interface Measured {
	database: 'sqlite' | 'postgres';
	bytes: number;
	label: string;
	storedBytes: number;
	records: number;
	windows: Window[];
	restMs: number;
	restBytes: number;
	/** bytes of static data in the editor's answer */
	restStaticBytes: number;
	pageMs: number;
	pageHeap: number;
	mainPeak: number;
	workerPeak: number;
	exportMs: number;
	exportBytes: number;
	importMs: number;
}

export interface SizeRow extends Measured {
	emitting: PollFigures;
	quiet: PollFigures;
	mainRss: number;
	workerRss: number;
}

export interface PollFigures {
	polls: number;
	/** polls after which the stored counter moved */
	stored: number;
	pollMs: number;
	saveMs: number;
	readMs: number;
	jobMs: number;
	executionMs: number;
	loopMaxMs: number;
	written: number;
	databaseWritten: number;
}

export const median = (values: number[]) => {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	if (sorted.length === 0) return NaN;
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function figures(windows: Window[]): PollFigures {
	const of = (key: keyof Window) => median(windows.map((w) => Number(w[key])));
	return {
		polls: windows.length,
		stored: windows.filter((w) => w.stored).length,
		pollMs: of('pollMs'),
		saveMs: of('saveMs'),
		readMs: of('readMs'),
		jobMs: of('jobMs'),
		executionMs: of('executionMs'),
		loopMaxMs: of('loopMaxMs'),
		written: of('written'),
		databaseWritten: of('databaseWritten'),
	};
}

export function summarize(measured: Measured): SizeRow {
	const { windows } = measured;
	return {
		...measured,
		emitting: figures(windows.filter((w) => w.emitted)),
		quiet: figures(windows.filter((w) => !w.emitted)),
		mainRss: median(windows.map((w) => w.mainRss)),
		workerRss: median(windows.map((w) => w.workerRss)),
	};
}

const fixed = (value: number, digits: number) =>
	Number.isFinite(value)
		? value.toLocaleString('en-US', {
				minimumFractionDigits: digits,
				maximumFractionDigits: digits,
			})
		: '–';
const kb = (bytes: number) => fixed(bytes / 1024, bytes < 10 * 1024 ? 1 : 0);
const mb = (bytes: number) => fixed(bytes / 1024 / 1024, 0);

/** `value (×ratio)` against the same column of the 64 KB row, when there is one. */
function withRatio(text: string, value: number, reference: number | undefined): string {
	if (reference === undefined || !Number.isFinite(value) || !(reference > 0)) return text;
	return `${text} (×${fixed(value / reference, 1)})`;
}

export function table(rows: SizeRow[]): string {
	const header = [
		'n8n on',
		'static data (stored)',
		'records',
		'save (ms)',
		'poll (ms)',
		'written, emitting poll (KB)',
		'written, quiet poll (KB)',
		'execution (ms)',
		'main stalled (ms)',
		'editor GET (ms)',
		'editor GET (KB)',
		'editor page (ms)',
		'RSS main (MB)',
		'RSS worker (MB)',
		'export (ms)',
		'export file (KB)',
		'import (ms)',
	];
	const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
	for (const row of rows) {
		const base = rows.find((r) => r.database === row.database && r.bytes === 64 * 1024);
		const ratio = (text: string, pick: (r: SizeRow) => number) =>
			withRatio(text, pick(row), base && base !== row ? pick(base) : undefined);
		const database = row.database === 'sqlite' ? 'SQLite, one process' : 'Postgres, queue mode';
		lines.push(
			`| ${[
				database,
				`${row.label} (${kb(row.storedBytes)} KB)`,
				row.records.toLocaleString('en-US'),
				ratio(fixed(row.emitting.saveMs, 1), (r) => r.emitting.saveMs),
				`${fixed(row.emitting.pollMs, 1)} / ${fixed(row.quiet.pollMs, 1)}`,
				ratio(kb(row.emitting.written), (r) => r.emitting.written),
				kb(row.quiet.written),
				ratio(fixed(row.emitting.executionMs, 0), (r) => r.emitting.executionMs),
				fixed(row.emitting.loopMaxMs, 0),
				ratio(fixed(row.restMs, 1), (r) => r.restMs),
				kb(row.restBytes),
				ratio(fixed(row.pageMs, 0), (r) => r.pageMs),
				mb(row.mainRss),
				mb(row.workerRss),
				ratio(fixed(row.exportMs, 0), (r) => r.exportMs),
				kb(row.exportBytes),
				ratio(fixed(row.importMs, 0), (r) => r.importMs),
			].join(' | ')} |`,
		);
	}
	return lines.join('\n');
}
