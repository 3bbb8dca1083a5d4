import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../helpers/types';
import * as account from './account';

export const resources: Record<string, { operations: ResourceOperations; description: INodeProperties[] }> = {
	account,
};

export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [{ name: 'Account', value: 'account' }],
	default: 'account',
};
