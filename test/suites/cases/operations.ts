/**
 * The per-operation case table of the engine, security, fault and bad-input suites. Each suite
 * walks the node's own operation map (test/helpers/maps.ts) and takes its cases from here: an
 * operation without an entry fails test/guard/cases.ts by name, and the suites list it as skipped.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { SOCIAL_STATUSES as SPEC_SOCIAL_STATUSES } from '../../../sandbox/constants';
import { type OperationRef, nodeOperations, parametersOf } from '../../helpers/maps';
import type { Records } from '../helpers';
import {
	articleRead,
	byArticleId,
	byContentId,
	byFilter,
	byProject,
	freshSocial,
	imageFields,
	limitField,
	minimumBalanceField,
	onIncompleteField,
	outputFields,
	sortFields,
	projectLocatorFields,
	waitFields,
	waiting,
} from './builders';
import { fromList } from './locators';
import { QUEUE_FIELDS, QUEUED } from './queue';
import {
	badDate,
	badRecordId,
	badOptionalId,
	badPlatforms,
	badPublishPlatforms,
	badUrl,
	integerOutside,
	nonText,
	notOneOf,
	notOneOfOptional,
	PLATFORMS,
	textOutside,
	tooManyKeywords,
	wrongType,
} from './arbitraries';

export type { Field, IdCase, OperationCase, RouteName } from './types';
import type { Field, OperationCase } from './types';

/** Options every operation has: added to an operation's fields when its parameters include them. */
export const COMMON_FIELDS: Field[] = [
	{
		path: 'options.requestTimeout',
		label: 'Request Timeout',
		bad: integerOutside(1, 600),
		runs: 4,
	},
	{
		path: 'options.maxRateLimitWait',
		label: 'Max Rate-Limit Wait',
		bad: integerOutside(0, 3600),
		runs: 4,
	},
	{
		path: 'options.parallelRequests',
		label: 'Parallel Requests',
		bad: integerOutside(1, 1000),
		runs: 4,
	},
	...outputFields,
];

