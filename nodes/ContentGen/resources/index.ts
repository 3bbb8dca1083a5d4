import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../helpers/types';
import * as account from './account';
import * as article from './article';
import * as project from './project';
import * as socialContent from './socialContent';

export const resources: Record<
	string,
	{ operations: ResourceOperations; description: INodeProperties[] }
> = {
	article,
	socialContent,
	project,
	account,
};

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Account', value: 'account' },
		{ name: 'Article', value: 'article' },
		{ name: 'Project', value: 'project' },
		{ name: 'Social Content', value: 'socialContent' },
	],
	default: 'article',
};
