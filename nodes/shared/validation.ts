import {
	ARTICLE_SORT_FIELDS,
	ARTICLE_TONES,
	BOUNDS,
	ON_TIMEOUT,
	RATE_LIMIT_WAIT,
	REQUEST_TIMEOUT,
	SORT_ORDERS,
	SOURCE_TYPES,
	UUID_EXAMPLE,
	UUID_PATTERN,
	WAIT,
} from './constants';
import { PLATFORMS } from './domain/platforms';
import { ARTICLE_STATUSES, SOCIAL_STATUSES } from './domain/statuses';
import type { OnTimeout } from './constants';

/**
 * A parameter the service would reject. Raised before any request is sent, so no credit is spent;
 * the node turns it into a NodeOperationError that names the field.
 */
export class ValidationError extends Error {
	constructor(
		readonly field: string,
		message: string,
	) {
		super(message);
		this.name = 'ValidationError';
	}
}

/** Counts user-perceived characters the way a person would (an emoji is one, not two). */
function charCount(value: string): number {
	return Array.from(value).length;
}

export function describe(value: unknown): string {
	if (typeof value === 'string') {
		const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
		return `"${shown}"`;
	}
	if (value === undefined || value === null) return 'nothing';
	if (Array.isArray(value)) return `a list of ${value.length}`;
	if (typeof value === 'number') return String(value);
	return `a ${typeof value}`;
}

export function requireString(field: string, value: unknown): string {
	if (typeof value !== 'string') {
		throw new ValidationError(field, `${field} must be text, got ${describe(value)}`);
	}
	return value;
}

export function assertUuid(field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text !== 'string' || !UUID_PATTERN.test(text)) {
		throw new ValidationError(
			field,
			`${field} must be a UUID such as ${UUID_EXAMPLE}, got ${describe(value)}`,
		);
	}
	return text.toLowerCase();
}

/** A validated id, safe to place in a URL path. */
export function pathId(field: string, value: unknown): string {
	return encodeURIComponent(assertUuid(field, value));
}

export function assertLength(
	field: string,
	value: unknown,
	bounds: { min?: number; max: number },
): string {
	const text = requireString(field, value);
	const length = charCount(text);
	const min = bounds.min ?? 0;
	if (length < min || length > bounds.max) {
		const range = bounds.min === undefined ? `at most ${bounds.max}` : `${min}-${bounds.max}`;
		throw new ValidationError(
			field,
			`${field} must be ${range} characters long, got ${length} characters`,
		);
	}
	return text;
}

export function assertInteger(
	field: string,
	value: unknown,
	bounds: { min: number; max: number },
): number {
	if (typeof value !== 'number' || !Number.isInteger(value)) {
		throw new ValidationError(
			field,
			`${field} must be a whole number from ${bounds.min} to ${bounds.max}, got ${describe(value)}`,
		);
	}
	if (value < bounds.min || value > bounds.max) {
		throw new ValidationError(
			field,
			`${field} must be from ${bounds.min} to ${bounds.max}, got ${value}`,
		);
	}
	return value;
}

export function assertOneOf<T extends string>(
	field: string,
	value: unknown,
	allowed: readonly T[],
): T {
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		throw new ValidationError(
			field,
			`${field} must be one of ${allowed.join(', ')}; got ${describe(value)}`,
		);
	}
	return value as T;
}

export function assertHttpUrl(field: string, value: unknown): string {
	const text = requireString(field, value).trim();
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		throw new ValidationError(
			field,
			`${field} must be a full http(s) URL such as https://example.com/post, got ${describe(value)}`,
		);
	}
	return text;
}

/** A switch; an expression may also give the text "true" or "false". */
export function validateBoolean(field: string, value: unknown): boolean {
	if (value === undefined || value === null || value === '') return false;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) {
		return value.trim().toLowerCase() === 'true';
	}
	throw new ValidationError(field, `${field} must be true or false, got ${describe(value)}`);
}

export function validateTopic(value: unknown): string {
	return assertLength('Topic', value, BOUNDS.topic);
}

