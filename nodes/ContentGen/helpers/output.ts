import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { assertOneOf, describe, ValidationError } from '../../shared/validation';
import { fieldLabel } from './field-labels';
import { pick } from './pick';

/**
 * What a record read outputs: the 'Output' parameter n8n asks of nodes an AI agent can use (an
 * agent's context window is small): Simplified, Raw, or only the fields selected, the ID always
 * among them.
 */
export const OUTPUT_MODES = ['fields', 'raw', 'simple'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

export interface Output {
	mode: OutputMode;
	/** Selected Fields only: the fields kept besides the ID. */
	fields: string[];
}

/** The Output parameter and its field list. */
export function outputProperties(
	fields: readonly string[],
	show?: Record<string, boolean[]>,
): INodeProperties[] {
	return [
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
			...(show === undefined ? {} : { displayOptions: { show } }),
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
			displayOptions: { show: { ...show, output: ['fields'] } },
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
