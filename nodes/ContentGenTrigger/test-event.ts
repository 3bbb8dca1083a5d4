/** "Fetch Test Event": the newest matching record, without touching the stored state. */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { eventsOfKind, type TriggerEvent } from './events';
import { pollTimes, readShape } from './parameters';
import { reader, type Filters } from './service-reader';
import { dailyCost } from './report';
import {
	goneNotice,
	itemJson,
	pickTestEvent,
	readFullRecords,
	type EmittedItem,
} from './tracker/items';
import { PAGE_SIZE, time, type ListResult } from './tracker/reader';

export async function fetchTestEvent(
	context: IPollFunctions,
	events: TriggerEvent[],
	filters: Filters,
): Promise<INodeExecutionData[][]> {
	const read = reader(context, filters);
	const candidates: EmittedItem[] = [];
	for (const kind of ['article', 'social'] as const) {
		const wanted = eventsOfKind(events, kind);
		if (wanted.length === 0) continue;
		const request = {
			kind: kind === 'article' ? 'articleList' : 'socialList',
			page: 1,
			limit: PAGE_SIZE,
		} as const;
		const result = (await read(request)) as ListResult;
		const picked = pickTestEvent(result.items, wanted);
		if (picked) candidates.push(picked);
	}
	const updated = (c: EmittedItem) => time(c.record.updated_at) || 0;
	const chosen = candidates.sort((a, b) => updated(b) - updated(a))[0];
	const { warning } = dailyCost(events, pollTimes(context), read);
	if (warning) context.logger.warn(warning, { node: context.getNode().name });
	if (!chosen) {
		throw new NodeOperationError(context.getNode(), 'No record matches the selected events yet', {
			description:
				'Fetch Test Event shows the most recent matching article or social content. Generate some content (or widen the project/platform filter) and try again.',
		});
	}
	// The item a poll would give, Full Record's read included.
	const shape = readShape(context);
	const full = await readFullRecords([chosen], shape, read);
	const gone = goneNotice(full.gone);
	if (gone) context.logger.warn(gone, { node: context.getNode().name });
	const json = itemJson(full.items[0], shape) as IDataObject;
	if (warning) json.warning = warning;
	return [[{ json }]];
}
