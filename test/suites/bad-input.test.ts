/**
 * Every parameter of every operation, fuzzed with values the service would reject (or that do not
 * belong in a URL): each run must stop with a NodeOperationError naming the field, and send
 * nothing at all (the sandbox's request log stays empty). Runs through n8n's engine.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import {
	PLATFORMS as SPEC_PLATFORMS,
	SOCIAL_STATUSES as SPEC_SOCIAL_STATUSES,
} from '../../sandbox/constants';
import { byId, errorName, fromList, runNode, suiteSandbox, UUID_PATTERN } from './helpers';

const RUNS = 12;
const PLATFORMS: string[] = [...SPEC_PLATFORMS];
const SAMPLE_UUID = '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';

let sb: Sandbox;
let projectId: string;
let articleId: string;
let contentId: string;

beforeAll(async () => {
	sb = await suiteSandbox({ seed: 7 });
	sb.control.advance(86_400_000);
	projectId = sb.control.projects()[0].id;
	[articleId] = sb.control.seedArticles(1, { status: 'cms' });
	[contentId] = sb.control.seedSocial(1, { status: 'completed' });
});
afterAll(async () => {
	await sb.close();
});

// ---- arbitraries ---------------------------------------------------------------------------

/** n8n evaluates strings starting with "=" as expressions: not what these tests feed in. */
const notExpression = (value: unknown) => !(typeof value === 'string' && value.startsWith('='));
const codePoints = (value: string) => Array.from(value).length;

