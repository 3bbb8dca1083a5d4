/**
 * The route registry (nodes/shared/routes.ts) against what depends on it: every route a case
 * names is registered, every registered route that names a record has its kind (else a 404 reads
 * as a wrong Base URL), and the sandbox serves each (same method, scope and permission) and no
 * Bearer route besides. The sandbox's table is written from the spec, so the registry is held to
 * the spec through it; no list of routes is kept here. The suites' allowed paths are the registry's
 * own patterns.
 */
import { ROUTES, routeKey } from '../../nodes/shared/routes';
import { isAllowedPath } from '../helpers/routes';
import { currentRepo } from './repo';
import { added, PLACES, routeProblems, samplePath, say } from './rules';

const repo = currentRepo();

describe('the route registry', () => {
	it('is read (a broken reading would make every check below pass on nothing)', () => {
		expect(ROUTES.map(routeKey)).toEqual(
			expect.arrayContaining(['GET /articles', 'POST /articles/generate', 'GET /user/usage']),
		);
	});

	it('matches the sandbox and the routes the cases name', () => {
		expect(say(routeProblems(repo))).toEqual([]);
	});

	it('is where the suites take the paths a request may go to', () => {
		expect(ROUTES.every((route) => isAllowedPath(samplePath(route.path)))).toBe(true);
		expect(isAllowedPath('/api/v1/articles/generate/x')).toBe(false);
		expect(isAllowedPath('/api/v1/api-keys')).toBe(false);
	});
});

describe('the route check can fail', () => {
	it('names a route without its record kind, and one the sandbox does not serve', () => {
		const routes = [
			...repo.routes.filter((r) => r.path !== '/articles/:id/status'),
			{
				method: 'GET' as const,
				path: '/articles/:id/status',
				scope: 'articles' as const,
				record: null,
			},
			{
				method: 'GET' as const,
				path: '/articles/:id/guard-probe',
				scope: 'articles' as const,
				record: 'Article' as const,
			},
		];
		expect(say(added(routeProblems, repo, { ...repo, routes }))).toEqual([
			`${PLACES.routes}: GET /articles/:id/status names a record but no record kind`,
			`${PLACES.sandboxRoutes}: GET /articles/:id/guard-probe is not a Bearer route`,
		]);
	});

	it('names a Bearer route of the sandbox the registry lacks', () => {
		const routes = repo.routes.filter((r) => r.path !== '/user/usage');
		const cases = Object.fromEntries(
			Object.entries(repo.cases).filter(([key]) => key !== 'account.getUsage'),
		);
		expect(say(added(routeProblems, repo, { ...repo, routes, cases }))).toEqual([
			`${PLACES.routes}: GET /^\\/api\\/v1\\/user\\/usage$/ is not registered`,
		]);
	});
});
