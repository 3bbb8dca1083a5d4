/**
 * The operations and events as the nodes build them: every case table of the suites is checked
 * against these lists, so an operation or event cannot be added without its cases.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationModule } from '../../nodes/ContentGen/helpers/types';
import { findOperation, nodeProperties } from '../../nodes/ContentGen/resources';
import { EVENT_NAMES, EVENTS, type TriggerEvent } from '../../nodes/ContentGenTrigger/events';

export interface OperationRef {
	/** `resource.operation`, the key of every per-operation case table. */
	key: string;
	resource: string;
	operation: string;
	/** Names shown in the editor: "Social Content", "Get Many". */
	resourceName: string;
	operationName: string;
	module: OperationModule;
}

/** Every operation the node offers, read from its Resource and Operation selectors. */
export function nodeOperations(): OperationRef[] {
	const properties = nodeProperties();
	const resources = (properties.find((p) => p.name === 'resource')?.options ??
		[]) as INodePropertyOptions[];
	const refs: OperationRef[] = [];
	for (const { name: resourceName, value } of resources) {
		const resource = String(value);
		const selector = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		);
		for (const option of (selector?.options ?? []) as INodePropertyOptions[]) {
			const operation = String(option.value);
			const module = findOperation(resource, operation);
			if (!module) throw new Error(`${resource}.${operation} is offered but has no module`);
			refs.push({
				key: `${resource}.${operation}`,
				resource,
				operation,
				resourceName,
				operationName: option.name,
				module,
			});
		}
	}
	return refs;
}

export interface ParameterRef {
	/** Dotted path as stored in the node's parameters ("options.timeout"). */
	path: string;
	type: INodeProperties['type'];
}

/** An operation's parameters, one level into its collections. */
export function parametersOf(module: OperationModule): ParameterRef[] {
	const out: ParameterRef[] = [];
	for (const property of module.properties) {
		if (property.type === 'collection') {
			for (const inner of (property.options ?? []) as INodeProperties[]) {
				out.push({ path: `${property.name}.${inner.name}`, type: inner.type });
			}
		} else out.push({ path: property.name, type: property.type });
	}
	return out;
}

export interface EventRef {
	event: TriggerEvent;
	name: string;
	kind: 'article' | 'social';
}

/** Every event of the trigger's vocabulary, in its order. */
export function triggerEvents(): EventRef[] {
	return EVENT_NAMES.map((event) => ({
		event,
		name: EVENTS[event].name,
		kind: EVENTS[event].kind,
	}));
}

/**
 * The entries a table keyed by `keys` lacks for `wanted`, and the ones it has that are not
 * wanted: what a guard names when an operation or event was added without its cases.
 */
export function tableGaps(
	wanted: readonly string[],
	keys: readonly string[],
): { missing: string[]; unknown: string[] } {
	return {
		missing: wanted.filter((key) => !keys.includes(key)),
		unknown: keys.filter((key) => !wanted.includes(key)),
	};
}