export const OPERATION_CASES: Record<string, OperationCase> = {
	'article.generate': {
		method: 'POST',
		routes: [
			'POST /articles/generate',
			'GET /articles/:id/status',
			'GET /articles/:id',
			'GET /articles',
			'GET /user/credits',
		],
		charged: true,
		valid: (r) => ({ topic: 'A valid topic', projectId: fromList(r.projectId) }),
		variants: {
			'Wait for Completion': (r) => ({
				topic: 'Keys stay secret while waiting',
				projectId: fromList(r.projectId),
				waitForCompletion: true,
				options: { pollInterval: 1 },
			}),
		},
		ids: [
			byProject('article generate project', (projectId) => ({
				resource: 'article',
				operation: 'generate',
				topic: 'A valid topic',
				projectId,
			})),
		],
		fields: [
			{ path: 'topic', label: 'Topic', bad: fc.oneof(textOutside(3, 500), wrongType) },
			...projectLocatorFields,
			{ path: 'additionalFields.keywords', label: 'Keywords', bad: tooManyKeywords },
			{
				path: 'additionalFields.tone',
				label: 'Tone',
				bad: notOneOf(['professional', 'casual', 'academic', 'conversational']),
			},
			{ path: 'additionalFields.wordCount', label: 'Word Count', bad: integerOutside(300, 5000) },
			minimumBalanceField,
			...waitFields().map((f) => ({ ...f, with: waiting })),
		],
	},
	'article.get': articleRead('get', 'GET /articles/:id'),
	'article.getMany': {
		method: 'GET',
		routes: ['GET /articles'],
		valid: () => ({ returnAll: false, limit: 150 }),
		variants: { 'Return All': () => ({ returnAll: true }) },
		ids: [byFilter('article', 'projectId', true, (r) => r.projectId)],
		fields: [
			limitField,
			onIncompleteField,
			{
				path: 'filters.status',
				label: 'Status',
				bad: notOneOfOptional(['draft', 'queued', 'cms', 'needs_editing', 'failed', 'archived']),
			},
			{ path: 'filters.projectId', label: 'Project', bad: badOptionalId.map(fromList) },
			{ path: 'filters.search', label: 'Search', bad: nonText },
			...sortFields,
		],
	},
	'article.getStatus': articleRead('getStatus', 'GET /articles/:id/status'),
	'article.waitForCompletion': {
		method: 'GET',
		routes: ['GET /articles/:id/status', 'GET /articles/:id', 'GET /articles'],
		valid: (r) => ({ articleId: r.articleId, options: { pollInterval: 1 } }),
		ids: [byArticleId('article waitForCompletion', 'waitForCompletion')],
		fields: [{ path: 'articleId', label: 'Article ID', bad: badRecordId }, ...waitFields()],
	},
	'socialContent.generate': {
		method: 'POST',
		routes: [
			'POST /social/generate',
			'GET /social/content/:id',
			'GET /social/content',
			'GET /user/credits',
		],
		charged: true,
		valid: () => ({ sourceUrl: 'https://example.com/post', platforms: ['linkedin'] }),
		variants: {
			'Wait for Completion and image download': () => ({
				sourceUrl: 'https://example.com/secret',
				platforms: ['instagram'],
				waitForCompletion: true,
				options: { pollInterval: 1, downloadImages: true },
			}),
		},
		ids: [
			byProject('socialContent generate project', (projectId) => ({
				resource: 'socialContent',
				operation: 'generate',
				sourceUrl: 'https://example.com/post',
				platforms: ['linkedin'],
				additionalFields: { projectId },
			})),
		],
		fields: [
			{ path: 'sourceUrl', label: 'Source URL', bad: badUrl },
			{ path: 'platforms', label: 'Platforms', bad: badPlatforms },
			{
				path: 'additionalFields.sourceType',
				label: 'Source Type',
				bad: notOneOf(['website', 'blog', 'youtube']),
			},
			{
				path: 'additionalFields.angle',
				label: 'Angle',
				bad: fc.oneof(textOutside(0, 500), nonText),
			},
			{
				path: 'additionalFields.title',
				label: 'Title',
				bad: fc.oneof(textOutside(0, 200), nonText),
			},
			{ path: 'additionalFields.projectId', label: 'Project', bad: badOptionalId.map(fromList) },
			minimumBalanceField,
			...imageFields({ ...waiting, options: { downloadImages: true } }),
			...waitFields().map((f) => ({ ...f, with: waiting })),
		],
	},
	'socialContent.get': {
		method: 'GET',
		routes: ['GET /social/content/:id'],
		valid: (r) => ({ contentId: r.contentId }),
		variants: {
			'image download': (r) => ({ contentId: r.contentId, options: { downloadImages: true } }),
		},
		ids: [byContentId('socialContent get', 'get')],
		fields: [
			{ path: 'contentId', label: 'Content ID', bad: badRecordId },
			...imageFields({ options: { downloadImages: true } }),
		],
	},
	'socialContent.getMany': {
		method: 'GET',
		routes: ['GET /social/content'],
		valid: () => ({ returnAll: false, limit: 5 }),
		variants: { 'Return All': () => ({ returnAll: true }) },
		ids: [
			byFilter('socialContent', 'articleId', false, (r) => r.articleId),
			byFilter('socialContent', 'projectId', true, (r) => r.projectId),
		],
		fields: [
			limitField,
			onIncompleteField,
			{ path: 'filters.articleId', label: 'Article ID', bad: badOptionalId },
			{ path: 'filters.platform', label: 'Platform', bad: notOneOfOptional(PLATFORMS) },
			{ path: 'filters.status', label: 'Status', bad: notOneOfOptional([...SPEC_SOCIAL_STATUSES]) },
			{ path: 'filters.projectId', label: 'Project', bad: badOptionalId.map(fromList) },
		],
	},
	'socialContent.publish': {
		method: 'POST',
		// The queue reads the scheduled list and the record's platforms before it posts.
		routes: ['POST /social/publish', 'GET /social/content', 'GET /social/content/:id'],
		valid: (r) => ({ contentId: freshSocial(r) }),
		variants: { 'Next Free Slot': (r) => ({ contentId: freshSocial(r), ...QUEUED }) },
		ids: [byContentId('socialContent publish', 'publish', freshSocial)],
		fields: [
			{ path: 'contentId', label: 'Content ID', bad: badRecordId },
			{ path: 'additionalFields.platforms', label: 'Platforms', bad: badPublishPlatforms },
			{ path: 'additionalFields.scheduledAt', label: 'Scheduled At', bad: badDate },
			...QUEUE_FIELDS,
		],
	},
	'socialContent.waitForCompletion': {
		method: 'GET',
		routes: ['GET /social/content/:id', 'GET /social/content'],
		valid: (r) => ({ contentId: r.contentId, options: { pollInterval: 1 } }),
		ids: [byContentId('socialContent waitForCompletion', 'waitForCompletion')],
		fields: [
			{ path: 'contentId', label: 'Content ID', bad: badRecordId },
			...imageFields({ options: { pollInterval: 1, downloadImages: true } }),
			...waitFields(),
		],
	},
	'project.get': {
		method: 'GET',
		routes: ['GET /projects/:id'],
		valid: (r) => ({ projectId: fromList(r.projectId) }),
		ids: [
			{
				name: 'project get',
				params: (id) => ({ resource: 'project', operation: 'get', projectId: fromList(id) }),
				real: (r) => r.projectId,
			},
		],
		fields: projectLocatorFields,
	},
	'project.getMany': {
		method: 'GET',
		routes: ['GET /projects'],
		valid: () => ({ returnAll: false, limit: 5 }),
		variants: { 'Return All': () => ({ returnAll: true }) },
		ids: [],
		fields: [
			limitField,
			onIncompleteField,
			{ path: 'filters.search', label: 'Search', bad: nonText },
			{ path: 'filters.status', label: 'Status', bad: nonText },
		],
	},
	'account.getCredits': {
		method: 'GET',
		routes: ['GET /user/credits'],
		valid: () => ({}),
		ids: [],
		fields: [],
	},
	'account.getUsage': {
		method: 'GET',
		routes: ['GET /user/usage'],
		valid: () => ({}),
		ids: [],
		fields: [],
	},
};

