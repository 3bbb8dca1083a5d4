import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { keepMessage } from '../../shared/transport/causes';
import { redactSecrets } from '../../shared/transport/errors';
import { apiGet } from '../../shared/transport/request';
import { ValidationError } from '../../shared/validation';
import { callOptions } from './parameters';

/** Converts anything thrown while handling an item into the error n8n shows for that item. */
export function toNodeError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof ValidationError) {
		const refusal = new NodeOperationError(context.getNode(), error.message, {
			itemIndex,
			description: `Invalid value for "${error.field}". Nothing was sent to the service and no credits were spent.`,
		});
		return keepMessage(refusal, error.message);
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(
		context.getNode(),
		redactSecrets((error as Error).message ?? String(error)),
		{ itemIndex },
	);
}

/** The item n8n shows for a failed item under "Continue On Fail". */
export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

export type ItemResult = IDataObject | IDataObject[] | INodeExecutionData[];

function isExecutionData(value: unknown): value is INodeExecutionData {
	return typeof value === 'object' && value !== null && 'json' in value;
}

/** Appends the results of one input item, paired with it; no spread, so any count fits. */
export function appendPaired(
	output: INodeExecutionData[],
	result: ItemResult,
	itemIndex: number,
): void {
	const list = Array.isArray(result) ? result : [result];
	for (const entry of list) {
		output.push(
			isExecutionData(entry)
				? { ...entry, pairedItem: { item: itemIndex } }
				: { json: entry as IDataObject, pairedItem: { item: itemIndex } },
		);
	}
}

/** Runs an operation item by item, honouring "Continue On Fail" per item. */
export async function runPerItem(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handler: (itemIndex: number) => Promise<ItemResult>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			appendPaired(output, await handler(itemIndex), itemIndex);
		} catch (error) {
			const nodeError = toNodeError(this, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			output.push(errorItem(nodeError, itemIndex));
		}
	}
	return output;
}

/** A plain read: one free GET per item, returned as the service gives it. */
export async function getPerItem(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	pathOf: (itemIndex: number) => string,
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(context, items, async (itemIndex) => {
		const { data } = await apiGet<IDataObject>(
			context,
			pathOf(itemIndex),
			callOptions(context, itemIndex),
		);
		return data;
	});
}
