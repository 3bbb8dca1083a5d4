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
	/** main starting the execution: reading the static data back, creating or enqueuing it */
	runMs: number;
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
	/** deactivated right after a quiet poll: polls the probe ran, and the one whose state is stored */
	deactivated: { ran: number; stored: number | null };
}

export interface SizeRow extends Measured {
	emitting: PollFigures;
	quiet: PollFigures;
	mainRss: number;
	workerRss: number;
}

/** The figures of a poll that are medians over the polls of a kind. */
const PER_POLL = [
	'pollMs',
	'saveMs',
	'readMs',
	'runMs',
	'jobMs',
	'executionMs',
	'loopMaxMs',
	'written',
	'databaseWritten',
] as const;

export type PollFigures = Pick<Window, (typeof PER_POLL)[number]> & {
	polls: number;
	/** polls after which the stored counter moved */
	stored: number;
	/** the mean: a WAL checkpoint lands on some polls only */
	writtenMean: number;
};

export const median = (values: number[]) => {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	if (sorted.length === 0) return NaN;
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function figures(windows: Window[]): PollFigures {
	const medians = Object.fromEntries(
		PER_POLL.map((key) => [key, median(windows.map((w) => w[key]))]),
	) as Pick<Window, (typeof PER_POLL)[number]>;
	return {
		...medians,
		polls: windows.length,
		stored: windows.filter((w) => w.stored).length,
		writtenMean: windows.reduce((sum, w) => sum + w.written, 0) / windows.length,
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

type Cell = (row: SizeRow, ratio: (text: string, pick: (r: SizeRow) => number) => string) => string;

function markdown(rows: SizeRow[], columns: Array<[string, Cell]>): string {
	const header = ['n8n on', 'static data (stored)', ...columns.map(([name]) => name)];
	const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
	for (const row of rows) {
		const base = rows.find((r) => r.database === row.database && r.bytes === 64 * 1024);
		const ratio = (text: string, pick: (r: SizeRow) => number) =>
			withRatio(text, pick(row), base && base !== row ? pick(base) : undefined);
		const database = row.database === 'sqlite' ? 'SQLite, one process' : 'Postgres, queue mode';
		const cells = columns.map(([, cell]) => cell(row, ratio));
		lines.push(
			`| ${[database, `${row.label} (${kb(row.storedBytes)} KB)`, ...cells].join(' | ')} |`,
		);
	}
	return lines.join('\n');
}

/** Two tables: what a poll costs, then what the editor, memory and the CLI see. */
export function table(rows: SizeRow[]): string {
	const polls = markdown(rows, [
		['records', (r) => r.records.toLocaleString('en-US')],
		['save (ms)', (r, x) => x(fixed(r.emitting.saveMs, 1), (b) => b.emitting.saveMs)],
		['start execution (ms)', (r, x) => x(fixed(r.emitting.runMs, 0), (b) => b.emitting.runMs)],
		[
			'execution (ms)',
			(r, x) => x(fixed(r.emitting.executionMs, 0), (b) => b.emitting.executionMs),
		],
		[
			'written, emitting poll (KB)',
			(r, x) =>
				`${x(kb(r.emitting.written), (b) => b.emitting.written)}, mean ${kb(r.emitting.writtenMean)}`,
		],
		['written, quiet poll (KB)', (r) => kb(r.quiet.written)],
		['main stalled (ms)', (r) => fixed(r.emitting.loopMaxMs, 0)],
	]);
	const around = markdown(rows, [
		['editor GET (ms)', (r, x) => x(fixed(r.restMs, 0), (b) => b.restMs)],
		['editor GET (KB)', (r) => kb(r.restBytes)],
		['editor page (ms)', (r, x) => x(fixed(r.pageMs, 0), (b) => b.pageMs)],
		['RSS main (MB)', (r) => mb(r.mainRss)],
		['RSS worker (MB)', (r) => mb(r.workerRss)],
		['export (ms)', (r, x) => x(fixed(r.exportMs, 0), (b) => b.exportMs)],
		['export file (KB)', (r) => kb(r.exportBytes)],
		['import (ms)', (r, x) => x(fixed(r.importMs, 0), (b) => b.importMs)],
	]);
	return `${polls}\n\n${around}`;
}
