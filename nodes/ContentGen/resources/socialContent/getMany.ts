import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { SOCIAL_STATUSES } from '../../../shared/domain/statuses';
import { validatePlatform, validateSocialStatus } from '../../../shared/validation';
import { readRecordLocator, recordLocator } from '../../../shared/domain/records';
import { projectLocator, readProjectId } from '../../../shared/domain/projects';
import { listProperties, runList } from '../../helpers/lists';
import type { OperationModule } from '../../helpers/types';
import { platformOptions } from '../../../shared/domain/platforms';
import { SOCIAL_FIELDS } from './fields';
import { normaliseSocialRecord } from './output';

export const option: OperationModule['option'] = {
	name: 'Get Many',
	action: 'Get many social content',
	description:
		'Retrieve a list of social content, filtered by platform, status, article or project',
};

const filters: INodeProperties[] = [
	{
		displayName: 'Article ID',
		name: 'articleId',
		...recordLocator('article'),
		description: 'Only social content generated from this article',
	},
	{
		displayName: 'Platform',
		name: 'platform',
		type: 'options',
		options: platformOptions,
		default: 'instagram',
		description: 'Only social content targeting this platform',
	},
	projectLocator('Only social content of this project'),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: SOCIAL_STATUSES.map((value) => ({
			name: value.charAt(0).toUpperCase() + value.slice(1),
			value,
		})).sort((a, b) => a.name.localeCompare(b.name)),
		default: 'completed',
		description: 'Only social content in this status',
	},
];

export const properties = listProperties({
	filters,
	fields: SOCIAL_FIELDS,
});

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runList.call(this, items, {
		endpoint: '/social/content',
		query(filters) {
			const qs: IDataObject = {};
			if (filters.platform !== undefined)
				qs.platform = validatePlatform('Platform', filters.platform);
			if (filters.status !== undefined) qs.status = validateSocialStatus('Status', filters.status);
			if (filters.articleId !== undefined)
				qs.article_id = readRecordLocator('article', filters.articleId);
			const projectId = readProjectId(filters.projectId, false);
			if (projectId) qs.project_id = projectId;
			return qs;
		},
		shape: normaliseSocialRecord,
	});
}
