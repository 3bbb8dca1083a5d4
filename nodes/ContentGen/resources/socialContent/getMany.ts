import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { SOCIAL_STATUSES } from '../../../shared/constants';
import { apiRequestAll } from '../../../shared/transport';
import { assertUuid, validatePlatform, validateSocialStatus } from '../../../shared/validation';
import { optionsCollection, simplifyProperty } from '../../helpers/descriptions';
import { maxRateLimitWaitMs, runPerItem } from '../../helpers/items';
import { readFilters, readLimit, returnAllAndLimit } from '../../helpers/lists';
import { projectFilter, projectIdFromFilters } from '../../helpers/project';
import { platformOptions } from './descriptions';
import { normaliseSocialRecord } from './output';

export const description: INodeProperties[] = [
	...returnAllAndLimit('socialContent', 'getMany'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['socialContent'], operation: ['getMany'] } },
		options: [
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
		],
	},
	simplifyProperty('socialContent', ['getMany']),
	optionsCollection('socialContent', 'getMany'),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem.call(this, items, async (itemIndex) => {
		const limit = readLimit(this, itemIndex);
		const filters = readFilters(this, itemIndex);
		const qs: IDataObject = {};
		if (filters.platform !== undefined)
			qs.platform = validatePlatform('Platform', filters.platform);
		if (filters.status !== undefined) qs.status = validateSocialStatus('Status', filters.status);
		if (filters.articleId !== undefined)
			qs.article_id = assertUuid('Article ID', filters.articleId);
		const projectId = projectIdFromFilters(filters);
		if (projectId) qs.project_id = projectId;
		const simplify = this.getNodeParameter('simplify', itemIndex, false) === true;
		const records = await apiRequestAll.call(this, '/social/content', qs, limit, {
			maxRateLimitWaitMs: maxRateLimitWaitMs(this, itemIndex),
			itemIndex,
		});
		return (records as IDataObject[]).map((record) => normaliseSocialRecord(record, simplify));
	});
}