export function validateKeywords(value: unknown): string[] {
	const list = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(',')
			: value === undefined || value === null
				? []
				: undefined;
	if (!list) {
		throw new ValidationError(
			'Keywords',
			`Keywords must be a list of words, got ${describe(value)}`,
		);
	}
	const keywords = list.map((keyword, index) => {
		if (typeof keyword !== 'string') {
			throw new ValidationError(
				'Keywords',
				`Keywords must be text; item ${index + 1} is ${describe(keyword)}`,
			);
		}
		return keyword.trim();
	});
	const nonEmpty = keywords.filter((keyword) => keyword !== '');
	if (nonEmpty.length > BOUNDS.keywords.max) {
		throw new ValidationError(
			'Keywords',
			`Keywords allows at most ${BOUNDS.keywords.max} items, got ${nonEmpty.length}`,
		);
	}
	return nonEmpty;
}

export function validateWordCount(value: unknown): number {
	return assertInteger('Word Count', value, BOUNDS.wordCount);
}

export function validateTone(value: unknown): string {
	return assertOneOf('Tone', value, ARTICLE_TONES);
}

export function validatePlatforms(
	field: string,
	value: unknown,
	minimum: number = BOUNDS.platforms.min,
): string[] {
	if (!Array.isArray(value)) {
		throw new ValidationError(
			field,
			`${field} must be a list of platforms, got ${describe(value)}`,
		);
	}
	const platforms = value.map((platform) => assertOneOf(field, platform, PLATFORMS));
	const unique = Array.from(new Set(platforms));
	if (unique.length < minimum || unique.length > BOUNDS.platforms.max) {
		throw new ValidationError(
			field,
			`${field} must name ${minimum}-${BOUNDS.platforms.max} platforms, got ${unique.length}`,
		);
	}
	return unique;
}

export function validateSourceType(value: unknown): string {
	return assertOneOf('Source Type', value, SOURCE_TYPES);
}

export function validateAngle(value: unknown): string {
	return assertLength('Angle', value, BOUNDS.angle);
}

export function validateTitle(value: unknown): string {
	return assertLength('Title', value, BOUNDS.title);
}

export function validateLimit(value: unknown): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		throw new ValidationError(
			'Limit',
			`Limit must be a whole number of at least 1, got ${describe(value)}`,
		);
	}
	return value;
}

export function validateArticleStatus(field: string, value: unknown): string {
	return assertOneOf(field, value, ARTICLE_STATUSES);
}

export function validateSocialStatus(field: string, value: unknown): string {
	return assertOneOf(field, value, SOCIAL_STATUSES);
}

export function validateSort(value: unknown): string {
	return assertOneOf('Sort By', value, ARTICLE_SORT_FIELDS);
}

export function validateOrder(value: unknown): string {
	return assertOneOf('Order', value, SORT_ORDERS);
}

export function validatePlatform(field: string, value: unknown): string {
	return assertOneOf(field, value, PLATFORMS);
}

export function validatePollInterval(value: unknown): number {
	return assertInteger('Poll Interval', value, WAIT.pollInterval);
}

export function validateTimeout(value: unknown): number {
	return assertInteger('Timeout', value, WAIT.timeout);
}

export function validateMaxRateLimitWait(value: unknown): number {
	return assertInteger('Max Rate-Limit Wait', value, RATE_LIMIT_WAIT);
}

export function validateRequestTimeout(value: unknown): number {
	return assertInteger('Request Timeout', value, REQUEST_TIMEOUT);
}

export function validateOnTimeout(value: unknown): OnTimeout {
	return assertOneOf('On Timeout', value, ON_TIMEOUT);
}

/** A credit amount the user keeps in reserve; 0 turns the check off. */
export function validateMinimumBalance(value: unknown): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
		throw new ValidationError(
			'Minimum Balance to Keep',
			`Minimum Balance to Keep must be a number of credits of 0 or more, got ${describe(value)}`,
		);
	}
	return value;
}

/** The image download bound, in bytes, from a size in megabytes. */
export function validateMaxImageSizeMb(value: unknown, defaultMb: number): number {
	if (value === undefined || value === null || value === '')
		return Math.floor(defaultMb * 1024 * 1024);
	if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
		throw new ValidationError(
			'Max Image Size (MB)',
			`Max Image Size (MB) must be a positive number, got ${describe(value)}`,
		);
	}
	return Math.floor(value * 1024 * 1024);
}
