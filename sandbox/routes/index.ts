/**
 * The sandbox's routes: method, path, how a caller signs in, the scope a key needs, and the
 * handler. The service's own rules, written from the spec (§4, §5); the node's route registry
 * (nodes/shared/routes.ts) is checked against this table, not the other way round.
 */
import type { Ctx, Reply } from '../http';
import * as apiKeys from './apiKeys';
import * as articles from './articles';
import { serveFile } from './files';
import * as projects from './projects';
import * as social from './social';
import * as user from './user';

export type Scope = 'articles' | 'social' | 'projects' | 'user';

export interface Route {
	method: string;
	re: RegExp;
	auth: 'bearer' | 'session' | 'public';
	scope?: Scope;
	handler: (ctx: Ctx) => Reply;
}

/** The permission a Bearer request needs for its method (spec §5). */
export const PERMISSION_BY_METHOD: Record<string, string> = {
	GET: 'read',
	POST: 'write',
	DELETE: 'delete',
};

const r = (
	method: string,
	re: RegExp,
	auth: Route['auth'],
	scope: Scope | undefined,
	handler: Route['handler'],
): Route => ({ method, re, auth, scope, handler });

export const ROUTES: readonly Route[] = [
	r('GET', /^\/api\/v1\/articles$/, 'bearer', 'articles', articles.listArticles),
	r('POST', /^\/api\/v1\/articles\/generate$/, 'bearer', 'articles', articles.generateArticle),
	r('GET', /^\/api\/v1\/articles\/([^/]+)$/, 'bearer', 'articles', articles.getArticle),
	r(
		'GET',
		/^\/api\/v1\/articles\/([^/]+)\/status$/,
		'bearer',
		'articles',
		articles.getArticleStatus,
	),
	r('GET', /^\/api\/v1\/social\/content$/, 'bearer', 'social', social.listSocial),
	r('GET', /^\/api\/v1\/social\/content\/([^/]+)$/, 'bearer', 'social', social.getSocial),
	r('POST', /^\/api\/v1\/social\/generate$/, 'bearer', 'social', social.generateSocial),
	r('POST', /^\/api\/v1\/social\/publish$/, 'bearer', 'social', social.publishSocial),
	r('GET', /^\/api\/v1\/projects$/, 'bearer', 'projects', projects.listProjects),
	r('GET', /^\/api\/v1\/projects\/([^/]+)$/, 'bearer', 'projects', projects.getProject),
	r('GET', /^\/api\/v1\/user\/credits$/, 'bearer', 'user', user.getCredits),
	r('GET', /^\/api\/v1\/user\/usage$/, 'bearer', 'user', user.getUsage),
	r('POST', /^\/api\/v1\/api-keys$/, 'session', undefined, apiKeys.createApiKey),
	r('GET', /^\/api\/v1\/api-keys$/, 'session', undefined, apiKeys.listApiKeys),
	r('DELETE', /^\/api\/v1\/api-keys\/([^/]+)$/, 'session', undefined, apiKeys.revokeApiKey),
	r('GET', /^\/files\/([^/]+)\/([^/]+)$/, 'public', undefined, serveFile),
];