/** Where a missing entry is reported: the suites name the operation and this table. */
export function missingCase(key: string): string {
	return `${key} has no entry in OPERATION_CASES (test/suites/cases/operations.ts): add its method, routes, valid parameters, id parameters and bad values there`;
}

/**
 * One describe per operation of the node's map, named by its key. An operation without an entry
 * in the table fails one test, test/guard/cases.ts's, which names what to add; here it gets a
 * skipped test that names it, so the listing shows what it lacks without failing once per suite.
 */
export function describeEachOperation(
	suite: string,
	body: (ref: OperationRef, entry: OperationCase) => void,
): void {
	describe.each(nodeOperations().map((ref) => [ref.key, ref] as const))('%s', (_key, ref) => {
		const entry = OPERATION_CASES[ref.key];
		if (entry) body(ref, entry);
		else it.skip(`has its ${suite} cases: ${missingCase(ref.key)}`, () => undefined);
	});
}

/** The operation's own fields, plus the shared options it has. */
export function fieldsOf(ref: OperationRef, entry: OperationCase): Field[] {
	const paths = parametersOf(ref.module).map((p) => p.path);
	// A Generate shows its Output only when it waits.
	const shown = (field: Field): Field =>
		outputFields.includes(field) && paths.includes('waitForCompletion')
			? { ...field, with: { ...field.with, ...waiting } }
			: field;
	return [
		...entry.fields,
		...COMMON_FIELDS.filter((field) => paths.includes(field.path)).map(shown),
	];
}

/** Every successful run of an operation: its valid parameters and its variants, named. */
export function successfulRuns(
	ref: OperationRef,
	entry: OperationCase,
): Array<[string, (records: Records) => IDataObject]> {
	const base = { resource: ref.resource, operation: ref.operation };
	const runs: Array<[string, (records: Records) => IDataObject]> = [
		['valid parameters', entry.valid],
		...Object.entries(entry.variants ?? {}),
	];
	return runs.map(([name, params]) => [name, (records) => ({ ...base, ...params(records) })]);
}

/** Every successful run of every operation that has an entry, named `key run`. */
export function everyRun(): Array<[string, (records: Records) => IDataObject]> {
	return nodeOperations().flatMap((ref) => {
		const entry = OPERATION_CASES[ref.key];
		if (!entry) return [];
		return successfulRuns(ref, entry).map(
			([name, params]): [string, (records: Records) => IDataObject] => [
				`${ref.key} ${name}`,
				params,
			],
		);
	});
}
