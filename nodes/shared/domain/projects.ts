import type { ILoadOptionsFunctions, INodeListSearchResult, INodeProperties } from 'n8n-workflow';

import { UUID_EXAMPLE } from '../constants';
import { assertUuid } from '../validation';
import { searchList, uuidValidation } from './records';

/** The picker: search by business name, or paste the project's ID. */
const locator: Pick<INodeProperties, 'type' | 'default' | 'modes'> = {
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
			placeholder: `e.g. ${UUID_EXAMPLE}`,
			validation: uuidValidation('project'),
		},
	],
};

/** A project parameter; `required` ones refuse an empty choice before anything is sent. */
export function projectLocator(
	description: string,
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: 'Project',
		name: 'projectId',
		...locator,
		description,
		...overrides,
	};
}

/** The ID inside a locator value, or a bare ID string (expressions, AI agents). */
function locatorValue(raw: unknown): unknown {
	const value =
		typeof raw === 'object' && raw !== null && 'value' in raw
			? (raw as { value: unknown }).value
			: raw;
	return typeof value === 'string' ? value.trim() : value;
}

/** The validated project ID, or undefined when none was chosen and none is required. */
export function readProjectId(raw: unknown, required: boolean): string | undefined {
	const value = locatorValue(raw);
	if (!required && (value === '' || value === undefined || value === null)) return undefined;
	return assertUuid('Project', value);
}

/** listSearch method of both nodes: projects by business name, a page at a time. */
export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(this, '/projects', filter, paginationToken, (project) => ({
		name: String(project.business_name || project.id),
		value: String(project.id),
	}));
}
