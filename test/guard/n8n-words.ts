/**
 * n8n's rules on words that `n8n-node lint` cannot read because they are built by code: option
 * names generated from lists (Output > Selected Fields), descriptions written as template literals,
 * messages put together at run time, and the trigger's description. Option names are in Title
 * Case; the copy users read names no API key (`article_id`), and a description of several
 * sentences ends with a period; a message names a parameter by its display name in single quotes;
 * a trigger's description starts "Starts the workflow when", as n8n's own triggers' do. Each rule
 * is a pure function, fed one injected miss each below.
 */
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { ContentGenApi } from '../../credentials/ContentGenApi.credentials';
import { ContentGen } from '../../nodes/ContentGen/ContentGen.node';
import { ContentGenTrigger } from '../../nodes/ContentGenTrigger/ContentGenTrigger.node';
import { MessageCollector } from '../helpers/messages';
import { packageSources, ROOT } from '../helpers/sources';

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every parameter, option and collection entry of a list of properties, with where it is. */
function entries(properties: INodeProperties[], where: string): Array<[string, Entry]> {
	return properties.flatMap((p) => {
		const at = `${where} ${p.name}`;
		const children = (p.options ?? []) as Entry[];
		const nested = children.flatMap((child): Array<[string, Entry]> => {
			if ('type' in child) return entries([child], at);
			if ('values' in child) return [[`${at}.${child.name}`, child], ...entries(child.values, at)];
			return [[`${at} "${child.name}"`, child]];
		});
		return [[at, p] as [string, Entry], ...nested];
	});
}

/** Words Title Case leaves in lower case. */
const MINOR = new Set(
	'a an and as at but by for from in into of on or per the to via vs with'.split(' '),
);

