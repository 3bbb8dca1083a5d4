import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../../helpers/descriptions';
import { runPerItem } from '../../helpers/items';
import { getForItem } from '../../helpers/requests';

export const description: INodeProperties[] = [optionsCollection('account', 'getCredits')];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, async (itemIndex) => {
		return await getForItem(this, itemIndex, '/user/credits');
	});
}
