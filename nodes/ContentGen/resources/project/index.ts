import type { ResourceModule } from '../../helpers/types';
import * as get from './get';
import * as getMany from './getMany';

export const resource: ResourceModule = {
	name: 'Project',
	defaultOperation: 'getMany',
	operations: { get, getMany },
};
