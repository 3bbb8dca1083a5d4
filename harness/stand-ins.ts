/**
 * Stand-ins for the n8n-nodes-base nodes the example workflows use around ours: the engine needs
 * a type for every node, and these behave as the real ones do for a run.
 */
import type { IExecuteFunctions, INodeType } from 'n8n-workflow';

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
