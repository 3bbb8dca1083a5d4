/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only: reads and writes the docs and the last run's figures */
/**
 * Every figure the docs quote comes from a benchmark run. `npm run bench -- --write` saves the run
 * to bench/last-run.json and rewrites, in README.md, BENCHMARKS.md and docs/*.md:
 *
 * - blocks between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`, rendered by the
 *   renderer of that name below (the table, the summary);
 * - inline figures `<!-- bench: <row name> | <column> -->value<!-- /bench -->`, one cell of a row
 *   (column: measured, reference, ratio, target, verdict); `\|` inside a table cell;
 * - past measurements `<!-- measured: <date> | <command> -->text<!-- /measured -->`, checked only
 *   for stating their date and command.
 *
 * test/docs/figures.test.ts renders the same from bench/last-run.json and fails when a document
 * says something else, so a figure cannot be edited by hand or left behind by a new run. Rows come
 * from any bench module through `row()`: nothing here knows their names, except the summary.
 */
import { readdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';

import { triggerCostTable } from './cost-table';
import type { BenchRow, BenchRun } from './run-record';

export type { BenchRow, BenchRun } from './run-record';

export const LAST_RUN = join('bench', 'last-run.json');

/** Whether the ratio meets the target: "1.00" (exactly), "<= x", ">= x", "< x", "> x"; null when there is none. */
export function meetsTarget(ratio: string, target: string): boolean | null {
	const value = Number(ratio);
	const match = /^(<=|>=|<|>)?\s*(\d+(?:\.\d+)?)$/.exec(target.trim());
	if (!match || ratio.trim() === '' || !Number.isFinite(value)) return null;
	const bound = Number(match[2]);
	switch (match[1]) {
		case '<=':
			return value <= bound;
		case '>=':
			return value >= bound;
		case '<':
			return value < bound;
		case '>':
			return value > bound;
		default:
			return value === bound;
	}
}

export function verdict(row: BenchRow): string {
	const met = meetsTarget(row.ratio, row.target);
	return met === null ? '-' : met ? 'met' : '**missed**';
}

const HEADER = ['benchmark', 'measured', 'minimum / reference', 'ratio', 'target', 'target met'];
const cells = (r: BenchRow) => [r.name, r.measured, r.reference, r.ratio, r.target, verdict(r)];

/** The table the console prints: every row, the section first, columns padded. */
export function table(rows: BenchRow[]): string[] {
	const header = ['section', ...HEADER];
	const lines = rows.map((r) => [r.section, ...cells(r)]);
	const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
	return [line(header), line(widths.map((w) => '-'.repeat(w))), ...lines.map(line)];
}

/** The tables the docs hold: one per section in the order first measured, unpadded (half the bytes). */
export function sectionTables(rows: BenchRow[]): string[] {
	const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
	const sections = [...new Set(rows.map((r) => r.section))];
	return sections.flatMap((section, i) => [
		...(i > 0 ? [''] : []),
		`**${section}**`,
		'',
		line(HEADER),
		line(HEADER.map(() => '---')),
		...rows.filter((r) => r.section === section).map((r) => line(cells(r))),
	]);
}

/** Joins the words into lines of at most `width` characters, as the Markdown files are wrapped. */
export function wrap(text: string, width = 100): string {
	const lines: string[] = [];
	let current = '';
	// A word runs to the next space outside a code span, so code spans stay on one line.
	for (const word of text.match(/(?:`[^`]*`|[^\s`])+/g) ?? []) {
		if (current && current.length + 1 + word.length > width) {
			lines.push(current);
			current = word;
		} else current = current ? `${current} ${word}` : word;
	}
	return [...lines, current].join('\n');
}

/** A request count row: measured is "N" or "N in P polls", the reference starts with the minimum. */
function isRequestCount(row: BenchRow): boolean {
	return row.section === 'requests' || row.section === 'trigger';
}

function range(values: number[]): string {
	const [low, high] = [Math.min(...values), Math.max(...values)].map((v) => v.toFixed(2));
	return low === high ? low : `${low}-${high}`;
}

/** Request-count rows whose scenario did not finish (no ratio): named, never counted. */
export function unfinished(rows: BenchRow[]): BenchRow[] {
	return rows.filter((r) => isRequestCount(r) && !Number.isFinite(Number(r.ratio)));
}

function summary(run: BenchRun): string {
	const left = unfinished(run.rows);
	const counts = run.rows.filter((r) => isRequestCount(r) && !left.includes(r));
	const atMinimum = counts.filter((r) => Number(r.ratio) <= 1);
	const above = counts.filter((r) => Number(r.ratio) > 1).map((r) => Number(r.ratio));
	const missed = run.rows.filter((r) => meetsTarget(r.ratio, r.target) === false);
	const sentences = [
		`${atMinimum.length} of ${counts.length} request counts are at (or under) their minimum` +
			(above.length
				? `; the other ${above.length} take ${range(above)} times it (each named with its ratio in \`BENCHMARKS.md\`).`
				: '.'),
		left.length ? `Did not finish: ${left.map((r) => r.name).join('; ')}.` : '',
		missed.length
			? `Rows that miss their target: ${missed.map((r) => `${r.name} (${r.ratio} against ${r.target})`).join('; ')}.`
			: 'Every row with a target meets it.',
		`Figures of the run of ${run.date} (\`${run.command}\`), in \`BENCHMARKS.md\`.`,
	];
	return wrap(sentences.filter(Boolean).join(' '));
}

