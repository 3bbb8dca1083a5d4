import type { INodePropertyOptions } from 'n8n-workflow';

import { resourceDescription } from '../../helpers/descriptions';
import type { ResourceOperations } from '../../helpers/types';
import * as get from './get';
import * as getMany from './getMany';

export const operations: ResourceOperations = { get, getMany };

const OPERATION_OPTIONS: INodePropertyOptions[] = [
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
];

export const description = resourceDescription('project', operations, OPERATION_OPTIONS, 'getMany');
