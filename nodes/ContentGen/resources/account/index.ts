import type { ResourceModule } from '../../helpers/types';
import * as getCredits from './getCredits';
import * as getUsage from './getUsage';

export const resource: ResourceModule = {
	name: 'Account',
	defaultOperation: 'getCredits',
	operations: { getCredits, getUsage },
};