const anyText = fc.oneof(
	fc.string(),
	fc.string({ unit: 'binary', maxLength: 40 }),
	fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const wrongTypeNoNull = fc.oneof(
	fc.integer(),
	fc.double(),
	fc.boolean(),
	fc.array(fc.integer(), { maxLength: 3 }),
	fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);
const wrongType = fc.oneof(wrongTypeNoNull, fc.constant(null));

const pathTricks = [
	'../user/credits',
	'..%2F..%2Fuser%2Fcredits',
	'%2e%2e/%2e%2e/user/credits',
	'%2E%2E',
	'?x=1',
	'#',
	`${SAMPLE_UUID}?x=1`,
	`${SAMPLE_UUID}#frag`,
	`${SAMPLE_UUID}/../../user/credits`,
	`${SAMPLE_UUID}/status`,
	`../${SAMPLE_UUID}`,
	`${SAMPLE_UUID}%2F..`,
	`https://evil.example/api/v1/articles/${SAMPLE_UUID}`,
	`//evil.example/${SAMPLE_UUID}`,
	`${SAMPLE_UUID}\u0000`,
	`${SAMPLE_UUID} x`,
	SAMPLE_UUID.replace(/-/g, ''),
	`{${SAMPLE_UUID}}`,
	'３f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
	`${SAMPLE_UUID.slice(0, -1)}g`,
	'a'.repeat(100_000),
	'',
	'   ',
];
/** Anything that is not a UUID (surrounding spaces are forgiven, so those are excluded). */
const badId = fc
	.oneof(
		fc.constantFrom(...pathTricks),
		anyText,
		fc.uuid().map((u) => `${u}/..`),
		fc.uuid().map((u) => `${u}?page=2`),
		fc.uuid().map((u) => `${u}#x`),
		wrongType,
	)
	.filter((v) => notExpression(v) && !(typeof v === 'string' && UUID_PATTERN.test(v.trim())));
/**
 * A bare value where n8n stores a resource locator (expressions, AI agents). A bare null never
 * reaches the node: n8n's own parameter check trips over it first (a TypeError inside n8n).
 */
const badLocatorValue = badId.filter((v) => v !== null);
/** For optional ids, empty means "not set": only present, wrong values. */
const badOptionalId = badId.filter(
	(v) => v !== null && !(typeof v === 'string' && v.trim() === ''),
);

const textOutside = (min: number, max: number) =>
	fc
		.oneof(
			fc.string({ unit: 'binary', maxLength: Math.max(0, min - 1) }),
			fc.string({ unit: 'binary', minLength: max + 1, maxLength: max + 60 }),
			fc.string({ unit: 'grapheme', minLength: max + 1, maxLength: max + 20 }),
			fc.constant('x'.repeat(1_000_000)),
		)
		.filter((s) => notExpression(s) && (codePoints(s) < min || codePoints(s) > max));

const notOneOf = (allowed: readonly string[]) =>
	fc
		.oneof(
			anyText,
			fc.constantFrom(...allowed.map((a) => a.toUpperCase()), ...allowed.map((a) => ` ${a}`)),
			wrongType,
		)
		.filter((v) => notExpression(v) && !(typeof v === 'string' && allowed.includes(v)));

const integerOutside = (min: number, max: number) =>
	fc.oneof(
		fc.integer({ min: -(2 ** 31), max: min - 1 }),
		max < 2 ** 31 - 1 ? fc.integer({ min: max + 1 }) : fc.constant(-1),
		fc.double({ min, max: Math.min(max, 1e6), noNaN: true }).filter((d) => !Number.isInteger(d)),
		fc.constantFrom(NaN, Infinity, -Infinity, String(min), `${max}`, true),
		fc.constant(null),
		fc.array(fc.integer(), { maxLength: 2 }),
	);

const isHttpUrl = (value: string) => {
	try {
		const url = new URL(value.trim());
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
};
const badUrl = fc
	.oneof(
		anyText,
		fc.constantFrom(
			'ftp://example.com/post',
			'javascript:alert(1)',
			'file:///etc/passwd',
			'example.com/post',
			'//example.com/post',
			'data:text/html,hi',
			'mailto:a@example.com',
			'ws://example.com/socket',
			'http://',
			'',
		),
		wrongType,
	)
	.filter((v) => notExpression(v) && !(typeof v === 'string' && isHttpUrl(v)));

const badPlatforms = fc.oneof(
	fc.constant([]),
	fc.shuffledSubarray(PLATFORMS, { minLength: 11 }),
	fc
		.array(
			fc.string().filter((s) => !PLATFORMS.includes(s) && notExpression(s)),
			{ minLength: 1, maxLength: 3 },
		)
		.map((extra) => ['instagram', ...extra]),
	fc.constantFrom(['Instagram'], ['x'], ['google business'], 'instagram', 'instagram,linkedin'),
	fc.array(wrongTypeNoNull, { minLength: 1, maxLength: 2 }),
	wrongType,
);
/** Publish: an empty choice means "every platform", so only non-empty wrong values. */
const badPublishPlatforms = badPlatforms.filter(
	(v) => v !== null && !(Array.isArray(v) && v.length === 0),
);

const tooManyKeywords = fc.oneof(
	fc.array(
		fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '' && !s.includes(',')),
		{ minLength: 21, maxLength: 40 },
	),
	fc
		.integer({ min: 21, max: 60 })
		.map((n) => Array.from({ length: n }, (_, i) => `kw${i}`).join(',')),
	fc.array(wrongTypeNoNull, { minLength: 1, maxLength: 3 }).map((bad) => ['fine', ...bad]),
	wrongTypeNoNull.filter((v) => !Array.isArray(v) || v.length > 0),
);

const negativeOrNotNumber = fc.oneof(
	fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
	fc.constantFrom(NaN, Infinity, -1, '5', true, null),
	fc.array(fc.integer(), { maxLength: 2 }),
);
const notPositiveSize = fc.oneof(
	fc.double({ max: 0, noNaN: true }),
	fc.constantFrom(0, -5, '5', 'big', true, false),
	fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 1 }),
);

const badDate = fc
	.oneof(
		fc.constantFrom(
			'not a date',
			'tomorrow at nine',
			'2026-13-01T10:00:00Z',
			'2026-12-01T25:00:00Z',
			'2026-02-31T10:00:00Z',
			'2026-13-01T10:00',
			'2026-02-30 09:00',
			true,
			false,
			{},
			[2026, 12, 1],
		),
		fc.string().filter((s) => Number.isNaN(new Date(s).getTime())),
	)
	// an empty Scheduled At means "publish now"
	.filter((v) => notExpression(v) && v !== '');

