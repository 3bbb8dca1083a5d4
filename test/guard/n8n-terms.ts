/**
 * n8n's "one term per thing" and "explain an optional field's default" (node UI design), where
 * code can hold them: a platform is named by its label wherever a label names it ('LinkedIn', not
 * the 'Linkedin' of a field key); events that are the same change of an article and of social
 * content say it with the same words; the panel calls an item's end 'Stop the Item', never
 * "fail"; a list or number of an Options collection says its default. Each rule is a pure
 * function, fed one injected miss each below.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ContentGenApi } from '../../credentials/ContentGenApi.credentials';
import { ContentGen } from '../../nodes/ContentGen/ContentGen.node';
import { ContentGenTrigger } from '../../nodes/ContentGenTrigger/ContentGenTrigger.node';
import {
	EVENT_NAMES,
	EVENTS,
	matching,
	type RecordKind,
	type TriggerEvent,
} from '../../nodes/ContentGenTrigger/events';
import { platformOptions } from '../../nodes/shared/domain/platforms';
import { ARTICLE_LIFECYCLE, SOCIAL_LIFECYCLE } from '../../nodes/shared/domain/statuses';
import { copyOf, entries, labelsOf } from './n8n-words';

/** Labels that name a platform by its value ('Twitter', 'Linkedin') instead of its label. */
export function platformNameProblems(
	labels: Iterable<string>,
	platforms: INodePropertyOptions[],
): string[] {
	return [...labels].flatMap((label) =>
		platforms
			.filter(({ name, value }) => {
				const word = new RegExp(`(^|[^\\w-])${String(value)}([^\\w-]|$)`, 'i');
				return word.test(label) && !label.includes(name);
			})
			.map(({ name }) => `'${label}' names ${name} otherwise`),
	);
}

type Change = Record<RecordKind, [previous: string, status: string]>;

/** Changes that are the same for both kinds of record, each as one move of its lifecycle. */
export const SAME_CHANGES: Record<string, Change> = {
	'finished generating': {
		article: [ARTICLE_LIFECYCLE.pending[0], ARTICLE_LIFECYCLE.complete[0]],
		social: [SOCIAL_LIFECYCLE.pending[0], SOCIAL_LIFECYCLE.finished[0]],
	},
	'could not be generated': {
		article: [ARTICLE_LIFECYCLE.pending[0], ARTICLE_LIFECYCLE.failed[0]],
		social: [SOCIAL_LIFECYCLE.pending[0], SOCIAL_LIFECYCLE.failed[0]],
	},
	'moved between two finished statuses': {
		article: [ARTICLE_LIFECYCLE.complete[0], ARTICLE_LIFECYCLE.complete[1]],
		social: [SOCIAL_LIFECYCLE.finished[0], SOCIAL_LIFECYCLE.finished[1]],
	},
};

/** The words an event's name adds to its kind's (what all names of the kind begin with). */
function changeWords(names: Record<TriggerEvent, string>, event: TriggerEvent): string {
	const kind = EVENTS[event].kind;
	const same = EVENT_NAMES.filter((e) => EVENTS[e].kind === kind).map((e) => names[e]);
	let prefix = same[0];
	while (!same.every((name) => name.startsWith(prefix))) prefix = prefix.slice(0, -1);
	return names[event].slice(prefix.lastIndexOf(' ') + 1);
}

/** Events that report the same change of an article and of social content, named alike. */
export function eventTermProblems(names: Record<TriggerEvent, string>): string[] {
	return Object.entries(SAME_CHANGES).flatMap(([change, moves]) => {
		const [article, social] = (['article', 'social'] as const).map(
			(kind) => matching(EVENT_NAMES, kind, ...moves[kind])[0],
		);
		const words = [changeWords(names, article), changeWords(names, social)];
		return words[0] === words[1]
			? []
			: [`'${names[article]}' and '${names[social]}' both say a record ${change}`];
	});
}

/** The panel's word for an item's end is 'Stop the Item' (On Timeout, On Incomplete List). */
export function itemEndProblems(properties: INodeProperties[], where: string): string[] {
	const optionNames = entries(properties, where)
		.filter(([, e]) => !('type' in e) && !('values' in e))
		.map(([at, e]): [string, string] => [at, String(e.name)]);
	return [...copyOf(properties, where), ...optionNames]
		.filter(([, text]) => /\bfail(s|ing)?\b/i.test(text))
		.map(([at, text]) => `${at}: says "fail" for 'Stop the Item': "${text}"`);
}

/**
 * The Options collections: settings the node applies with their default when the user adds none.
 * A list or a number there says its default: its description names it beside "default", or the
 * default choice's own description says it is.
 */
