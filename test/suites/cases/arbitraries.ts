/**
 * Values the service would reject (or that do not belong in a URL), by kind of parameter: the
 * bad-input suite feeds them to every parameter of every operation.
 */
import fc from 'fast-check';

import { PLATFORMS as SPEC_PLATFORMS } from '../../../sandbox/constants';
import { fromList, UUID_PATTERN } from './locators';

export const PLATFORMS: string[] = [...SPEC_PLATFORMS];
const SAMPLE_UUID = '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';

/** n8n evaluates strings starting with "=" as expressions: not what these tests feed in. */
export const notExpression = (value: unknown) =>
	!(typeof value === 'string' && value.startsWith('='));
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
export const wrongType = fc.oneof(wrongTypeNoNull, fc.constant(null));

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
export const badId = fc
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
export const badLocatorValue = badId.filter((v) => v !== null);
/** A record ID picker's value that is not a UUID, or a bare one (an expression, an AI agent). */
export const badRecordId = fc.oneof(badId.map(fromList), badLocatorValue);
/** For optional ids, empty means "not set": only present, wrong values. */
export const badOptionalId = badId.filter(
	(v) => v !== null && !(typeof v === 'string' && v.trim() === ''),
);

export const textOutside = (min: number, max: number) =>
	fc
		.oneof(
			fc.string({ unit: 'binary', maxLength: Math.max(0, min - 1) }),
			fc.string({ unit: 'binary', minLength: max + 1, maxLength: max + 60 }),
			fc.string({ unit: 'grapheme', minLength: max + 1, maxLength: max + 20 }),
			fc.constant('x'.repeat(1_000_000)),
		)
		.filter((s) => notExpression(s) && (codePoints(s) < min || codePoints(s) > max));

export const notOneOf = (allowed: readonly string[]) =>
	fc
		.oneof(
			anyText,
			fc.constantFrom(...allowed.map((a) => a.toUpperCase()), ...allowed.map((a) => ` ${a}`)),
			wrongType,
		)
		.filter((v) => notExpression(v) && !(typeof v === 'string' && allowed.includes(v)));

export const integerOutside = (min: number, max: number) =>
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
export const badUrl = fc
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

export const badPlatforms = fc.oneof(
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
export const badPublishPlatforms = badPlatforms.filter(
	(v) => v !== null && !(Array.isArray(v) && v.length === 0),
);

export const tooManyKeywords = fc.oneof(
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

export const negativeOrNotNumber = fc.oneof(
	fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
	fc.constantFrom(NaN, Infinity, -1, '5', true, null),
	fc.array(fc.integer(), { maxLength: 2 }),
);
export const notPositiveSize = fc.oneof(
	fc.double({ max: 0, noNaN: true }),
	fc.constantFrom(0, -5, '5', 'big', true, false),
	fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 1 }),
);

export const badDate = fc
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

export const nonText = wrongTypeNoNull.filter((v) => !(typeof v === 'string'));

/** Not a list of field names (text separated by commas is one). */
export const badFieldList = fc.oneof(
	fc.integer(),
	fc.boolean(),
	fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
	fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { minKeys: 1, maxKeys: 2 }),
);

/** For optional choices, empty means "not set": only present, wrong values. */
export const notOneOfOptional = (allowed: readonly string[]) =>
	notOneOf(allowed).filter((v) => v !== null && !(typeof v === 'string' && v.trim() === ''));

/** Not a field name: empty, spaced, too long, or not text. */
export const badFieldName = fc.oneof(
	fc.constantFrom('', '   ', 'my image', 'a\tb', 'x'.repeat(101)),
	nonText,
);
