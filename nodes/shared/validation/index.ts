import {
	ARTICLE_SORT_FIELDS,
	ARTICLE_STATUSES,
	ARTICLE_TONES,
	BOUNDS,
	ON_TIMEOUT,
	PARALLEL_REQUESTS,
	PLATFORMS,
	RATE_LIMIT_WAIT,
	REQUEST_TIMEOUT,
	SOCIAL_STATUSES,
	SORT_ORDERS,
	SOURCE_TYPES,
	WAIT,
} from '../constants';
import type { OnTimeout } from '../constants';

import {
	assertInteger,
	assertLength,
	assertOneOf,
	describe,
	requireString,
	ValidationError,
} from './primitives';

/** The bounds of the spec and of the node's own options, each checked before a request is sent. */
export * from './primitives';
export { toIsoDate } from './dates';

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
			`'Keywords' must be a list of words, got ${describe(value)}`,
		);
	}
	const keywords = list.map((keyword, index) => {
		if (typeof keyword !== 'string') {
			throw new ValidationError(
				'Keywords',
				`'Keywords' must be text; item ${index + 1} is ${describe(keyword)}`,
			);
		}
		return keyword.trim();
	});
	const nonEmpty = keywords.filter((keyword) => keyword !== '');
	if (nonEmpty.length > BOUNDS.keywords.max) {
		throw new ValidationError(
			'Keywords',
			`'Keywords' allows at most ${BOUNDS.keywords.max} items, got ${nonEmpty.length}`,
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

export function validatePlatforms(field: string, value: unknown): string[] {
	if (!Array.isArray(value)) {
		throw new ValidationError(
			field,
			`'${field}' must be a list of platforms, got ${describe(value)}`,
		);
	}
	const platforms = value.map((platform) => assertOneOf(field, platform, PLATFORMS));
	const unique = Array.from(new Set(platforms));
	if (unique.length < BOUNDS.platforms.min || unique.length > BOUNDS.platforms.max) {
		throw new ValidationError(
			field,
			`'${field}' must name ${BOUNDS.platforms.min}-${BOUNDS.platforms.max} platforms, got ${unique.length}`,
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
			`'Limit' must be a whole number of at least 1, got ${describe(value)}`,
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

export function validateParallelRequests(value: unknown): number {
	return assertInteger('Parallel Requests', value, PARALLEL_REQUESTS);
}

export function validateOnTimeout(value: unknown): OnTimeout {
	return assertOneOf('On Timeout', value, ON_TIMEOUT);
}

/** A credit amount the user keeps in reserve; 0 turns the check off. */
export function validateMinimumBalance(value: unknown): number {
	if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
		throw new ValidationError(
			'Minimum Balance to Keep',
			`'Minimum Balance to Keep' must be a number of credits of 0 or more, got ${describe(value)}`,
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
			`'Max Image Size (MB)' must be a positive number, got ${describe(value)}`,
		);
	}
	return Math.floor(value * 1024 * 1024);
}

/** A field name of n8n's output (a binary field): 1-100 characters, no spaces. */
export function validateFieldName(field: string, value: unknown): string {
	const name = requireString(field, value).trim();
	if (name === '' || name.length > 100 || /\s/.test(name)) {
		throw new ValidationError(
			field,
			`'${field}' must be a name of 1-100 characters without spaces, got ${describe(value)}`,
		);
	}
	return name;
}
