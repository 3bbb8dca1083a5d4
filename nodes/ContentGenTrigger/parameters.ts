/**
 * The node's parameters, read and checked before any request: the events, and in Options the
 * filters (project, platform) and the Delivery, and the Poll Times n8n gives every polling node.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readProjectId } from '../shared/domain/projects';
import { validatePlatform } from '../shared/validation';
import { eventsOfKind, parseEvents, type TriggerEvent } from './events';
import type { Filters } from './service-reader';
import { asNodeError } from './report';
import type { ItemShape } from './tracker/items';
import { DELIVERIES, type Delivery } from './tracker/repeats';

/** The events and filters: all a poll needs before Fetch Test Event (which has no Delivery). */
export function readParameters(context: IPollFunctions): {
	events: TriggerEvent[];
	filters: Filters;
} {
	let events: TriggerEvent[];
	try {
		events = parseEvents(context.getNodeParameter('events', []));
	} catch (error) {
		throw asNodeError(context, error);
	}
	if (events.length === 0)
		throw new NodeOperationError(context.getNode(), "Select at least one event in 'Trigger On'", {
			description: "Choose the changes that start the workflow in the 'Trigger On' list.",
		});
	const filters: Filters = {};
	try {
		const project = readProjectId(context.getNodeParameter('options.projectId', ''), false);
		if (project) filters.projectId = project;
		const platform = String(context.getNodeParameter('options.platform', '') ?? '');
		if (platform && eventsOfKind(events, 'social').length > 0) {
			filters.platform = validatePlatform('Platform', platform);
		}
	} catch (error) {
		throw asNodeError(context, error);
	}
	return { events, filters };
}

/** What the stored state was made under: a state of other filters is not used. */
export function scopeOf(filters: Filters): string {
	return `${filters.projectId ?? ''}|${filters.platform ?? ''}`;
}

export function readDelivery(context: IPollFunctions): Delivery {
	const delivery = context.getNodeParameter('options.delivery', 'exactlyOnce');
	if (DELIVERIES.includes(delivery as Delivery)) return delivery as Delivery;
	throw new NodeOperationError(context.getNode(), "'Delivery' must be 'Once' or 'At Least Once'", {
		description: `Got ${JSON.stringify(delivery)}. Choose one of the two in Options > 'Delivery'.`,
	});
}

/** How items show their records: the list's fields, or the full social record (Options > Full Record). */
export function readShape(context: IPollFunctions): ItemShape {
	return context.getNodeParameter('options.fullRecord', false) === true ? 'full' : 'list';
}

export function pollTimes(context: IPollFunctions): unknown {
	return context.getNodeParameter('pollTimes', { item: [{ mode: 'everyMinute' }] });
}