const nonText = wrongTypeNoNull.filter((v) => !(typeof v === 'string'));

// ---- cases ---------------------------------------------------------------------------------

interface Field {
	/** Dotted path of the parameter (collections: "additionalFields.tone"). */
	path: string;
	/** What the error message must name. */
	label: string;
	bad: fc.Arbitrary<unknown>;
	/** Parameters that make this field count (e.g. waitForCompletion for wait options). */
	with?: IDataObject;
}

interface Operation {
	resource: string;
	operation: string;
	valid: () => IDataObject;
	fields: Field[];
}

const waitFields = (prefix = 'options'): Field[] => [
	{ path: `${prefix}.pollInterval`, label: 'Poll Interval', bad: integerOutside(1, 600) },
	{ path: `${prefix}.timeout`, label: 'Timeout', bad: integerOutside(1, 7200) },
	{ path: `${prefix}.onTimeout`, label: 'On Timeout', bad: notOneOf(['returnLast', 'fail']) },
];
const waiting = { waitForCompletion: true };

const OPERATIONS: Operation[] = [
	{
		resource: 'article',
		operation: 'generate',
		valid: () => ({ topic: 'A valid topic', projectId: fromList(projectId) }),
		fields: [
			{ path: 'topic', label: 'Topic', bad: fc.oneof(textOutside(3, 500), wrongType) },
			{ path: 'projectId', label: 'Project', bad: badId.map(fromList) },
			{ path: 'projectId', label: 'Project', bad: badLocatorValue },
			{ path: 'additionalFields.keywords', label: 'Keywords', bad: tooManyKeywords },
			{
				path: 'additionalFields.tone',
				label: 'Tone',
				bad: notOneOf(['professional', 'casual', 'academic', 'conversational']),
			},
			{ path: 'additionalFields.wordCount', label: 'Word Count', bad: integerOutside(300, 5000) },
			{
				path: 'options.minimumBalance',
				label: 'Minimum Balance to Keep',
				bad: negativeOrNotNumber,
			},
			...waitFields().map((f) => ({ ...f, with: waiting })),
		],
	},
	{
		resource: 'article',
		operation: 'get',
		valid: () => ({ articleId }),
		fields: [{ path: 'articleId', label: 'Article ID', bad: badId }],
	},
	{
		resource: 'article',
		operation: 'getStatus',
		valid: () => ({ articleId }),
		fields: [{ path: 'articleId', label: 'Article ID', bad: badId }],
	},
	{
		resource: 'article',
		operation: 'waitForCompletion',
		valid: () => ({ articleId, options: { pollInterval: 1 } }),
		fields: [{ path: 'articleId', label: 'Article ID', bad: badId }, ...waitFields()],
	},
	{
		resource: 'article',
		operation: 'getMany',
		valid: () => ({ returnAll: false, limit: 5 }),
		fields: [
			{ path: 'limit', label: 'Limit', bad: integerOutside(1, Number.MAX_SAFE_INTEGER) },
			{
				path: 'filters.status',
				label: 'Status',
				bad: notOneOf(['draft', 'queued', 'cms', 'needs_editing', 'failed', 'archived']).filter(
					(v) => v !== null && !(typeof v === 'string' && v.trim() === ''),
				),
			},
			{ path: 'filters.projectId', label: 'Project', bad: badOptionalId.map(fromList) },
			{ path: 'filters.search', label: 'Search', bad: nonText },
			{
				path: 'filters.sortBy',
				label: 'Sort By',
				bad: notOneOf(['created_at', 'updated_at', 'title']).filter(
					(v) => v !== null && !(typeof v === 'string' && v.trim() === ''),
				),
			},
			{
				path: 'filters.order',
				label: 'Order',
				bad: notOneOf(['asc', 'desc']).filter(
					(v) => v !== null && !(typeof v === 'string' && v.trim() === ''),
				),
			},
		],
	},
	{
		resource: 'socialContent',
		operation: 'generate',
		valid: () => ({ sourceUrl: 'https://example.com/post', platforms: ['linkedin'] }),
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
			{
				path: 'options.minimumBalance',
				label: 'Minimum Balance to Keep',
				bad: negativeOrNotNumber,
			},
			{
				path: 'options.maxImageSizeMb',
				label: 'Max Image Size (MB)',
				bad: notPositiveSize,
				with: { ...waiting, options: { downloadImages: true } },
			},
			...waitFields().map((f) => ({ ...f, with: waiting })),
		],
	},
	{
		resource: 'socialContent',
		operation: 'get',
		valid: () => ({ contentId }),
		fields: [
			{ path: 'contentId', label: 'Content ID', bad: badId },
			{
				path: 'options.maxImageSizeMb',
				label: 'Max Image Size (MB)',
				bad: notPositiveSize,
				with: { options: { downloadImages: true } },
			},
		],
	},
	{
		resource: 'socialContent',
		operation: 'getMany',
		valid: () => ({ returnAll: false, limit: 5 }),
		fields: [
			{ path: 'limit', label: 'Limit', bad: integerOutside(1, Number.MAX_SAFE_INTEGER) },
			{ path: 'filters.articleId', label: 'Article ID', bad: badOptionalId },
			{
				path: 'filters.platform',
				label: 'Platform',
				bad: notOneOf(PLATFORMS).filter(
					(v) => v !== null && !(typeof v === 'string' && v.trim() === ''),
				),
			},
			{
				path: 'filters.status',
				label: 'Status',
				bad: notOneOf([...SPEC_SOCIAL_STATUSES]).filter(
					(v) => v !== null && !(typeof v === 'string' && v.trim() === ''),
				),
			},
			{ path: 'filters.projectId', label: 'Project', bad: badOptionalId.map(fromList) },
		],
	},
	{
		resource: 'socialContent',
		operation: 'publish',
		valid: () => ({ contentId }),
		fields: [
			{ path: 'contentId', label: 'Content ID', bad: badId },
			{ path: 'additionalFields.platforms', label: 'Platforms', bad: badPublishPlatforms },
			{ path: 'additionalFields.scheduledAt', label: 'Scheduled At', bad: badDate },
		],
	},
	{
		resource: 'socialContent',
		operation: 'waitForCompletion',
		valid: () => ({ contentId, options: { pollInterval: 1 } }),
		fields: [
			{ path: 'contentId', label: 'Content ID', bad: badId },
			{
				path: 'options.maxImageSizeMb',
				label: 'Max Image Size (MB)',
				bad: notPositiveSize,
				with: { options: { pollInterval: 1, downloadImages: true } },
			},
			...waitFields(),
		],
	},
	{
		resource: 'project',
		operation: 'get',
		valid: () => ({ projectId: fromList(projectId) }),
		fields: [
			{ path: 'projectId', label: 'Project', bad: badId.map(fromList) },
			{ path: 'projectId', label: 'Project', bad: badLocatorValue },
		],
	},
	{
		resource: 'project',
		operation: 'getMany',
		valid: () => ({ returnAll: false, limit: 5 }),
		fields: [
			{ path: 'limit', label: 'Limit', bad: integerOutside(1, Number.MAX_SAFE_INTEGER) },
			{ path: 'filters.search', label: 'Search', bad: nonText },
			{ path: 'filters.status', label: 'Status', bad: nonText },
		],
	},
];

