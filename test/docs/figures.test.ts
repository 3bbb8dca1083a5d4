/* eslint-disable no-console, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test: reads the docs and the last benchmark run from the repository folder, and prints the figures it checked */
/**
 * Every figure the docs quote is the last benchmark run's (bench/last-run.json, written by
 * `npm run bench -- --write`): a figure edited by hand, or left behind by a newer run, fails here.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import {
	documents,
	meetsTarget,
	quotedFigures,
	readRun,
	render,
	table,
	type BenchRow,
	type BenchRun,
} from '../../bench/figures';

const ROOT = join(__dirname, '..', '..');

/** The lines where `actual` differs from `expected`, as "line N: actual -> expected". */
function differences(actual: string, expected: string): string[] {
	const a = actual.split('\n');
	const b = expected.split('\n');
	const out: string[] = [];
	for (let i = 0; i < Math.max(a.length, b.length); i++) {
		if (a[i] !== b[i])
			out.push(`line ${i + 1}: ${a[i] ?? '(none)'}\n   the run: ${b[i] ?? '(none)'}`);
	}
	return out;
}

const row = (over: Partial<BenchRow>): BenchRow => ({
	section: 'requests',
	name: 'a benchmark',
	measured: '1',
	reference: '1',
	ratio: '1.00',
	target: '1.00',
	...over,
});

const run = (rows: BenchRow[]): BenchRun => ({
	date: '2026-01-01',
	command: 'npm run bench -- --write',
	seconds: 1,
	machine: 'test',
	loadAtStart: 0,
	runs: 5,
	loadRuns: 7,
	rows,
	notes: [],
});

