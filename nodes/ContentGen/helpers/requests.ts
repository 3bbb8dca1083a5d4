import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import { maxRateLimitWaitMs } from './items';

/** A free GET for one item, waiting out rate limits as far as the item's options allow. */
export async function getForItem(
	context: IExecuteFunctions,
	itemIndex: number,
	path: string,
): Promise<IDataObject> {
	const { data } = await apiRequest.call(context, 'GET', path, {
		maxRateLimitWaitMs: maxRateLimitWaitMs(context, itemIndex),
		itemIndex,
	});
	return data as IDataObject;
}
