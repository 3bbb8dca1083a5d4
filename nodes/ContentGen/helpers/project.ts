import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { projectLocator as locator, readProjectId } from '../../shared/domain/projects';

export interface ProjectLocatorOptions {
	resource: string;
	operations: string[];
	required: boolean;
	description?: string;
}

/** A project parameter of one or more operations. */
export function projectLocator(options: ProjectLocatorOptions): INodeProperties {
	return locator(
		options.description ??
			'The project (brand, language and business context). Pick one by business name or enter its ID.',
		{
			required: options.required,
			displayOptions: { show: { resource: [options.resource], operation: options.operations } },
		},
	);
}

/** The same picker as an entry of a Filters collection. */
export function projectFilter(description: string): INodeProperties {
	return locator(description);
}

/** The validated project ID of a Filters collection, if one was chosen. */
export function projectIdFromFilters(filters: Record<string, unknown>): string | undefined {
	return readProjectId(filters.projectId, false);
}

export function resolveProjectId(
	this: IExecuteFunctions,
	itemIndex: number,
	name = 'projectId',
	required = true,
): string | undefined {
	return readProjectId(this.getNodeParameter(name, itemIndex, ''), required);
}
