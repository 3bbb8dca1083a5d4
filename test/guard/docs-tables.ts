/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the documentation from disk */
/**
 * The documentation's tables of operations and events name exactly what the nodes offer. Tables
 * are found by their shape wherever they are (README.md, docs/**): an operations table has
 * "resource" and "operation" columns, an events table starts with an "event" column.
 */
import { readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';

import { nodeOperations, triggerEvents } from '../helpers/maps';
import { tablesOf, type Table } from '../helpers/tables';

const ROOT = join(__dirname, '..', '..');

function markdownFiles(): string[] {
	const docs = join(ROOT, 'docs');
	const walk = (dir: string): string[] =>
		readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
			entry.isDirectory()
				? walk(join(dir, entry.name))
				: entry.name.endsWith('.md')
					? [join(dir, entry.name)]
					: [],
		);
	return [join(ROOT, 'README.md'), ...walk(docs)];
}

/** Plain words of a cell: no emphasis, code marks, links or parenthesised remarks. */
const plain = (cell: string) =>
	cell
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[*_`]/g, '')
		.replace(/\([^)]*\)/g, '')
		.trim();

/** "Social Content Scheduled / Published" names two events: the second replaces the last word. */
function eventNamesOf(cell: string): string[] {
	const [first, ...rest] = plain(cell).split(/\s*\/\s*/);
	const stem = first.split(' ').slice(0, -1).join(' ');
	return [first, ...rest.map((word) => `${stem} ${word}`)];
}

/** The operations a table names, as "Resource: Operation", for resources the node has. */
function operationsNamed(table: Table, resources: string[]): string[] {
	const r = table.header.indexOf('resource');
	const o = table.header.indexOf('operation');
	return table.rows.flatMap((row) => {
		const resource = plain(row[r] ?? '');
		if (!resources.includes(resource)) return [];
		return plain(row[o] ?? '')
			.split(',')
			.map((name) => `${resource}: ${name.trim()}`)
			.filter((name) => !name.endsWith(': '));
	});
}

const tables = markdownFiles().flatMap((file) =>
	tablesOf(relative(ROOT, file), readFileSync(file, 'utf8')),
);
const operationTables = tables.filter(
	(t) => t.header.includes('resource') && t.header.includes('operation'),
);
const eventTables = tables.filter((t) => t.header[0] === 'event');

const sorted = (list: string[]) => [...new Set(list)].sort();

describe('documentation tables match the maps', () => {
	it('there is a table of operations and a table of events', () => {
		expect(operationTables.length).toBeGreaterThan(0);
		expect(eventTables.length).toBeGreaterThan(0);
	});

	const operations = nodeOperations();
	const resources = sorted(operations.map((o) => o.resourceName));
	const wantedOperations = sorted(operations.map((o) => `${o.resourceName}: ${o.operationName}`));
	it.each(operationTables.map((t) => [`${t.file}, table "${t.header.join(' | ')}"`, t] as const))(
		'%s names every operation and no other',
		(_name, table) => {
			expect(sorted(operationsNamed(table, resources))).toEqual(wantedOperations);
		},
	);

	const wantedEvents = sorted(triggerEvents().map((e) => e.name));
	it.each(eventTables.map((t) => [`${t.file}, table "${t.header.join(' | ')}"`, t] as const))(
		'%s names every event and no other',
		(_name, table) => {
			expect(sorted(table.rows.flatMap((row) => eventNamesOf(row[0])))).toEqual(wantedEvents);
		},
	);
});

describe('the table reader can fail', () => {
	const text = [
		'| resource | operation | scope |',
		'|---|---|---|',
		'| Article | Get, **Get Many** (filters) | articles |',
		'| Trigger | all events | any |',
		'',
		'| event | fires when |',
		'|---|---|',
		'| Social Content Scheduled / Published | x |',
	].join('\n');
	const [ops, events] = tablesOf('x.md', text);

	it('reads names out of markup and remarks, skipping rows of other things', () => {
		expect(operationsNamed(ops, ['Article'])).toEqual(['Article: Get', 'Article: Get Many']);
	});

	it('expands a shared stem', () => {
		expect(eventNamesOf(events.rows[0][0])).toEqual([
			'Social Content Scheduled',
			'Social Content Published',
		]);
	});
});
