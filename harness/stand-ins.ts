/**
 * Stand-ins for the n8n-nodes-base nodes the example workflows use around ours: the engine needs
 * a type for every node, and these behave as the real ones do for a run.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

/** Start nodes of n8n-nodes-base that example workflows begin with: they pass their input on. */
export class PassThroughStart implements INodeType {
	description;

	constructor(name: string) {
		this.description = {
			displayName: name,
			name,
			group: ['trigger'],
			version: [1, 1.1, 1.2, 1.3],
			description: 'Start node stand-in',
			defaults: { name },
			inputs: [],
			outputs: ['main'],
			properties: [],
		} as unknown as INodeType['description'];
	}

	async execute(this: IExecuteFunctions) {
		return [this.getInputData()];
	}
}

/** n8n's sticky note: text on the canvas, never run. The examples carry their warnings on one. */
export class StickyNote implements INodeType {
	description = {
		displayName: 'Sticky Note',
		name: 'stickyNote',
		group: ['input'],
		version: 1,
		description: 'Sticky note stand-in',
		defaults: { name: 'Sticky Note' },
		inputs: [],
		outputs: [],
		properties: [],
	} as unknown as INodeType['description'];
}

/**
 * n8n's Remove Duplicates (version 2), operation "Remove Items Processed in Previous Executions"
 * with "Value Is New": an item passes when its Value to Dedupe On was not seen before. n8n keeps
 * the values in its database; the stand-in keeps them as long as it lives (one TestNodeTypes:
 * pass the same one to every run that shares the history). Parameter names as in n8n 2.41.1's
 * RemoveDuplicatesV2.description.
 */
export class RemoveDuplicates implements INodeType {
	description = {
		displayName: 'Remove Duplicates',
		name: 'removeDuplicates',
		group: ['transform'],
		version: [2],
		description: 'Remove Duplicates stand-in',
		defaults: { name: 'Remove Duplicates' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'string',
				default: 'removeDuplicateInputItems',
			},
			{
				displayName: 'Keep Items Where',
				name: 'logic',
				type: 'string',
				default: 'removeItemsWithAlreadySeenKeyValues',
			},
			{ displayName: 'Value to Dedupe On', name: 'dedupeValue', type: 'string', default: '' },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	} as unknown as INodeType['description'];

	readonly execute: INodeType['execute'];

	constructor() {
		const seen = new Set<string>();
		this.execute = async function (this: IExecuteFunctions) {
			const operation = this.getNodeParameter('operation', 0) as string;
			const logic = this.getNodeParameter('logic', 0) as string;
			if (
				operation !== 'removeItemsSeenInPreviousExecutions' ||
				logic !== 'removeItemsWithAlreadySeenKeyValues'
			)
				throw new Error(`the Remove Duplicates stand-in does not do ${operation} / ${logic}`);
			const kept: INodeExecutionData[] = [];
			this.getInputData().forEach((item, index) => {
				const value = String(this.getNodeParameter('dedupeValue', index) ?? '');
				if (seen.has(value)) return;
				seen.add(value);
				kept.push({ ...item, pairedItem: { item: index } });
			});
			return [kept];
		};
	}
}

/**
 * n8n's Edit Fields (Set) node, version 3.4, in its manual mode: each item becomes the fields it
 * assigns. The examples use it for their "Spend credits?" switch; anything else it refuses.
 */
export class SetFields implements INodeType {
	description = {
		displayName: 'Edit Fields (Set)',
		name: 'set',
		group: ['input'],
		version: [3.3, 3.4],
		description: 'Set stand-in',
		defaults: { name: 'Edit Fields' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{ displayName: 'Mode', name: 'mode', type: 'options', default: 'manual', options: [] },
			{
				displayName: 'Fields to Set',
				name: 'assignments',
				type: 'assignmentCollection',
				default: {},
			},
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, itemIndex) => {
				if (this.getNodeParameter('mode', itemIndex, 'manual') !== 'manual')
					throw new Error('The Set stand-in knows only the manual mode');
				const options = this.getNodeParameter('options', itemIndex, {}) as Record<string, unknown>;
				const json: IDataObject = options.includeOtherFields ? { ...item.json } : {};
				const assignments = this.getNodeParameter(
					'assignments.assignments',
					itemIndex,
					[],
				) as Array<{
					name: string;
					value: unknown;
					type: string;
				}>;
				for (const { name, value, type } of assignments) json[name] = typed(name, value, type);
				return { json, pairedItem: { item: itemIndex } };
			}),
		];
	}
}

/** A Set field's value as its type makes it, strictly (as Set 3.4 does by default). */
function typed(name: string, value: unknown, type: string): IDataObject[string] {
	if (type === 'boolean') {
		if (typeof value === 'boolean') return value;
		if (value === 'true' || value === 'false') return value === 'true';
	} else if (type === 'string') {
		return typeof value === 'string' ? value : String(value);
	} else if (type === 'number' && Number.isFinite(Number(value))) {
		return Number(value);
	}
	throw new Error(`The Set stand-in cannot make "${String(value)}" a ${type} (field ${name})`);
}

/**
 * n8n's If node, version 2.2: items whose conditions hold go to the first output ("true"), the
 * others to the second. The conditions are n8n's own filter parameter, evaluated by n8n-core
 * (`extractValue`), as the real node has them evaluated.
 */
export class IfCondition implements INodeType {
	description = {
		displayName: 'If',
		name: 'if',
		group: ['transform'],
		version: [2, 2.1, 2.2],
		description: 'If stand-in',
		defaults: { name: 'If' },
		inputs: ['main'],
		outputs: ['main', 'main'],
		outputNames: ['true', 'false'],
		properties: [
			{ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} },
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions) {
		const kept: INodeExecutionData[] = [];
		const other: INodeExecutionData[] = [];
		this.getInputData().forEach((item, itemIndex) => {
			const pass = this.getNodeParameter('conditions', itemIndex, false, { extractValue: true });
			(pass === true ? kept : other).push({ ...item, pairedItem: { item: itemIndex } });
		});
		return [kept, other];
	}
}
