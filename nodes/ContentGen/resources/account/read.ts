import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiGet } from '../../../shared/transport/request';
import { runPerItem } from '../../helpers/items';
import { callOptions } from '../../helpers/parameters';

/** An account read: one free GET per item, returned as the service gives it. */
export async function readAccount(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	endpoint: string,
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(context, items, async (itemIndex) => {
		const { data } = await apiGet<IDataObject>(context, endpoint, callOptions(context, itemIndex));
		return data;
	});
}
