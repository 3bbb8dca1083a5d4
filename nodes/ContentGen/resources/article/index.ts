import type { ResourceModule } from '../../helpers/types';
import * as generate from './generate';
import * as get from './get';
import * as getMany from './getMany';
import * as getStatus from './getStatus';
import * as waitForCompletion from './waitForCompletion';

export const resource: ResourceModule = {
	name: 'Article',
	defaultOperation: 'generate',
	operations: { generate, get, getMany, getStatus, waitForCompletion },
};
