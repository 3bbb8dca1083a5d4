import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getPerItem } from '../../helpers/items';
import { optionsCollection } from '../../helpers/properties';
import type { OperationModule } from '../../helpers/types';

export const option: OperationModule['option'] = {
	name: 'Get Usage',
	action: 'Get API usage',
	description:
		"Retrieve the API key's request counts, rate limit and a 30-day breakdown per endpoint",
};

export const properties: INodeProperties[] = [optionsCollection()];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await getPerItem(this, items, () => '/user/usage');
}
