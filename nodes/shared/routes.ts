/**
 * What the routes of the spec (§5, §8) mean when they refuse: the permission and scope each
 * needs, the record a route names, and the answers only one route gives. The transport's
 * generic wording (transport/errors.ts) asks here first.
 */
const SCOPE_BY_SEGMENT: Record<string, string> = {
	articles: 'articles',
	social: 'social',
	projects: 'projects',
	user: 'user',
};

/** The permission and scope a route needs (spec §5). */
export function requiredAccess(
	method: string,
	endpoint: string,
): { permission: string; scope: string } {
	const segment = endpoint.replace(/^\/+/, '').split(/[/?]/)[0];
	return {
		permission: method.toUpperCase() === 'GET' ? 'read' : 'write',
		scope: SCOPE_BY_SEGMENT[segment] ?? segment,
	};
}

/** A route that names one record (/articles/:id, /social/content/:id, /projects/:id). */
function recordKind(endpoint: string): string | undefined {
	if (/^\/articles\/[^/]+(\/status)?$/.test(endpoint) && !endpoint.endsWith('/generate'))
		return 'Article';
	if (/^\/social\/content\/[^/]+$/.test(endpoint)) return 'Social content';
	if (/^\/projects\/[^/]+$/.test(endpoint)) return 'Project';
	return undefined;
}

/**
 * Wording of answers that only some routes give: a record that is not there, an account without
 * the project a social generate takes its brand context from.
 */
export function routeWording(
	answer: { statusCode: number; code: string },
	endpoint: string,
): { message: string; hint: string } | undefined {
	const { statusCode, code } = answer;
	const record = recordKind(endpoint);
	if (statusCode === 404 && record && code === 'NOT_FOUND') {
		return {
			message: `${record} not found: it does not exist or does not belong to this API key's account`,
			hint: 'Check the ID (records of other accounts are reported as missing).',
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