export function defaultProblems(properties: INodeProperties[], where: string): string[] {
	return entries(properties, where).flatMap(([at, e]) => {
		if (!('type' in e) || !['options', 'number'].includes(e.type)) return [];
		if (!at.startsWith(`${where} options `)) return [];
		const text = e.description ?? '';
		const choice = (e.options as INodePropertyOptions[] | undefined)?.find(
			(o) => o.value === e.default,
		);
		const value = choice ? choice.name : String(e.default);
		const named = choice
			? text.toLowerCase().includes(value.toLowerCase())
			: new RegExp(`(^|[^\\d.])${value.replace('.', '\\.')}(?!\\d)`).test(text);
		const said =
			(named && /\bdefaults?\b/i.test(text)) || /\bdefault\b/.test(choice?.description ?? '');
		return said ? [] : [`${at}: does not say its default (${choice ? `'${value}'` : value})`];
	});
}

const action = new ContentGen().description;
const trigger = new ContentGenTrigger().description;
const credential = new ContentGenApi().properties;
const eventNames = Object.fromEntries(EVENT_NAMES.map((e) => [e, EVENTS[e].name])) as Record<
	TriggerEvent,
	string
>;

describe('one term per thing, defaults explained', () => {
	const unique = (problems: string[]) => [...new Set(problems)];
	it('a platform is named by its label in every label', () => {
		const labels = labelsOf(action.properties, trigger.properties, credential);
		expect(labels.size).toBeGreaterThan(100);
		expect(platformNameProblems(labels, platformOptions)).toEqual([]);
	});
	it('events that are the same change of both kinds are named alike', () => {
		expect(eventTermProblems(eventNames)).toEqual([]);
	});
	it('the panel ends an item with \'Stop the Item\', never "fail"', () => {
		expect(
			unique([
				...itemEndProblems(action.properties, action.name),
				...itemEndProblems(trigger.properties, trigger.name),
			]),
		).toEqual([]);
	});
	it('a list or number of an Options collection says its default', () => {
		expect(
			unique([
				...defaultProblems(action.properties, action.name),
				...defaultProblems(trigger.properties, trigger.name),
			]),
		).toEqual([]);
	});
});

describe('one term per thing, defaults explained, can fail: one injected miss each', () => {
	it('field labels that spell platforms as their keys do', () => {
		const labels = ['Linkedin Carousel Plan', 'Tiktok Carousel Plan', 'Twitter Carousel Plan'];
		expect(platformNameProblems([...labels, 'LinkedIn', 'Caption'], platformOptions)).toEqual([
			"'Linkedin Carousel Plan' names LinkedIn otherwise",
			"'Tiktok Carousel Plan' names TikTok otherwise",
			"'Twitter Carousel Plan' names X (Twitter) otherwise",
		]);
	});
	it("an article's finish and social content's finish named apart", () => {
		expect(eventTermProblems({ ...eventNames, articleCompleted: 'Article Completed' })).toEqual([
			"'Article Completed' and 'Social Content Finished' both say a record finished generating",
		]);
	});
	const withOption = (option: INodeProperties): INodeProperties[] => [
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			default: {},
			options: [option],
		},
	];
	it('a size limit that "fails" the item and does not say its default', () => {
		const limit = withOption({
			displayName: 'Max Image Size (MB)',
			name: 'maxImageSizeMb',
			type: 'number',
			default: 10,
			description: 'Fail instead of downloading an image larger than this',
		});
		expect(itemEndProblems(limit, 'x')).toEqual([
			'x options maxImageSizeMb: says "fail" for \'Stop the Item\': "Fail instead of downloading an image larger than this"',
		]);
		expect(defaultProblems(limit, 'x')).toEqual([
			'x options maxImageSizeMb: does not say its default (10)',
		]);
	});
	it('a list that does not name its default choice', () => {
		const list = (description: string) =>
			withOption({
				displayName: 'On Timeout',
				name: 'onTimeout',
				type: 'options',
				default: 'returnLast',
				description,
				options: [
					{ name: 'Return Last Known Status', value: 'returnLast' },
					{ name: 'Stop the Item', value: 'fail' },
				],
			});
		expect(defaultProblems(list('What to do when the generation has not finished'), 'x')).toEqual([
			"x options onTimeout: does not say its default ('Return Last Known Status')",
		]);
		expect(defaultProblems(list("'Return Last Known Status' to wait again later"), 'x')).toEqual([
			"x options onTimeout: does not say its default ('Return Last Known Status')",
		]);
		expect(defaultProblems(list("Defaults to 'Return Last Known Status'"), 'x')).toEqual([]);
	});
});
