/**
 * Where the node's requests may go, read from the route registry (nodes/shared/routes.ts): the
 * suites check every request they see against it.
 */
import { API_PREFIX } from '../../nodes/shared/constants';
import { ROUTES, routePattern } from '../../nodes/shared/routes';

/** Every request path the node may produce: the registry's routes, an id a UUID. */
export const ALLOWED_PATHS = ROUTES.map((route) => routePattern(route, API_PREFIX));

export function isAllowedPath(path: string): boolean {
	return ALLOWED_PATHS.some((pattern) => pattern.test(path));
}

/** Whether a logged request went to one of the named routes ("GET /articles/:id"). */
export function sentTo(
	request: { method: string; path: string },
	names: readonly string[],
): boolean {
	return names.some((name) => {
		const [method, path] = name.split(' ');
		return request.method === method && routePattern({ path }, API_PREFIX).test(request.path);
	});
}
