import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../../helpers/types';
import * as get from './get';
import * as getMany from './getMany';

export const operations: ResourceOperations = { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['project'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get one project: business name, website, language, tone and offer. Free.',
				action: 'Get a project',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List projects, optionally by status or business name. Free.',
				action: 'Get many projects',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];
