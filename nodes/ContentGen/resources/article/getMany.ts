import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ARTICLE_SORT_FIELDS } from '../../../shared/constants';
import { projectLocator, readProjectId } from '../../../shared/domain/projects';
import { ARTICLE_STATUSES } from '../../../shared/domain/statuses';
import {
	requireString,
	validateArticleStatus,
	validateOrder,
	validateSort,
} from '../../../shared/validation';
import { listProperties, runList } from '../../helpers/lists';
import type { OperationModule } from '../../helpers/types';
import { ARTICLE_FIELDS, shapeArticleListOutput } from './output';

const STATUS_NAMES: Record<string, string> = {
	draft: 'Draft',
	queued: 'Queued',
	cms: 'CMS (Finished, Live)',
	needs_editing: 'Needs Editing (Finished, Flagged)',
	failed: 'Failed',
	archived: 'Archived',
};

const SORT_NAMES: Record<string, string> = {
	created_at: 'Created At',
	updated_at: 'Updated At',
	title: 'Title',
};

export const option: OperationModule['option'] = {
	name: 'Get Many',
	action: 'Get many articles',
	description: 'Retrieve a list of articles, filtered by status, project or title',
};

const order: INodeProperties = {
	displayName: 'Order',
	name: 'order',
	type: 'options',
	options: [
		{ name: 'Ascending', value: 'asc' },
		{ name: 'Descending', value: 'desc' },
	],
	default: 'desc',
};

const sortBy: INodeProperties = {
	displayName: 'Sort By',
	name: 'sortBy',
	type: 'options',
	options: ARTICLE_SORT_FIELDS.map((value) => ({ name: SORT_NAMES[value], value })).sort((a, b) =>
		a.name.localeCompare(b.name),
	),
	default: 'created_at',
};

const filters: INodeProperties[] = [
	projectLocator('Only articles of this project'),
	{
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder: 'e.g. automation',
		description: 'Only articles whose title contains this text (any case)',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: ARTICLE_STATUSES.map((value) => ({ name: STATUS_NAMES[value], value })).sort((a, b) =>
			a.name.localeCompare(b.name),
		),
		default: 'cms',
		description:
			'Only articles in this status (finished articles are CMS or Needs Editing; there is no "published")',
	},
];

export const properties = listProperties({
	filters,
	sort: [order, sortBy],
	fields: ARTICLE_FIELDS,
});

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runList.call(this, items, {
		endpoint: '/articles',
		query(filters) {
			const qs: IDataObject = {};
			if (filters.status !== undefined) qs.status = validateArticleStatus('Status', filters.status);
			const projectId = readProjectId(filters.projectId, false);
			if (projectId) qs.project_id = projectId;
			if (filters.search !== undefined) qs.search = requireString('Search', filters.search);
			if (filters.sortBy !== undefined) qs.sort = validateSort(filters.sortBy);
			if (filters.order !== undefined) qs.order = validateOrder(filters.order);
			return qs;
		},
		shape: shapeArticleListOutput,
	});
}
