/**
 * The mechanical ones of n8n's rules for verified nodes (docs/n8n-guidelines.md lists them all):
 * record IDs are pickers that open on From list, actions without articles, placeholders that start
 * "e.g.", option lists in alphabetical order, the trigger's 'Trigger On' without a tooltip, the
 * 'Output' parameter wherever a record is read, and `[item N]` at the end of an item's message.
 * Each rule is a pure function of a node's description (or of the error converter), so the
 * "can fail" tests below feed it one injected miss each.
 */
import type {
	IExecuteFunctions,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ContentGenApi } from '../../credentials/ContentGenApi.credentials';
import { ContentGen } from '../../nodes/ContentGen/ContentGen.node';
import { toNodeError } from '../../nodes/ContentGen/helpers/items';
import { ContentGenTrigger } from '../../nodes/ContentGenTrigger/ContentGenTrigger.node';
import { ValidationError } from '../../nodes/shared/validation';

type Option = INodePropertyOptions | INodeProperties | INodePropertyCollection;

/** Whether a property shows at this node version (its `@version` conditions). */
function shownAt(property: INodeProperties, version: number): boolean {
	const conditions = property.displayOptions?.show?.['@version'] ?? [];
	return conditions.every((condition) => {
		if (typeof condition !== 'object' || condition === null) return condition === version;
		const { gte, lt } = (condition as { _cnd: { gte?: number; lt?: number } })._cnd;
		return (gte === undefined || version >= gte) && (lt === undefined || version < lt);
	});
}

/** Every parameter a user of this version sees, collections opened, with where it sits. */
function parametersAt(description: INodeTypeDescription): Array<[string, INodeProperties]> {
	const version = description.defaultVersion ?? Math.max(...[description.version].flat());
	const out: Array<[string, INodeProperties]> = [];
	const walk = (properties: INodeProperties[], where: string) => {
		for (const property of properties.filter((p) => shownAt(p, version))) {
			const operations = property.displayOptions?.show?.operation;
			const at = `${where}${operations ? `[${operations.join(',')}]` : ''} ${property.name}`;
			out.push([at, property]);
			if (property.type === 'collection')
				walk((property.options ?? []) as INodeProperties[], `${at}.`);
		}
	};
	walk(description.properties, description.name);
	return out;
}

/** Record IDs are resource locators whose first and default mode is From list. */
export function idProblems(description: INodeTypeDescription): string[] {
	return parametersAt(description)
		.filter(([, p]) => /Id$/.test(p.name))
		.filter(
			([, p]) =>
				p.type !== 'resourceLocator' ||
				p.modes?.[0]?.name !== 'list' ||
				(p.default as { mode?: string })?.mode !== 'list',
		)
		.map(([at]) => `${at}: not a picker opening on From list`);
}

/** Actions (the node picker's words) without articles. */
export function actionProblems(description: INodeTypeDescription): string[] {
	return parametersAt(description)
		.filter(([, p]) => p.name === 'operation')
		.flatMap(([, p]) => (p.options ?? []) as INodePropertyOptions[])
		.filter((option) => /\b(a|an|the)\b/i.test(option.action ?? ''))
		.map((option) => `action "${option.action}" has an article`);
}

/** Placeholders of values (not a collection's button, not a list's prompt) start with "e.g.". */
export function placeholderProblems(properties: INodeProperties[], name: string): string[] {
	const problems: string[] = [];
	const check = (at: string, placeholder: string | undefined) => {
		if (placeholder !== undefined && !placeholder.startsWith('e.g. '))
			problems.push(`${name} ${at}: placeholder "${placeholder}"`);
	};
	const walk = (list: INodeProperties[]) => {
		for (const p of list) {
			if (p.type === 'collection' || p.type === 'fixedCollection') {
				walk((p.options ?? []).filter((o): o is INodeProperties => 'type' in o));
				continue;
			}
			if (p.type !== 'resourceLocator') check(p.name, p.placeholder);
			for (const mode of p.modes ?? [])
				if (mode.type !== 'list') check(`${p.name} (${mode.name})`, mode.placeholder);
		}
	};
	walk(properties);
	return problems;
}

const label = (option: Option) => ('displayName' in option ? option.displayName : option.name);

