import type { INodePropertyOptions } from 'n8n-workflow';

import { resourceDescription } from '../../helpers/descriptions';
import type { ResourceOperations } from '../../helpers/types';
import * as getCredits from './getCredits';
import * as getUsage from './getUsage';

export const operations: ResourceOperations = { getCredits, getUsage };

const OPERATION_OPTIONS: INodePropertyOptions[] = [
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
];

export const description = resourceDescription(
	'account',
	operations,
	OPERATION_OPTIONS,
	'getCredits',
);