function unit(run: BenchRun): string {
	return [
		wrap(
			`Run of ${run.date}: \`${run.command}\`, ${run.seconds.toFixed(1)} s from start to table, on ${run.machine} (load average ${run.loadAtStart.toFixed(1)} when it started). Timed figures are medians of ${run.runs} runs (cold load: ${run.loadRuns} fresh processes).`,
		),
		'',
		...sectionTables(run.rows),
		'',
		...run.notes.map((note) => `- ${note}`),
	].join('\n');
}

/** What each marked block holds. A block of another name is an error, not left alone. */
export const BLOCKS: Record<string, (run: BenchRun) => string> = {
	'bench:unit': unit,
	'bench:summary': summary,
	'bench:trigger-cost': triggerCostTable,
};

/** Blocks written by other runs (the real-n8n queue benchmark), which this run leaves alone. */
const FOREIGN_BLOCKS = ['bench:n8n'];

const BLOCK = /<!-- (bench:[a-z0-9-]+):start -->\n[\s\S]*?<!-- \1:end -->/g;
/** In a table cell the separator is written `\|`, so the table keeps its columns. */
const INLINE =
	/<!-- bench: (.+?) (\\?)\| (measured|reference|ratio|target|verdict) -->(.*?)<!-- \/bench -->/g;

function cell(run: BenchRun, name: string, column: string): string {
	const found = run.rows.find((r) => r.name === name);
	if (!found) throw new Error(`the last run has no row "${name}"`);
	return column === 'verdict' ? verdict(found) : found[column as keyof BenchRow];
}

/** The document with every block and inline figure as the run gives them. */
export function render(text: string, run: BenchRun): string {
	return text
		.replace(BLOCK, (whole, name: string) => {
			if (FOREIGN_BLOCKS.includes(name)) return whole;
			const block = BLOCKS[name];
			if (!block) throw new Error(`no renderer for <!-- ${name}:start -->`);
			return `<!-- ${name}:start -->\n\n${block(run)}\n\n<!-- ${name}:end -->`;
		})
		.replace(
			INLINE,
			(_whole, name: string, escape: string, column: string) =>
				`<!-- bench: ${name} ${escape}| ${column} -->${cell(run, name, column)}<!-- /bench -->`,
		);
}

/**
 * A figure measured once, not by the last run, marked with its date and command:
 * `<!-- measured: 2026-11-24 | npm run test:n8n -->...<!-- /measured -->`. The text between
 * says both, so a reader sees it is a past measurement.
 */
const MEASURED = /<!-- measured: (\d{4}-\d{2}-\d{2}) \| (.+?) -->([\s\S]*?)<!-- \/measured -->/g;

export interface QuotedFigure {
	/** What the document says. */
	value: string;
	/** Where it comes from, in words. */
	source: string;
	/** Why it is wrong, if it is. */
	problem?: string;
}

/** Every figure a document quotes, with its source: the last run's, a block's, or a past measurement. */
export function quotedFigures(text: string, run: BenchRun): QuotedFigure[] {
	const figures: QuotedFigure[] = [];
	for (const m of text.matchAll(INLINE)) {
		const [, name, , column, value] = m;
		let expected: string | undefined;
		try {
			expected = cell(run, name, column);
		} catch {
			expected = undefined;
		}
		figures.push({
			value,
			source: `run of ${run.date}, row "${name}" | ${column}`,
			problem:
				expected === value ? undefined : `the run says ${expected ?? 'nothing (no such row)'}`,
		});
	}
	for (const m of text.matchAll(BLOCK)) {
		const name = m[1];
		if (FOREIGN_BLOCKS.includes(name)) {
			const stated = /Run of (\d{4}-\d{2}-\d{2}): `([^`]+)`/.exec(m[0]);
			figures.push({
				value: `<!-- ${name} --> block`,
				source: stated ? `its own run of ${stated[1]}, \`${stated[2]}\`` : 'no date or command',
				problem: stated ? undefined : 'the block does not say the date and command of its run',
			});
		} else {
			figures.push({ value: `<!-- ${name} --> block`, source: `run of ${run.date}, whole block` });
		}
	}
	for (const m of text.matchAll(MEASURED)) {
		const [, date, command, inner] = m;
		const says = inner.includes(date) && inner.includes(`\`${command}\``);
		figures.push({
			value: inner.replace(/\s+/g, ' ').trim(),
			source: `measured on ${date} with \`${command}\``,
			problem: says ? undefined : 'the text does not state its date and command',
		});
	}
	return figures;
}

/** The documents that may quote figures, relative to the repository. */
export function documents(root: string): string[] {
	const docs = readdirSync(join(root, 'docs'))
		.filter((file) => file.endsWith('.md'))
		.sort()
		.map((file) => join('docs', file));
	return ['README.md', 'BENCHMARKS.md', ...docs];
}

export function readRun(root: string): BenchRun {
	return JSON.parse(readFileSync(join(root, LAST_RUN), 'utf8')) as BenchRun;
}

/** Saves the run and rewrites every figure the documents quote; returns the files it changed. */
export function writeRun(root: string, run: BenchRun): string[] {
	writeFileSync(join(root, LAST_RUN), `${JSON.stringify(run, null, '\t')}\n`);
	const changed: string[] = [];
	for (const file of documents(root)) {
		const text = readFileSync(join(root, file), 'utf8');
		const next = render(text, run);
		if (next !== text) {
			writeFileSync(join(root, file), next);
			changed.push(file);
		}
	}
	return changed;
}