/** Option lists and a collection's fields in alphabetical order. */
export function orderProblems(description: INodeTypeDescription): string[] {
	return parametersAt(description)
		.filter(([, p]) => ['options', 'multiOptions', 'collection'].includes(p.type))
		.filter(([, p]) => !p.typeOptions?.loadOptionsMethod)
		.filter(([, p]) => {
			const names = ((p.options ?? []) as Option[]).map(label);
			return names.some((name, i) => i > 0 && names[i - 1].localeCompare(name) > 0);
		})
		.map(([at]) => `${at}: options out of alphabetical order`);
}

/** The trigger's event selector is 'Trigger On', without a tooltip. */
export function triggerOnProblems(description: INodeTypeDescription): string[] {
	const events = description.properties.find((p) => p.name === 'events');
	if (!events) return ['no events parameter'];
	const problems: string[] = [];
	if (events.displayName !== 'Trigger On')
		problems.push(`events is labelled "${events.displayName}"`);
	if (events.description) problems.push('events has a tooltip');
	return problems;
}

/** Where a record is read: 'Output' (Simplified, Raw, Selected Fields) and no Simplify. */
export function outputProblems(description: INodeTypeDescription): string[] {
	const shown = parametersAt(description);
	const problems = shown
		.filter(([, p]) => p.name === 'simplify')
		.map(([at]) => `${at}: Simplify at the default version`);
	for (const [at, p] of shown.filter(([, q]) => q.name === 'output')) {
		const values = ((p.options ?? []) as INodePropertyOptions[]).map((o) => o.value).sort();
		if (JSON.stringify(values) !== JSON.stringify(['fields', 'raw', 'simple']))
			problems.push(`${at}: Output offers ${values.join(', ')}`);
		const operations = p.displayOptions?.show?.operation;
		const fields = shown.find(
			([, q]) =>
				q.name === 'fields' &&
				q.type === 'multiOptions' &&
				JSON.stringify(q.displayOptions?.show?.operation) === JSON.stringify(operations) &&
				JSON.stringify(q.displayOptions?.show?.output) === '["fields"]',
		);
		if (!fields) problems.push(`${at}: no field list for Selected Fields`);
	}
	return problems;
}

/** The operations that read records. */
const READS = ['get', 'getMany', 'waitForCompletion'];

/** Every operation that reads records (Get, Get Many, Wait for Completion) has an Output. */
export function readsWithoutOutput(description: INodeTypeDescription): string[] {
	const key = (p: INodeProperties) =>
		`${String(p.displayOptions?.show?.resource)}:${String(p.displayOptions?.show?.operation)}`;
	const outputs = new Set(description.properties.filter((p) => p.name === 'output').map(key));
	return description.properties
		.filter((p) => p.name === 'operation')
		.flatMap((selector) =>
			((selector.options ?? []) as INodePropertyOptions[])
				.filter((option) => READS.includes(String(option.value)))
				.map(
					(option) => `${String(selector.displayOptions?.show?.resource)}:${String(option.value)}`,
				),
		)
		.filter((read) => !outputs.has(read))
		.map((read) => `${read}: reads records without an Output parameter`);
}

/** What n8n shows for an item's failure ends with `[item N]`, whatever was thrown. */
export function itemSuffixProblems(convert: typeof toNodeError): string[] {
	const node = { name: 'ContentGen', type: 'contentGen', typeVersion: 2, parameters: {} };
	const context = { getNode: () => node } as unknown as IExecuteFunctions;
	const thrown: Array<[string, unknown]> = [
		['a refused parameter', new ValidationError('Limit', "'Limit' must be at least 1, got 0")],
		[
			'an answer of the service',
			new NodeApiError(node as never, { message: 'x' }, { message: 'The service said no' }),
		],
		['anything else', new Error('Something broke')],
	];
	return thrown
		.map(([what, error]) => [what, convert(context, error, 2).message] as const)
		.filter(([, message]) => !message.endsWith(' [item 2]'))
		.map(([what, message]) => `${what}: "${message}" has no [item 2]`);
}

const action = new ContentGen().description;
const trigger = new ContentGenTrigger().description;
const credential = new ContentGenApi().properties;

