/**
 * Stand-ins for the n8n-nodes-base nodes the example workflows use around ours: the engine needs
 * a type for every node, and these behave as the real ones do for a run.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

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
