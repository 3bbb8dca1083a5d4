/**
 * When the trigger last took a starting point from nothing, kept in the workflow's static data
 * beside the node's own. Under n8n 2.41's durable poll cursors the state of the poll that runs on
 * activation is dropped when it emits nothing, but the workflow's static data is saved after
 * activation: the first scheduled poll then finds no state, finds this, and reports the changes
 * since (./catchup) instead of taking a second starting point. A start is one node's (by id and
 * name, as n8n keys cursors and static data), under its filters; a first activation has none.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

const KEY = 'contentGenTriggerStarts';

interface Start {
	/** Host time of the poll that took the starting point. */
	t: number;
	/** Its filters (the tracker's scope). */
	k: string;
	/** The node's name then. */
	n: string;
}

function starts(context: IPollFunctions): IDataObject {
	const kept = context.getWorkflowStaticData('global')[KEY];
	return typeof kept === 'object' && kept !== null ? (kept as IDataObject) : {};
}

/** The start this node's missing state was taken at, if one was, under the same filters. */
export function lostStart(context: IPollFunctions, scope: string): number | undefined {
	const node = context.getNode();
	const start = starts(context)[node.id] as Partial<Start> | undefined;
	if (typeof start?.t !== 'number' || start.k !== scope || start.n !== node.name) return undefined;
	return start.t;
}

export function markStart(context: IPollFunctions, scope: string, at: number): void {
	const node = context.getNode();
	const start: Start = { t: at, k: scope, n: node.name };
	// A new object, so that n8n notices the change and saves it.
	context.getWorkflowStaticData('global')[KEY] = { ...starts(context), [node.id]: start };
}

/** What n8n's log says when the changes since a lost start are reported. */
export function lostStartNotice(at: number): string {
	return `ContentGen Trigger: n8n kept no state from the poll that started this trigger at ${new Date(at).toISOString()}; the changes made since then are reported now`;
}
