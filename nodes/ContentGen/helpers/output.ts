import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { assertOneOf, describe, ValidationError } from '../../shared/validation';
import { fieldLabel } from './field-labels';
import { pick } from './pick';
import { readSwitch } from './parameters';
import { BEFORE_V2, FROM_V2, isV2 } from './versions';

/**
 * What a record read outputs. From version 2 the 'Output' parameter n8n asks of nodes an AI agent
 * can use (an agent's context window is small): Simplified, Raw, or only the fields selected, the
 * ID always among them. Before version 2 the Simplify switch, read as Simplified or Raw.
 */
export const OUTPUT_MODES = ['fields', 'raw', 'simple'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export interface Output {
	mode: OutputMode;
	/** Selected Fields only: the fields kept besides the ID. */
	fields: string[];
}

/** The Simplify switch (before version 2) and the Output parameter with its field list (from 2). */
export function outputProperties(
	fields: readonly string[],
	show: IDataObject = {},
): INodeProperties[] {
	const extra = show as Record<string, boolean[]>;
	return [
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: false,
			description: 'Whether to return a simplified version of the response instead of the raw data',
			displayOptions: { show: { ...BEFORE_V2.show, ...extra } },
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'simple',
			options: [
				{ name: 'Raw', value: 'raw', description: 'Return all the fields' },
				{
					name: 'Selected Fields',
					value: 'fields',
					description: 'Return only the fields you pick, and the ID',
				},
				{
					name: 'Simplified',
					value: 'simple',
					description: 'Return a short version with at most 10 fields',
				},
			],
			displayOptions: { show: { ...FROM_V2.show, ...extra } },
		},
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			default: [],
			options: [...fields]
				.filter((field) => field !== 'id')
				.map((field) => ({ name: fieldLabel(field), value: field }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			description: 'The fields to output besides the ID',
			displayOptions: { show: { ...FROM_V2.show, ...extra, output: ['fields'] } },
		},
	];
}

/** The field list of Selected Fields; an agent may give it as text separated by commas. */
function readFields(value: unknown): string[] {
	const list =
		typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
	if (!list || list.some((field) => typeof field !== 'string')) {
		throw new ValidationError(
			'Fields',
			`'Fields' must be a list of field names, got ${describe(value)}`,
		);
	}
	return (list as string[]).map((field) => field.trim()).filter((field) => field !== '');
}

/** The item's Output, checked before anything is sent. */
export function readOutput(context: IExecuteFunctions, itemIndex: number): Output {
	if (!isV2(context.getNode().typeVersion)) {
		return { mode: readSwitch(context, 'simplify', itemIndex) ? 'simple' : 'raw', fields: [] };
	}
	const mode = assertOneOf(
		'Output',
		context.getNodeParameter('output', itemIndex, 'simple'),
		OUTPUT_MODES,
	);
	const fields =
		mode === 'fields' ? readFields(context.getNodeParameter('fields', itemIndex, [])) : [];
	return { mode, fields };
}

/** One record as its Output asks: whole, simplified by the record's own rule, or picked. */
export function applyOutput(
	record: IDataObject,
	output: Output,
	simplify: (record: IDataObject) => IDataObject,
): IDataObject {
	if (output.mode === 'raw') return record;
	if (output.mode === 'simple') return simplify(record);
	return pick(record, ['id', ...output.fields]);
}
