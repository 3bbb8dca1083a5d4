import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getPerItem } from '../../helpers/items';
import { optionsCollection } from '../../helpers/properties';
import type { OperationModule } from '../../helpers/types';

export const option: OperationModule['option'] = {
	name: 'Get Credits',
	action: 'Get credit balance',
	description:
		'Retrieve the credit balance (plan plus purchased credits), the credits used this month and the end of the billing period',
};

export const properties: INodeProperties[] = [optionsCollection()];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await getPerItem(this, items, () => '/user/credits');
}