describe('figures in the docs', () => {
	const last = readRun(ROOT);

	it.each(documents(ROOT))('%s quotes the figures of the last benchmark run', (file) => {
		const text = readFileSync(join(ROOT, file), 'utf8');
		expect({ file, differences: differences(text, render(text, last)) }).toEqual({
			file,
			differences: [],
		});
	});

	it('every figure the docs quote has its source: the last run, or a dated past measurement (listed here)', () => {
		const listing: string[] = [];
		const problems: string[] = [];
		for (const file of documents(ROOT)) {
			for (const figure of quotedFigures(readFileSync(join(ROOT, file), 'utf8'), last)) {
				listing.push(`  ${file}: ${figure.value.slice(0, 90)}  <-  ${figure.source}`);
				if (figure.problem) problems.push(`${file}: ${figure.value}: ${figure.problem}`);
			}
		}
		console.log(`Figures the docs quote, and where each comes from:\n${listing.join('\n')}`);
		expect(listing.length).toBeGreaterThan(15);
		expect(problems).toEqual([]);
	});

	it("the trigger's cost table multiplies the run's idle polls by the polls a day", () => {
		const idle = (name: string, measured: string) =>
			row({ section: 'trigger', name, measured, reference: measured });
		const figures = run([
			idle('article trigger, idle poll (10,000 records)', '1'),
			idle(
				'social trigger, idle poll, socialFinished + socialFailed, 10,000 records in every status',
				'4',
			),
			idle(
				'social trigger, idle poll, socialScheduled + socialPublished, 10,000 records in every status',
				'9',
			),
		]);
		const table = render(
			'<!-- bench:trigger-cost:start -->\n<!-- bench:trigger-cost:end -->',
			figures,
		).split('\n');
		expect(table).toContain(
			'| every minute | social: Finished and/or Failed only | 4 | 5,760 | 115.2 % (warns) | 11.5 % | unlimited |',
		);
		expect(table).toContain(
			'| every 5 minutes | articles + social (any) | 10 | 2,880 | 57.6 % (warns) | 5.8 % | unlimited |',
		);
		expect(() =>
			render('<!-- bench:trigger-cost:start -->\n<!-- bench:trigger-cost:end -->', run([])),
		).toThrow(/no idle-poll row/);
	});

	it('a past measurement must say its date and command in its own words', () => {
		const said = quotedFigures(
			'<!-- measured: 2026-11-20 | npm run bench -->Measured on 2026-11-20 with `npm run bench`: 64 requests.<!-- /measured -->',
			run([]),
		);
		expect(said).toEqual([
			expect.objectContaining({ source: 'measured on 2026-11-20 with `npm run bench`' }),
		]);
		expect(said[0].problem).toBeUndefined();
		const unsaid = quotedFigures(
			'<!-- measured: 2026-11-20 | npm run bench -->Once it took 64 requests.<!-- /measured -->',
			run([]),
		);
		expect(unsaid[0].problem).toBe('the text does not state its date and command');
		const undated = quotedFigures(
			'<!-- bench:n8n:start -->\n| a |\n<!-- bench:n8n:end -->',
			run([]),
		);
		expect(undated[0].problem).toBe('the block does not say the date and command of its run');
	});

	it('the README and BENCHMARKS.md hold the generated summary and table', () => {
		expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('<!-- bench:summary:start -->');
		expect(readFileSync(join(ROOT, 'BENCHMARKS.md'), 'utf8')).toContain(
			'<!-- bench:unit:start -->',
		);
		expect(last.rows.length).toBeGreaterThan(10);
	});

	it('a figure edited by hand is caught', () => {
		const quoted = 'an idle poll is <!-- bench: idle poll | measured -->1<!-- /bench --> request';
		const figures = run([row({ name: 'idle poll', measured: '2' })]);
		expect(render(quoted, figures)).toBe(
			'an idle poll is <!-- bench: idle poll | measured -->2<!-- /bench --> request',
		);
	});

	it('a figure of a row the run does not have is an error, not left alone', () => {
		expect(() => render('<!-- bench: gone | ratio -->1.00<!-- /bench -->', run([row({})]))).toThrow(
			'the last run has no row "gone"',
		);
		expect(() =>
			render('<!-- bench:other:start -->\nx\n<!-- bench:other:end -->', run([])),
		).toThrow('no renderer for <!-- bench:other:start -->');
	});

	it('the summary counts the trigger rows among request counts and names every missed target', () => {
		const figures = run([
			row({ name: 'idle poll' }),
			row({
				section: 'trigger',
				name: 'catch-up',
				measured: '26 in 1 poll',
				ratio: '1.04',
				target: '-',
			}),
			row({ section: 'throughput', name: 'return all', ratio: '0.76', target: '>= 0.90' }),
		]);
		const summary = render(
			'<!-- bench:summary:start -->\n<!-- bench:summary:end -->',
			figures,
		).replace(/\s+/g, ' ');
		expect(summary).toContain('1 of 2 request counts are at (or under) their minimum');
		expect(summary).toContain('the other 1 take 1.04 times it');
		expect(summary).toContain('Rows that miss their target: return all (0.76 against >= 0.90).');
		expect(summary).not.toMatch(/every request count/i);
	});

	it('a scenario that did not finish is named in the summary, not counted as a request count', () => {
		const figures = run([
			row({ name: 'idle poll' }),
			row({
				section: 'trigger',
				name: 'burst',
				measured: 'did not finish: not done after 20 polls',
				reference: '-',
				ratio: '-',
				target: '-',
			}),
		]);
		const summary = render(
			'<!-- bench:summary:start -->\n<!-- bench:summary:end -->',
			figures,
		).replace(/\s+/g, ' ');
		expect(summary).toContain('1 of 1 request counts are at (or under) their minimum.');
		expect(summary).toContain('Did not finish: burst.');
	});
});

describe('targets', () => {
	it.each([
		['1.00', '1.00', true],
		['1.04', '1.00', false],
		['1.02', '<= 1.10', true],
		['1.12', '<= 1.10', false],
		['0.76', '>= 0.90', false],
		['0.95', '>= 0.90', true],
		['0.84', '< 1.00', true],
		['1.00', '< 1.00', false],
		['2.40', '(time ratio; lower is better)', null],
		['-', '-', null],
	])('ratio %s against target %s: %s', (ratio, target, met) => {
		expect(meetsTarget(ratio, target)).toBe(met);
	});

	it('a row that misses its target says so in the table', () => {
		const lines = table([
			row({ name: 'met', ratio: '1.00' }),
			row({ name: 'missed', ratio: '0.76', target: '>= 0.90' }),
			row({ name: 'no target', ratio: '-', target: '-' }),
		]);
		expect(lines[0]).toMatch(/\| target met \|$/);
		expect(lines.find((l) => l.includes('| met '))).toMatch(/\| met\s+\|$/);
		expect(lines.find((l) => l.includes('| missed '))).toMatch(/\| \*\*missed\*\* \|$/);
		expect(lines.find((l) => l.includes('| no target '))).toMatch(/\| -\s+\|$/);
	});
});
