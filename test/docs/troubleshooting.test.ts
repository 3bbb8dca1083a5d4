/* eslint-disable no-console, @n8n/community-nodes/no-restricted-imports -- test: reads the package's sources and the troubleshooting page, and prints the messages it collected */
/**
 * docs/troubleshooting.md has a row for every message a user can see from both nodes, the
 * credential and its Test button, collected from the code (./messages), and says what to do
 * about each; a row whose wording the code no longer gives fails too. A row quotes the message's
 * first sentence, with placeholders (`<host>`, `N`, `…`) where the code fills in a value.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { packageSources, ROOT } from '../helpers/sources';
import { tablesOf } from '../helpers/tables';
import { MessageCollector, PRODUCERS, type Message } from '../helpers/messages';

const PAGE = 'docs/troubleshooting.md';

interface Row {
	where: string;
	message: string;
	todo: string;
}

/** A cell as the user reads the wording: no code marks, emphasis, or closing full stop. */
function plainWording(cell: string): string {
	return cell
		.replace(/`([^`]*)`/g, '$1')
		.replace(/\*\*([^*]*)\*\*/g, '$1')
		.trim()
		.replace(/\.$/, '');
}

/** Rows of every table with a "message" and a "what to do" column. */
function rowsOf(file: string, text: string): Row[] {
	return tablesOf(file, text).flatMap((table) => {
		const m = table.header.indexOf('message');
		const t = table.header.indexOf('what to do');
		if (m < 0 || t < 0) return [];
		return table.rows.map((row, i) => ({
			where: `${file}:${table.lines[i]}`,
			message: plainWording(row[m] ?? ''),
			todo: row[t] ?? '',
		}));
	});
}

const documented = (message: Message, rows: Row[]) =>
	rows.some((row) => message.pattern.test(row.message));

const collector = MessageCollector.fromDisk(ROOT, packageSources());
const messages = collector.collect();
const rows = rowsOf(PAGE, readFileSync(join(ROOT, PAGE), 'utf8'));

describe(`every message a user can see has a row in ${PAGE}`, () => {
	it('the messages are collected from the code (listed here)', () => {
		// The listing: every wording found, where the code gives it.
		console.log(
			`${messages.length} messages collected from nodes/ and credentials/:\n` +
				messages.map((m) => `  ${m.where}  ${m.text}`).join('\n'),
		);
		expect(collector.missingProducers()).toEqual([]);
		expect(PRODUCERS.length).toBeGreaterThan(0);
		expect(messages.length).toBeGreaterThan(100);
		const texts = messages.map((m) => m.text);
		for (const known of [
			'The service gave an answer the node does not know',
			'Rate limit reached…',
			"Select at least one event in 'Trigger On'",
			"'…' must be text, got …",
			'Incomplete list: … of the … records the service reported were read; …',
			'Nothing accepted the connection at … (connection refused)',
			'ContentGen Trigger expects … requests a day (… per idle poll, … polls a day)',
		])
			expect(texts).toContain(known);
	});

	it('each has a row', () => {
		const missing = messages
			.filter((message) => !documented(message, rows))
			.map((m) => `${m.where}: ${m.text}`);
		expect(missing).toEqual([]);
	});

	it('each row quotes a message the code still gives', () => {
		const stale = rows
			.filter((row) => !messages.some((m) => m.pattern.test(row.message)))
			.map((row) => `${row.where}: ${row.message}`);
		expect(stale).toEqual([]);
	});

	it('each row says what to do', () => {
		const silent = rows
			.filter((row) => !/[A-Za-z]{2,}/.test(row.todo) || /^as above\.?$/i.test(row.todo.trim()))
			.map((row) => `${row.where}: ${row.message}`);
		expect(rows.length).toBeGreaterThan(80);
		expect(silent).toEqual([]);
	});
});

describe('the collector can fail', () => {
	const collect = (text: string) =>
		new MessageCollector(ROOT, [{ file: 'nodes/x.ts', text }]).collect().map((m) => m.text);

	it('a new message without a row is reported, whatever way the code words it', () => {
		const found = collect(
			[
				"import { NodeOperationError } from 'n8n-workflow';",
				"const WIDGET = 'widget';",
				'function check(node: unknown, id: string, late: boolean) {',
				'  const why = late ? `The ${WIDGET} ${id} came too late` : "The widget was upside down";',
				'  if (id) throw new NodeOperationError(node, why);',
				'  return { message: `Widget ${id} is missing`, hint: "Look under the sofa" };',
				'}',
			].join('\n'),
		);
		expect(found).toEqual([
			'The widget … came too late',
			'The widget was upside down',
			'Widget … is missing',
		]);
		const page = rowsOf(
			'x.md',
			'| message | what to do |\n|---|---|\n| The widget was upside down | Turn it over. |',
		);
		const undocumented = new MessageCollector(ROOT, [
			{ file: 'nodes/x.ts', text: "throw new UserError('The widget is new');" },
		])
			.collect()
			.filter((m) => !documented(m, page));
		expect(undocumented.map((m) => m.text)).toEqual(['The widget is new']);
	});

	it('a row with a placeholder documents the message whatever the value; another wording does not', () => {
		const [message] = new MessageCollector(ROOT, [
			{
				file: 'nodes/x.ts',
				text: 'throw new AddressError(`${host} is plain http; only https addresses are fetched`);\nclass AddressError extends Error {}',
			},
		]).collect();
		expect(message.pattern.test('<host> is plain http; only https addresses are fetched')).toBe(
			true,
		);
		expect(message.pattern.test('<host> is plain http')).toBe(false);
	});

	it('a message assembled only from other messages is not one of its own', () => {
		expect(collect('throw new Error(`${error.message}. ${hint}`);')).toEqual([]);
	});
});