/** Option names (the entries of a list, generated ones included) in Title Case, no API keys. */
export function optionNameProblems(description: INodeTypeDescription): string[] {
	return entries(description.properties, description.name)
		.filter(([, e]) => !('type' in e) && !('values' in e))
		.map(([at, e]) => [at, String((e as INodePropertyOptions).name)] as const)
		.filter(([, name]) =>
			name
				.split(/[\s/]+/)
				.map((word) => word.replace(/^[("'[]+/, ''))
				.some(
					(word, i) =>
						word.includes('_') ||
						(i > 0 && /^[a-z]/.test(word) && !MINOR.has(word)) ||
						(/^[a-z]/.test(word) && i === 0),
				),
		)
		.map(([at, name]) => `${at}: option name "${name}" is not in Title Case`);
}

/** The texts a user reads in the panel: descriptions, hints, notices, option descriptions. */
function copyOf(description: INodeTypeDescription): Array<[string, string]> {
	return entries(description.properties, description.name).flatMap(([at, e]) => {
		const texts: Array<[string, string]> = [];
		if ('description' in e && typeof e.description === 'string') texts.push([at, e.description]);
		if ('hint' in e && typeof e.hint === 'string') texts.push([`${at} (hint)`, e.hint]);
		if ('type' in e && e.type === 'notice') texts.push([`${at} (notice)`, e.displayName]);
		return texts;
	});
}

/** Several sentences: a full stop, "?" or "!" followed by a capital (not "e.g." or "i.e."). */
const severalSentences = (text: string) =>
	/[^.\s][.!?]\s+[A-Z'"]/.test(text.replace(/\b(e\.g|i\.e|etc)\./g, '$1'));

/**
 * Copy without API keys (the binary fields the node itself names, `image_<platform>`, are n8n's
 * words), and a description of several sentences closed by a period.
 */
export function copyProblems(description: INodeTypeDescription): string[] {
	const problems: string[] = [];
	for (const [at, text] of copyOf(description)) {
		const key = /(?<![{$.\w])(?!image_)[a-z]+(?:_[a-z0-9]+)+\b/.exec(
			text.replace(/\{\{[\s\S]*?\}\}/g, ''),
		);
		if (key) problems.push(`${at}: names the API's '${key[0]}'`);
		if (severalSentences(text) && !/[.)]$/.test(text.trim()))
			problems.push(`${at}: several sentences without a final period`);
	}
	return problems;
}

/** A trigger's description as n8n's triggers write it. */
export function triggerDescriptionProblems(description: INodeTypeDescription): string[] {
	return description.description.startsWith('Starts the workflow when')
		? []
		: [
				`${description.name}: description "${description.description.slice(0, 40)}…" does not start "Starts the workflow when"`,
			];
}

/** Display names of two words or more (one word reads as a plain word in a sentence). */
export function displayNames(...lists: INodeProperties[][]): string[] {
	const names = lists.flatMap((list) =>
		entries(list, '')
			.map(([, e]) => e)
			.filter((e): e is INodeProperties => 'type' in e && e.type !== 'notice')
			.flatMap((p) => [p.displayName, p.displayName.replace(/ \([^)]*\)$/, '')]),
	);
	return [...new Set(names)]
		.filter((name) => name.includes(' '))
		.sort((a, b) => b.length - a.length);
}

/** A message that names a parameter without its single quotes. */
export function messageQuoteProblems(
	messages: Array<{ where: string; text: string }>,
	names: string[],
): string[] {
	return messages.flatMap(({ where, text }) =>
		names
			.filter((name) =>
				new RegExp(`(?<!['\\w])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w'])`).test(
					text.replace(/'[A-Z][^'\n]*'/g, "''"),
				),
			)
			.slice(0, 1)
			.map((name) => `${where}: names ${name} without single quotes: "${text}"`),
	);
}

const action = new ContentGen().description;
const trigger = new ContentGenTrigger().description;
const credential = new ContentGenApi().properties;
// n8n gives every polling node its 'Poll Times'.
const names = [...displayNames(action.properties, trigger.properties, credential), 'Poll Times'];
const messages = MessageCollector.fromDisk(ROOT, packageSources()).collect();

describe("n8n's rules on words built by code", () => {
	it('option names, generated ones too, are in Title Case', () => {
		expect([...optionNameProblems(action), ...optionNameProblems(trigger)]).toEqual([]);
	});
	it('copy names no API key; several sentences end with a period', () => {
		expect([...copyProblems(action), ...copyProblems(trigger)]).toEqual([]);
	});
	it('the trigger\'s description starts "Starts the workflow when"', () => {
		expect(triggerDescriptionProblems(trigger)).toEqual([]);
	});
	it('messages collected from the code quote the parameters they name', () => {
		expect(names).toEqual(expect.arrayContaining(['Minimum Balance to Keep', 'Time Zone']));
		expect(messageQuoteProblems(messages, names)).toEqual([]);
	});
});

describe("n8n's rules on words can fail: one injected miss each", () => {
	it('a generated option named by its key', () => {
		const raw = {
			...action,
			properties: action.properties.map((p) =>
				p.name === 'fields' ? { ...p, options: [{ name: 'created_at', value: 'created_at' }] } : p,
			),
		};
		expect(optionNameProblems(raw)[0]).toMatch(
			/fields "created_at": option name "created_at" is not in Title Case$/,
		);
	});
	it("a template literal's description with an API key and no final period", () => {
		const field = 'article_id';
		const bad = {
			...trigger,
			properties: [
				...trigger.properties,
				{
					displayName: 'X',
					name: 'x',
					type: 'string' as const,
					default: '',
					description: `Outputs the ${field} at once. Then waits`,
				},
			],
		};
		expect(copyProblems(bad)).toEqual([
			"contentGenTrigger x: names the API's 'article_id'",
			'contentGenTrigger x: several sentences without a final period',
		]);
	});
	it('a trigger described as an action node', () => {
		expect(triggerDescriptionProblems({ ...trigger, description: 'Generate articles' })).toEqual([
			'contentGenTrigger: description "Generate articles…" does not start "Starts the workflow when"',
		]);
	});
	it('a message naming a parameter without quotes', () => {
		const injected = MessageCollector.fromDisk(ROOT, [])
			.collect()
			.concat([{ where: 'x.ts:1', text: 'Time Zone must be an IANA time zone, got …' } as never]);
		expect(messageQuoteProblems(injected, names)).toEqual([
			'x.ts:1: names Time Zone without single quotes: "Time Zone must be an IANA time zone, got …"',
		]);
	});
});
