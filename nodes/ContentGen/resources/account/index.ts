import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../../helpers/types';
import * as getCredits from './getCredits';
import * as getUsage from './getUsage';

export const operations: ResourceOperations = { getCredits, getUsage };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get Credits',
				value: 'getCredits',
				description:
					'Get the credit balance (plan plus purchased credits), credits used this month and the billing period end. Free.',
				action: 'Get credit balance',
			},
			{
				name: 'Get Usage',
				value: 'getUsage',
				description:
					"Get the API key's request counts, rate-limit budget and a 30-day breakdown per endpoint. Free.",
				action: 'Get API usage',
			},
		],
		default: 'getCredits',
	},
	...getCredits.description,
	...getUsage.description,
];
