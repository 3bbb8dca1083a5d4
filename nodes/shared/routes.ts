/**
 * The service's Bearer routes (spec §4, §5, §7.2) in one registry: the scope each needs, the
 * record a 404 on it is about, and the answers only some routes give. The transport's generic
 * wording (transport/refusals.ts) asks here first; the tests check the sandbox's routes and every
 * request the node sends against this list.
 */
import { UUID_SOURCE } from './constants';

/** The methods the node sends. A request's permission follows from its method (spec §5). */
export const METHODS = ['GET', 'POST'] as const;
export type Method = (typeof METHODS)[number];
const PERMISSION: Record<Method, string> = { GET: 'read', POST: 'write' };

export type Scope = 'articles' | 'social' | 'projects' | 'user';
/** What a 404 NOT_FOUND names: the article, project or content a request refers to (spec §7.2). */
export type RecordKind = 'Article' | 'Social content' | 'Project';

export interface Route {
	method: Method;
	/** Under /api/v1; `:id` stands for one record's UUID. */
	path: string;
	scope: Scope;
	/** The record a 404 NOT_FOUND on this route is about, or null where there is none (lists). */
	record: RecordKind | null;
}

/** The parameter that names each record, for a 404's advice. */
const PARAMETER_OF: Record<RecordKind, string> = {
	Article: 'Article ID',
	'Social content': 'Content ID',
	Project: 'Project',
};

export const ROUTES: readonly Route[] = [
	{ method: 'GET', path: '/articles', scope: 'articles', record: null },
	{ method: 'POST', path: '/articles/generate', scope: 'articles', record: 'Project' },
	{ method: 'GET', path: '/articles/:id', scope: 'articles', record: 'Article' },
	{ method: 'GET', path: '/articles/:id/status', scope: 'articles', record: 'Article' },
	{ method: 'GET', path: '/social/content', scope: 'social', record: null },
	{ method: 'GET', path: '/social/content/:id', scope: 'social', record: 'Social content' },
	{ method: 'POST', path: '/social/generate', scope: 'social', record: 'Project' },
	{ method: 'POST', path: '/social/publish', scope: 'social', record: 'Social content' },
	{ method: 'GET', path: '/projects', scope: 'projects', record: null },
	{ method: 'GET', path: '/projects/:id', scope: 'projects', record: 'Project' },
	{ method: 'GET', path: '/user/credits', scope: 'user', record: null },
	{ method: 'GET', path: '/user/usage', scope: 'user', record: null },
];

/** "GET /articles/:id": how tests and messages name a route. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string =>
	`${route.method} ${route.path}`;

/** A route's path (after `prefix`) as a pattern, its `:id` one UUID. */
export function routePattern(route: Pick<Route, 'path'>, prefix = ''): RegExp {
	return new RegExp(`^${prefix}${route.path.replace(/:id\b/g, UUID_SOURCE)}$`);
}

/** The registered route a request goes to, if any (the endpoint as the transport names it). */
export function routeOf(method: string, endpoint: string): Route | undefined {
	const path = endpoint.split('?')[0];
	const verb = method.toUpperCase();
	return ROUTES.find((route) => route.method === verb && routePattern(route).test(path));
}

/** The permission and scope a route needs (spec §5). */
export function requiredAccess(
	method: string,
	endpoint: string,
): { permission: string; scope: string } {
	const verb = method.toUpperCase();
	const permission = PERMISSION[verb as Method] ?? 'write';
	const route = routeOf(verb, endpoint);
	// An unregistered path: the spec's rule, scope by the first segment.
	const scope = route?.scope ?? endpoint.replace(/^\/+/, '').split(/[/?]/)[0];
	return { permission, scope };
}

/**
 * Wording of answers that only some routes give: a record that is not there, an account without
 * the project a social generate takes its brand context from.
 */
export function routeWording(
	answer: { statusCode: number; code: string },
	method: string,
	endpoint: string,
): { message: string; hint: string } | undefined {
	const { statusCode, code } = answer;
	const record = routeOf(method, endpoint)?.record;
	if (statusCode === 404 && record && code === 'NOT_FOUND') {
		return {
			message: `${record} not found: it does not exist or does not belong to this API key's account`,
			hint: `Check '${PARAMETER_OF[record]}': pick it from the list, or give an ID from this API key's account (the service reports records of other accounts as missing).`,
		};
	}
	if (statusCode === 400 && code === 'NO_PROJECT') {
		return {
			message: 'The account has no project',
			hint: 'Social content takes its brand context from a project: create one in the service first.',
		};
	}
	return undefined;
}
