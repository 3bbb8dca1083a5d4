import { UUID_RE } from './constants';
import type { Rng } from './prng';
import type { ApiKeyRec, Store, User } from './store';
import { ApiError } from './store';
import type { SocialListOrder } from './types';
import type { UsageBook } from './usage';

export interface Media {
	url: string;
	videos: boolean;
}

/** What a handler produces; the server turns it into bytes (or a fault replaces it). */
export interface Reply {
	status: number;
	/** JSON body */
	body?: unknown;
	/** raw body (files, HTML) */
	raw?: Buffer | string;
	contentType?: string;
	headers?: Record<string, string>;
}

/** Error in the flat `{ error: "..." }` shape of the session-only key routes. */
export class FlatError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

export interface Ctx {
	store: Store;
	now: number;
	user: User;
	key: ApiKeyRec | null;
	query: Record<string, string>;
	body: unknown;
	params: string[];
	/** where the media links of records point, and whether videos are among them */
	media: Media;
	listRng: Rng;
	socialListOrder: SocialListOrder;
	looseStatusFilter: boolean;
	usage: UsageBook;
}

export function ok(data: unknown, status = 200): Reply {
	return { status, body: { success: true, data } };
}

export function validation(message: string): ApiError {
	return new ApiError(400, 'VALIDATION_ERROR', message);
}

export function notFound(what: string): ApiError {
	return new ApiError(404, 'NOT_FOUND', `${what} not found`);
}

export function isUuid(s: unknown): s is string {
	return typeof s === 'string' && UUID_RE.test(s);
}

// ---- query helpers ----

function intParam(
	query: Record<string, string>,
	name: string,
	def: number,
	min: number,
	max: number,
): number {
	const raw = query[name];
	if (raw === undefined || raw === '') return def;
	if (!/^\d+$/.test(raw)) {
		throw validation(
			max === Infinity
				? `${name} must be a positive integer`
				: `${name} must be an integer between ${min} and ${max}`,
		);
	}
	const n = Number(raw);
	if (n < min || n > max) {
		throw validation(
			max === Infinity
				? `${name} must be a positive integer`
				: `${name} must be an integer between ${min} and ${max}`,
		);
	}
	return n;
}

export function pageParams(query: Record<string, string>): { page: number; limit: number } {
	return {
		page: intParam(query, 'page', 1, 1, Infinity),
		limit: intParam(query, 'limit', 20, 1, 100),
	};
}

export function enumParam(
	query: Record<string, string>,
	name: string,
	values: readonly string[],
): string | undefined {
	const raw = query[name];
	if (raw === undefined || raw === '') return undefined;
	if (!values.includes(raw)) throw validation(`${name} must be one of: ${values.join(', ')}`);
	return raw;
}

export function uuidParam(query: Record<string, string>, name: string): string | undefined {
	const raw = query[name];
	if (raw === undefined || raw === '') return undefined;
	if (!isUuid(raw)) throw validation(`${name} must be a UUID`);
	return raw.toLowerCase();
}

export function paged<T>(
	items: T[],
	page: number,
	limit: number,
	render: (t: T) => unknown,
): Reply {
	const total = items.length;
	const totalPages = Math.ceil(total / limit);
	const start = (page - 1) * limit;
	return {
		status: 200,
		body: {
			success: true,
			data: items.slice(start, start + limit).map(render),
			pagination: { total, page, limit, total_pages: totalPages, has_more: page < totalPages },
		},
	};
}

// ---- body helpers ----

export function bodyObject(body: unknown): Record<string, unknown> {
	if (body === undefined) return {};
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		throw validation('Request body must be a JSON object');
	}
	return body as Record<string, unknown>;
}

export function optString(
	b: Record<string, unknown>,
	name: string,
	max: number,
): string | undefined {
	const v = b[name];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'string') throw validation(`${name} must be a string`);
	if (v.length > max) throw validation(`${name} must be at most ${max} characters`);
	return v;
}

export function optEnum(
	b: Record<string, unknown>,
	name: string,
	values: readonly string[],
): string | undefined {
	const v = b[name];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'string' || !values.includes(v)) {
		throw validation(`${name} must be one of: ${values.join(', ')}`);
	}
	return v;
}

/** Array of distinct values from `values`, with a length bound. */
export function platformList(
	v: unknown,
	name: string,
	values: readonly string[],
	min: number,
	max: number,
): string[] {
	if (!Array.isArray(v)) throw validation(`${name} must be an array of platform names`);
	if (v.length < min || v.length > max) {
		throw validation(`${name} must contain between ${min} and ${max} values`);
	}
	const seen = new Set<string>();
	for (const p of v) {
		if (typeof p !== 'string' || !values.includes(p)) {
			throw validation(
				`${name} contains an unknown platform: ${JSON.stringify(p)}; accepted: ${values.join(', ')}`,
			);
		}
		if (seen.has(p)) throw validation(`${name} contains '${p}' more than once`);
		seen.add(p);
	}
	return [...seen];
}
