import { UUID_EXAMPLE, UUID_PATTERN } from '../constants';

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
		throw new ValidationError(field, `'${field}' must be text, got ${describe(value)}`);
	}
	return value;
}

export function assertUuid(field: string, value: unknown): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text !== 'string' || !UUID_PATTERN.test(text)) {
		throw new ValidationError(
			field,
			`'${field}' must be a UUID such as ${UUID_EXAMPLE}, got ${describe(value)}`,
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
			`'${field}' must be ${range} characters long, got ${length} characters`,
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
			`'${field}' must be a whole number from ${bounds.min} to ${bounds.max}, got ${describe(value)}`,
		);
	}
	if (value < bounds.min || value > bounds.max) {
		throw new ValidationError(
			field,
			`'${field}' must be from ${bounds.min} to ${bounds.max}, got ${value}`,
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
			`'${field}' must be one of ${allowed.join(', ')}; got ${describe(value)}`,
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
			`'${field}' must be a full http(s) URL such as https://example.com/post, got ${describe(value)}`,
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
	throw new ValidationError(field, `'${field}' must be true or false, got ${describe(value)}`);
}
