import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule, ResourceModule } from '../helpers/types';
import { resource as account } from './account';
import { resource as article } from './article';
import { resource as project } from './project';
import { resource as socialContent } from './socialContent';

/** Every resource and, through it, every operation: the selectors and the router read this map. */
const resources: Record<string, ResourceModule> = {
	article,
	socialContent,
	project,
	account,
};

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);

/** The node's parameters: the Resource selector, each resource's Operation selector, each operation's own. */
export function nodeProperties(): INodeProperties[] {
	const properties: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: Object.entries(resources)
				.map(([value, { name }]) => ({ name, value }))
				.sort(byName),
			default: 'article',
		},
	];
	for (const [resource, module] of Object.entries(resources)) {
		const defaultOperation = module.defaultOperation;
		properties.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: Object.entries(module.operations)
				.map(([value, operation]) => ({ ...operation.option, value }))
				.sort(byName),
			default: defaultOperation,
		});
	}
	for (const [resource, module] of Object.entries(resources)) {
		for (const [operation, { properties: own }] of Object.entries(module.operations)) {
			const shown = { show: { resource: [resource], operation: [operation] } };
			for (const property of updateDisplayOptions(shown, own)) properties.push(property);
		}
	}
	return properties;
}

export function findOperation(resource: string, operation: string): OperationModule | undefined {
	const module = Object.prototype.hasOwnProperty.call(resources, resource)
		? resources[resource]
		: undefined;
	return module && Object.prototype.hasOwnProperty.call(module.operations, operation)
		? module.operations[operation]
		: undefined;
}
