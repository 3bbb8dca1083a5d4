import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { SOCIAL_STATUSES } from '../../../shared/domain/statuses';
import { assertUuid, validatePlatform, validateSocialStatus } from '../../../shared/validation';
import { listDescription, runList } from '../../helpers/lists';
import { projectFilter, projectIdFromFilters } from '../../helpers/project';
import { platformOptions } from '../../../shared/domain/platforms';
import { normaliseSocialRecord } from './output';

export const description = listDescription('socialContent', [
	{
		displayName: 'Article ID',
		name: 'articleId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
		description: 'Only records generated from this article',
	},
	{
		displayName: 'Platform',
		name: 'platform',
		type: 'options',
		options: platformOptions,
		default: 'instagram',
		description: 'Only records targeting this platform',
	},
	projectFilter('Only records of this project'),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: SOCIAL_STATUSES.map((value) => ({
			name: value.charAt(0).toUpperCase() + value.slice(1),
			value,
		})),
		default: 'completed',
		description: 'Only records in this status',
	},
]);

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
				qs.article_id = assertUuid('Article ID', filters.articleId);
			const projectId = projectIdFromFilters(filters);
			if (projectId) qs.project_id = projectId;
			return qs;
		},
		shape: normaliseSocialRecord,
	});
}
