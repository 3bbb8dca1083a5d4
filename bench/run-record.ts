/**
 * The record of one benchmark run (bench/last-run.json): what ./figures renders into the docs and
 * ./cost-table reads, kept apart from both so neither imports the other for its type.
 */
export interface BenchRow {
	section: string;
	name: string;
	measured: string;
	reference: string;
	ratio: string;
	target: string;
}

export interface BenchRun {
	date: string;
	command: string;
	seconds: number;
	machine: string;
	loadAtStart: number;
	runs: number;
	loadRuns: number;
	rows: BenchRow[];
	notes: string[];
}
