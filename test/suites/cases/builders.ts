/**
 * The pieces the case table (./operations) is built of: bad values shared by several operations,
 * and the ways an id parameter is written into an operation's parameters.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Records } from '../helpers';
import {
	integerOutside,
	negativeOrNotNumber,
	notOneOf,
	notPositiveSize,
	badId,
	badRecordId,
	badLocatorValue,
	badFieldList,
	badFieldName,
	notOneOfOptional,
} from './arbitraries';
import { fromList } from './locators';
import type { Field, IdCase, OperationCase, RouteName } from './types';

export const waitFields = (prefix = 'options'): Field[] => [
	{ path: `${prefix}.pollInterval`, label: 'Poll Interval', bad: integerOutside(1, 600) },
	{ path: `${prefix}.timeout`, label: 'Timeout', bad: integerOutside(1, 7200) },
	{ path: `${prefix}.onTimeout`, label: 'On Timeout', bad: notOneOf(['returnLast', 'fail']) },
];
export const waiting = { waitForCompletion: true };
export const limitField: Field = {
	path: 'limit',
	label: 'Limit',
	bad: integerOutside(1, Number.MAX_SAFE_INTEGER),
};
export const onIncompleteField: Field = {
	path: 'options.onIncompleteList',
	label: 'On Incomplete List',
	bad: notOneOf(['warn', 'error']),
};
export const minimumBalanceField: Field = {
	path: 'options.minimumBalance',
	label: 'Minimum Balance to Keep',
	bad: negativeOrNotNumber,
};
/** The image download's options: its size bound and the name of its binary field. */
export const imageFields = (withParameters: IDataObject): Field[] => [
	{
		path: 'options.maxImageSizeMb',
		label: 'Max Image Size (MB)',
		bad: notPositiveSize,
		with: withParameters,
	},
	{
		path: 'options.binaryPropertyName',
		label: 'Put Output Images in Field',
		bad: badFieldName,
		with: withParameters,
	},
];
export const projectLocatorFields: Field[] = [
	{ path: 'projectId', label: 'Project', bad: badId.map(fromList) },
	{ path: 'projectId', label: 'Project', bad: badLocatorValue },
];

export const byArticleId = (name: string, operation: string): IdCase => ({
	name,
	params: (id) => ({ resource: 'article', operation, articleId: id }),
	real: (r) => r.articleId,
});
export const byContentId = (
	name: string,
	operation: string,
	real = (r: Records) => r.contentId,
) => ({
	name,
	params: (id: string): IDataObject => ({ resource: 'socialContent', operation, contentId: id }),
	real,
});
/** A Get Many filter that carries a record id into the query (a project filter is a locator). */
export const byFilter = (
	resource: string,
	filter: string,
	locator: boolean,
	real: (r: Records) => string,
): IdCase => ({
	name: `${resource} getMany ${filter} filter`,
	params: (id) => ({
		resource,
		operation: 'getMany',
		filters: { [filter]: locator ? fromList(id) : id },
	}),
	real,
});
/** A read of one article by its id. */
export const articleRead = (operation: string, route: RouteName): OperationCase => ({
	method: 'GET',
	routes: [route],
	valid: (r) => ({ articleId: r.articleId }),
	ids: [byArticleId(`article ${operation}`, operation)],
	fields: [{ path: 'articleId', label: 'Article ID', bad: badRecordId }],
});
export const freshSocial = (r: Records) => r.sb.control.seedSocial(1)[0];
/** The project a generate takes, picked from the list: the record a 404 on it names. */
export const byProject = (name: string, params: (project: IDataObject) => IDataObject): IdCase => ({
	name,
	params: (id) => params(fromList(id)),
	real: (r) => r.projectId,
});

/** Output and its field list (a Generate shows them only when it waits). */
export const outputFields: Field[] = [
	{
		path: 'output',
		label: 'Output',
		bad: notOneOf(['fields', 'raw', 'simple']),
		runs: 4,
	},
	{
		path: 'fields',
		label: 'Fields',
		bad: badFieldList,
		runs: 4,
		with: { output: 'fields' },
	},
];

/** Article Get Many's sorting: its own Sort collection. */
export const sortFields: Field[] = [
	{
		path: 'sort.sortBy',
		label: 'Sort By',
		bad: notOneOfOptional(['created_at', 'updated_at', 'title']),
	},
	{ path: 'sort.order', label: 'Order', bad: notOneOfOptional(['asc', 'desc']) },
];
