import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { assertUuid } from '../../shared/validation';

const UUID_REGEX =
	'^\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*$';

export interface ProjectLocatorOptions {
	resource: string;
	operations: string[];
	required: boolean;
	name?: string;
	displayName?: string;
	description?: string;
}

/** The picker itself: search by business name, or paste the project's ID. */
function locator(): Pick<INodeProperties, 'type' | 'default' | 'modes'> {
	return {
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a project…',
				typeOptions: { searchListMethod: 'searchProjects', searchable: true },
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
				validation: [
					{
						type: 'regex',
						properties: { regex: UUID_REGEX, errorMessage: 'Not a valid project ID (a UUID)' },
					},
				],
			},
		],
	};
}

/** A project parameter of one or more operations. */
export function projectLocator(options: ProjectLocatorOptions): INodeProperties {
	return {
		displayName: options.displayName ?? 'Project',
		name: options.name ?? 'projectId',
		...locator(),
		required: options.required,
		description:
			options.description ??
			'The project (brand, language and business context). Pick one by business name or enter its ID.',
		displayOptions: { show: { resource: [options.resource], operation: options.operations } },
	};
}

/** The same picker as an entry of a Filters collection. */
export function projectFilter(description: string): INodeProperties {
	return { displayName: 'Project', name: 'projectId', ...locator(), description };
}

function locatorValue(raw: unknown): unknown {
	const value =
		typeof raw === 'object' && raw !== null && 'value' in raw
			? (raw as { value: unknown }).value
			: raw;
	return typeof value === 'string' ? value.trim() : value;
}

function isEmpty(value: unknown): boolean {
	return value === '' || value === undefined || value === null;
}

/** The validated project ID of a Filters collection, if one was chosen. */
export function projectIdFromFilters(filters: Record<string, unknown>): string | undefined {
	const value = locatorValue(filters.projectId);
	return isEmpty(value) ? undefined : assertUuid('Project', value);
}

/**
 * The chosen project's ID, validated before it goes into a request; undefined when the
 * parameter is optional and left empty. Accepts the locator object or a bare ID string
 * (expressions, AI agents).
 */
export function resolveProjectId(
	this: IExecuteFunctions,
	itemIndex: number,
	name = 'projectId',
	required = true,
): string | undefined {
	const value = locatorValue(this.getNodeParameter(name, itemIndex, ''));
	if (!required && isEmpty(value)) return undefined;
	return assertUuid('Project', value);
}