describe("n8n's rules for verified nodes (docs/n8n-guidelines.md)", () => {
	it('record IDs are pickers opening on From list', () => {
		expect([...idProblems(action), ...idProblems(trigger)]).toEqual([]);
	});
	it('actions have no articles', () => {
		expect(actionProblems(action)).toEqual([]);
	});
	it('placeholders start with "e.g."', () => {
		expect([
			...placeholderProblems(action.properties, 'contentGen'),
			...placeholderProblems(trigger.properties, 'contentGenTrigger'),
			...placeholderProblems(credential, 'contentGenApi'),
		]).toEqual([]);
	});
	it('option lists are in alphabetical order', () => {
		expect([...orderProblems(action), ...orderProblems(trigger)]).toEqual([]);
	});
	it("the trigger's event selector is 'Trigger On', without a tooltip", () => {
		expect(triggerOnProblems(trigger)).toEqual([]);
	});
	it("record reads have 'Output' with Selected Fields, not Simplify", () => {
		expect([...outputProblems(action), ...readsWithoutOutput(action)]).toEqual([]);
	});
	it("an item's message ends with [item N]", () => {
		expect(itemSuffixProblems(toNodeError)).toEqual([]);
	});
});

describe("n8n's rules can fail: one injected miss each", () => {
	const withProperty = (
		description: INodeTypeDescription,
		name: string,
		change: (p: INodeProperties) => INodeProperties,
	): INodeTypeDescription => ({
		...description,
		properties: description.properties.map((p) => (p.name === name ? change(p) : p)),
	});

	it('an ID as plain text, or opening on ID', () => {
		const plain = withProperty(action, 'articleId', (p) =>
			p.type === 'resourceLocator' ? { ...p, type: 'string', default: '', modes: undefined } : p,
		);
		expect(idProblems(plain).length).toBeGreaterThan(0);
		const byId = withProperty(action, 'contentId', (p) =>
			p.type === 'resourceLocator' ? { ...p, default: { mode: 'id', value: '' } } : p,
		);
		expect(idProblems(byId)[0]).toMatch(/contentId: not a picker opening on From list$/);
	});
	it('an action with an article', () => {
		const withArticle = withProperty(action, 'operation', (p) => ({
			...p,
			options: ((p.options ?? []) as INodePropertyOptions[]).map((o) =>
				o.value === 'get' ? { ...o, action: 'Get an article' } : o,
			),
		}));
		expect(actionProblems(withArticle)).toContain('action "Get an article" has an article');
	});
	it('a placeholder without "e.g."', () => {
		const bare = credential.map((p) =>
			p.name === 'baseUrl' ? { ...p, placeholder: 'https://api.example.com' } : p,
		);
		expect(placeholderProblems(bare, 'contentGenApi')).toEqual([
			'contentGenApi baseUrl: placeholder "https://api.example.com"',
		]);
	});
	it('an option list out of order', () => {
		const unsorted = withProperty(action, 'resource', (p) => ({
			...p,
			options: [...(p.options ?? [])].reverse(),
		}));
		expect(orderProblems(unsorted)).toEqual([
			'contentGen resource: options out of alphabetical order',
		]);
	});
	it("an event selector named 'Events', or with a tooltip", () => {
		const events = withProperty(trigger, 'events', (p) => ({
			...p,
			displayName: 'Events',
			description: 'Which',
		}));
		expect(triggerOnProblems(events)).toEqual([
			'events is labelled "Events"',
			'events has a tooltip',
		]);
	});
	it('a record read with Simplify and no Output', () => {
		const simplify = {
			...action,
			properties: [
				...action.properties.filter((p) => p.name !== 'output'),
				{
					displayName: 'Simplify',
					name: 'simplify',
					type: 'boolean' as const,
					default: false,
					displayOptions: { show: { resource: ['article'], operation: ['get'] } },
				},
			],
		};
		expect(outputProblems(simplify)).toEqual([
			'contentGen[get] simplify: Simplify at the default version',
		]);
		expect(readsWithoutOutput(simplify)).toContain(
			'article:get: reads records without an Output parameter',
		);
	});
	it('a message without [item N]', () => {
		const bare: typeof toNodeError = (context, error, itemIndex) => {
			const converted = toNodeError(context, error, itemIndex);
			converted.message = converted.message.replace(/ \[item \d+\]$/, '');
			return converted;
		};
		expect(itemSuffixProblems(bare)).toHaveLength(3);
	});
});
