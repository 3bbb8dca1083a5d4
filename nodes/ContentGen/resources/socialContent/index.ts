import type { ResourceModule } from '../../helpers/types';
import * as generate from './generate';
import * as get from './get';
import * as getMany from './getMany';
import * as publish from './publish';
import * as waitForCompletion from './waitForCompletion';

export const resource: ResourceModule = {
	name: 'Social Content',
	defaultOperation: 'generate',
	operations: { generate, get, getMany, publish, waitForCompletion },
};