function withValue(base: IDataObject, path: string, value: unknown): IDataObject {
	const out = structuredClone(base);
	const parts = path.split('.');
	let target = out;
	for (const part of parts.slice(0, -1)) {
		target[part] = { ...((target[part] as IDataObject | undefined) ?? {}) };
		target = target[part] as IDataObject;
	}
	target[parts[parts.length - 1]] = value as IDataObject[string];
	return out;
}

function describeValue(value: unknown): string {
	const text =
		typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * Runs the node and says what is wrong, if anything: the run must stop before any request with
 * a NodeOperationError naming the field. An empty required field may instead be refused by n8n
 * itself before the node runs (WorkflowHasIssuesError, "Parameter \"Topic\" is required.").
 */
async function rejection(parameters: IDataObject, label: string): Promise<string | undefined> {
	sb.control.resetRequests();
	let name: string | undefined;
	let message = '';
	try {
		const result = await runNode(sb, parameters);
		name = result.error ? errorName(result) : undefined;
		message = result.error?.message ?? '';
	} catch (error) {
		name = (error as Error).name;
		message = (error as Error).message;
	}
	const sent = sb.control.requests().map((r) => `${r.method} ${r.path}`);
	const accepted =
		(name === 'NodeOperationError' && message.includes(label)) ||
		(name === 'WorkflowHasIssuesError' && message.includes(`"${label}" is required`));
	if (accepted && sent.length === 0) return undefined;
	return `${name ?? 'no error'} "${message}", requests: ${JSON.stringify(sent)}`;
}

describe.each(OPERATIONS)('$resource $operation', ({ resource, operation, valid, fields }) => {
	it('sends a request when every parameter is valid (so the zero-request check is live)', async () => {
		sb.control.resetRequests();
		const result = await runNode(sb, { resource, operation, ...valid() });
		expect(result.error).toBeUndefined();
		expect(sb.control.requests().length).toBeGreaterThan(0);
	});

	it.each(fields.map((field) => [field.path, field] as const))(
		'rejects bad %s before any request, naming the field',
		async (_path, field) => {
			await fc.assert(
				fc.asyncProperty(field.bad, async (value) => {
					const parameters = withValue(
						{ resource, operation, ...valid(), ...field.with },
						field.path,
						value,
					);
					const verdict = await rejection(parameters, field.label);
					if (verdict) throw new Error(`${field.path} = ${describeValue(value)}: ${verdict}`);
				}),
				{ numRuns: RUNS, seed: 20261 },
			);
		},
	);
});

describe('batches and n8n-side checks', () => {
	it('spends nothing when one item of a batch is invalid (without Continue On Fail)', async () => {
		sb.control.resetRequests();
		const ledger = sb.control.ledger().length;
		const result = await runNode(
			sb,
			{
				resource: 'article',
				operation: 'generate',
				topic: '={{ $json.topic }}',
				projectId: fromList(projectId),
			},
			{ input: [{ topic: 'First valid topic' }, { topic: 'no' }, { topic: 'Third valid topic' }] },
		);
		expect(errorName(result)).toBe('NodeOperationError');
		expect(result.error?.message).toContain('Topic');
		expect(sb.control.requests()).toEqual([]);
		expect(sb.control.ledger().length).toBe(ledger);
	});

	it('under Continue On Fail, fails only the invalid item and sends only the valid ones', async () => {
		sb.control.resetRequests();
		const result = await runNode(
			sb,
			{ resource: 'article', operation: 'get', articleId: '={{ $json.id }}' },
			{ input: [{ id: articleId }, { id: '../user/credits' }], continueOnFail: true },
		);
		const output = result.output('ContentGen');
		expect(output[0].json.id).toBe(articleId);
		expect(output[1].json.error).toContain('Article ID');
		expect(output[1].pairedItem).toEqual({ item: 1 });
		expect(sb.control.requests().map((r) => r.path)).toEqual([`/api/v1/articles/${articleId}`]);
	});

	it('a project typed in ID mode is checked by n8n itself before the node runs', async () => {
		sb.control.resetRequests();
		await expect(
			runNode(sb, { resource: 'project', operation: 'get', projectId: byId('../user/credits') }),
		).rejects.toThrow(/Not a valid project ID/);
		expect(sb.control.requests()).toEqual([]);
	});

	it('the account operations take no parameters to fuzz; an unknown operation is refused without a request', async () => {
		sb.control.resetRequests();
		const result = await runNode(sb, { resource: 'account', operation: '../user/credits' });
		expect(result.error?.message).toContain('not supported');
		expect(sb.control.requests()).toEqual([]);
	});
});
