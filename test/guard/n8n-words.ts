/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: reads the package's sources */
/**
 * n8n's rules on words that `n8n-node lint` cannot read because they are built by code: option
 * names generated from lists (Output > Selected Fields), descriptions written as template literals,
 * messages put together at run time, and the trigger's description. Option names are in Title
 * Case; the copy users read names no API key (`article_id`), and a description of several
 * sentences ends with a period; every text of the code names a parameter by its display name in
 * single quotes; a trigger's description starts "Starts the workflow when", as n8n's own
 * triggers' do. Each rule is a pure function, fed one injected miss each below.
 */
import { readFileSync } from 'fs';
import { relative } from 'path';
import ts from 'typescript';
import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { ContentGenApi } from '../../credentials/ContentGenApi.credentials';
import { ContentGen } from '../../nodes/ContentGen/ContentGen.node';
import { ContentGenTrigger } from '../../nodes/ContentGenTrigger/ContentGenTrigger.node';
import { lineOf } from '../helpers/ast';
import { packageSources, ROOT } from '../helpers/sources';

type Entry = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** Every parameter, option and collection entry of a list of properties, with where it is. */
export function entries(properties: INodeProperties[], where: string): Array<[string, Entry]> {
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

/**
 * The texts a user reads in the panel of a node or credential: descriptions, hints, notices,
 * placeholders, option descriptions.
 */
export function copyOf(properties: INodeProperties[], where: string): Array<[string, string]> {
	return entries(properties, where).flatMap(([at, e]) => {
		const texts: Array<[string, string]> = [];
		if ('description' in e && typeof e.description === 'string') texts.push([at, e.description]);
		if ('hint' in e && typeof e.hint === 'string') texts.push([`${at} (hint)`, e.hint]);
		if ('placeholder' in e && typeof e.placeholder === 'string')
			texts.push([`${at} (placeholder)`, e.placeholder]);
		if ('type' in e && e.type === 'notice') texts.push([`${at} (notice)`, e.displayName]);
		return texts;
	});
}

/**
 * The words of this repository's own set-up (the sandbox, its port, Docker's name for the host),
 * which mean nothing to a user of the service; docs/sandbox.md is where they belong.
 */
const DEVELOPMENT = /\bsandbox\b|host\.docker\.internal|:8787\b/i;

/** Several sentences: a full stop, "?" or "!" followed by a capital (not "e.g." or "i.e."). */
const severalSentences = (text: string) =>
	/[^.\s][.!?]\s+[A-Z'"]/.test(text.replace(/\b(e\.g|i\.e|etc)\./g, '$1'));

/**
 * Copy without API keys (the binary fields the node itself names, `image_<platform>`, are n8n's
 * words, and `svc_` begins every key the service shows) and without the development set-up's words, and a description of several sentences
 * closed by a period.
 */
export function copyProblems(properties: INodeProperties[], where: string): string[] {
	const problems: string[] = [];
	for (const [at, text] of copyOf(properties, where)) {
		const key = /(?<![{$.\w])(?!image_|svc_)[a-z]+(?:_[a-z0-9]+)+\b/.exec(
			text.replace(/\{\{[\s\S]*?\}\}/g, ''),
		);
		if (key) problems.push(`${at}: names the API's '${key[0]}'`);
		const jargon = DEVELOPMENT.exec(text);
		if (jargon) problems.push(`${at}: speaks of the development set-up ('${jargon[0]}')`);
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

/** Every label of the panel: parameter display names (notices aside) and option names. */
export function labelsOf(...lists: INodeProperties[][]): Set<string> {
	return new Set(
		lists.flatMap((list) =>
			entries(list, '').flatMap(([, e]) =>
				'type' in e && e.type === 'notice'
					? []
					: [String('displayName' in e ? e.displayName : e.name)],
			),
		),
	);
}

/**
 * Every text the package's code holds, wherever it goes: thrown errors and their descriptions,
 * execution hints, the refusals' hints, notices, log lines, output notes (`status_note`), tooltips.
 * A string or a template (its parts at run time as "…"), at its file and line; what is only a
 * label (a display name given as a field's name to a check, an option name) is left out.
 */
export function textsOf(
	files: Array<{ file: string; text: string }>,
	labels: Set<string>,
): Array<{ where: string; text: string }> {
	return files.flatMap(({ file, text }) => {
		const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
		const found: Array<{ where: string; text: string }> = [];
		const visit = (node: ts.Node): void => {
			if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node))
				return;
			let wording: string | undefined;
			if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) wording = node.text;
			if (ts.isTemplateExpression(node))
				wording = node.head.text + node.templateSpans.map((s) => `…${s.literal.text}`).join('');
			if (wording !== undefined && !labels.has(wording))
				found.push({ where: `${file}:${lineOf(sf, node)}`, text: wording });
			ts.forEachChild(node, visit);
		};
		visit(sf);
		return found;
	});
}

/** Texts a user reads (errors, hints, log lines) that speak of the development set-up. */
export const developmentProblems = (messages: Array<{ where: string; text: string }>): string[] =>
	messages
		.filter(({ text }) => DEVELOPMENT.test(text))
		.map(({ where, text }) => `${where}: speaks of the development set-up: "${text}"`);

/**
 * A text that names a parameter without its single quotes. A name followed by " > " is a step of
 * a path to a field ("Options > 'On Incomplete List'"), as n8n's panel shows the collection.
 */
export function messageQuoteProblems(
	messages: Array<{ where: string; text: string }>,
	names: string[],
): string[] {
	return messages.flatMap(({ where, text }) =>
		names
			.filter((name) =>
				new RegExp(`(?<!['\\w])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w']| > ')`).test(
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
const labels = labelsOf(action.properties, trigger.properties, credential);
const sources = packageSources().map((path) => ({
	file: relative(ROOT, path),
	text: readFileSync(path, 'utf8'),
}));
const texts = textsOf(sources, labels);

describe("n8n's rules on words built by code", () => {
	it('option names, generated ones too, are in Title Case', () => {
		expect([...optionNameProblems(action), ...optionNameProblems(trigger)]).toEqual([]);
	});
	it("copy, the credential's too, names no API key and no development set-up; several sentences end with a period", () => {
		expect([
			...copyProblems(action.properties, action.name),
			...copyProblems(trigger.properties, trigger.name),
			...copyProblems(credential, 'contentGenApi'),
		]).toEqual([]);
	});
	it('the trigger\'s description starts "Starts the workflow when"', () => {
		expect(triggerDescriptionProblems(trigger)).toEqual([]);
	});
	it('every text of the code quotes the parameters it names', () => {
		expect(names).toEqual(expect.arrayContaining(['Minimum Balance to Keep', 'Time Zone']));
		expect(texts.length).toBeGreaterThan(1000);
		expect(messageQuoteProblems(texts, names)).toEqual([]);
	});
	it('no text of the code speaks of the development set-up', () => {
		expect(developmentProblems(texts)).toEqual([]);
	});
});

describe("n8n's rules on words can fail: one injected miss each", () => {
	it('a message that speaks of the development set-up', () => {
		expect(
			developmentProblems([
				{ where: 'x.ts:1', text: 'Start the sandbox first' },
				{ where: 'x.ts:2', text: 'Check the Base URL' },
			]),
		).toEqual(['x.ts:1: speaks of the development set-up: "Start the sandbox first"']);
	});
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
		expect(copyProblems(bad.properties, bad.name)).toEqual([
			"contentGenTrigger x: names the API's 'article_id'",
			'contentGenTrigger x: several sentences without a final period',
		]);
	});
	it("the credential's tooltip pointing at the sandbox", () => {
		const before = credential.map((p) =>
			p.name === 'allowPrivateHttp'
				? {
						...p,
						description:
							'Whether to send the key over plain http, such as to the local sandbox reached from n8n in Docker at http://host.docker.internal:8787',
					}
				: p,
		);
		expect(copyProblems(before, 'contentGenApi')).toEqual([
			"contentGenApi allowPrivateHttp: speaks of the development set-up ('sandbox')",
		]);
	});
	it('a trigger described as an action node', () => {
		expect(triggerDescriptionProblems({ ...trigger, description: 'Generate articles' })).toEqual([
			'contentGenTrigger: description "Generate articles…" does not start "Starts the workflow when"',
		]);
	});
	it('a parameter named without quotes, wherever the words go', () => {
		const source = [
			"throw new NodeOperationError(node, 'Time Zone must be an IANA time zone', {",
			'\tdescription: `Raise Request Timeout to ${seconds} s`,',
			'});',
			"const refusal = { message: 'Redirected', hint: 'Update the Base URL' };",
			"this.addExecutionHints({ message: 'Lower Parallel Requests', type: 'warning' });",
			'this.logger.warn(`set Poll Times to ${choice}`);',
			"out.status_note = 'over Posts per Slot';",
			"const quoted = 'Raise \\'Request Timeout\\' under Options > \\'Time Zone\\'';",
			"assertOneOf('Time Zone', value, ZONES);",
		].join('\n');
		expect(messageQuoteProblems(textsOf([{ file: 'x.ts', text: source }], labels), names)).toEqual([
			'x.ts:1: names Time Zone without single quotes: "Time Zone must be an IANA time zone"',
			'x.ts:2: names Request Timeout without single quotes: "Raise Request Timeout to … s"',
			'x.ts:4: names Base URL without single quotes: "Update the Base URL"',
			'x.ts:5: names Parallel Requests without single quotes: "Lower Parallel Requests"',
			'x.ts:6: names Poll Times without single quotes: "set Poll Times to …"',
			'x.ts:7: names Posts per Slot without single quotes: "over Posts per Slot"',
		]);
	});
});
