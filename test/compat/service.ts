/**
 * The account every workflow of the compatibility corpus runs against: a small, fixed copy of the
 * service (nock, at the credential's Base URL and the image host) that the corpus owns. Its records,
 * ids and answers never change with the sandbox or other tests, so what a frozen workflow sent and
 * output then can be compared with what it sends and outputs now. A changed answer, or one record
 * more or less, changes what the frozen workflows see: new routes only.
 *
 * Records asked to generate finish at once (a wait sees them complete on its first look); a trigger
 * scenario changes records between polls with `change`, stamped with the host's clock.
 */
import nock from 'nock';

import { TEST_BASE_URL } from '../../harness/engine';
import {
	articleList,
	IDS,
	IMAGE_HOST,
	newId,
	page,
	PROJECTS,
	slug,
	socialList,
	socialSingle,
	T0,
	type Article,
	type Json,
	type Social,
} from './records';

export { IDS, IMAGE_HOST };

const API = '/api/v1';
type Reply = [number, nock.Body];
export interface Served {
	method: string;
	/** path and host for another origin than the service's */
	url: string;
	query: Record<string, string>;
	body?: unknown;
}

const ok = (data: unknown): Json => ({ success: true, data });
const notFound: Reply = [
	404,
	{ success: false, error: { code: 'NOT_FOUND', message: 'Not found' } },
];
const contains = (text: string, part: string | undefined) =>
	part === undefined || text.toLowerCase().includes(part.toLowerCase());

/** A small PNG file (signature, then padding). */
const PNG = Buffer.concat([
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	Buffer.alloc(120, 7),
]);

export class CompatService {
	readonly served: Served[] = [];
	private readonly articles: Article[];
	private readonly social: Social[];
	private generated = 0;

	constructor() {
		const article = (id: string, title: string, status: string, project: string = IDS.project) => ({
			id,
			title,
			status,
			project_id: project,
			created_at: T0,
			updated_at: T0,
		});
		this.articles = [
			article(IDS.article, 'Coffee and focus', 'cms'),
			article(IDS.articleQueued, 'Cold brew at home', 'queued'),
			article(IDS.articleOther, 'Healthier teeth', 'needs_editing', IDS.otherProject),
			article(IDS.articleFailed, 'Coffee myths', 'failed'),
		];
		const social = (
			id: string,
			status: string,
			platforms: string[],
			project: string = IDS.project,
		) => ({
			id,
			article_id: IDS.article,
			project_id: project,
			title: `Post ${id.slice(-1)}`,
			status,
			platforms,
			scheduled_publish_at: null,
			created_at: T0,
			updated_at: T0,
		});
		this.social = [
			social(IDS.content, 'completed', ['linkedin', 'instagram']),
			social(IDS.contentGenerating, 'generating', ['linkedin', 'twitter']),
			social(IDS.contentOther, 'completed', ['facebook'], IDS.otherProject),
			social(IDS.contentScheduled, 'ready', ['linkedin']),
		];
	}

	/** Intercepts the service and the image host until `stop`. */
	start(): void {
		nock.disableNetConnect();
		const headers = {
			'X-RateLimit-Limit': '1000',
			'X-RateLimit-Remaining': '999',
			'X-RateLimit-Reset': () => String(Math.ceil(Date.now() / 60_000) * 60),
		};
		const reply = (method: string, uri: string, body: nock.Body) => {
			const url = new URL(uri, TEST_BASE_URL);
			const query = Object.fromEntries(url.searchParams);
			const parsed = typeof body === 'string' && body ? (JSON.parse(body) as Json) : body;
			this.served.push({
				method,
				url: url.pathname,
				query,
				...(method === 'POST' ? { body: parsed } : {}),
			});
			return this.answer(method, url.pathname.slice(API.length), query, parsed as Json);
		};
		nock(TEST_BASE_URL)
			.persist()
			.defaultReplyHeaders(headers)
			.get(/.*/)
			.reply((uri, body) => reply('GET', uri, body))
			.post(/.*/)
			.reply((uri, body) => reply('POST', uri, body));
		nock(IMAGE_HOST)
			.persist()
			.get(/.*/)
			.reply((uri) => {
				this.served.push({ method: 'GET', url: `${IMAGE_HOST}${uri}`, query: {} });
				return [200, PNG, { 'Content-Type': 'image/png' }];
			});
	}

	stop(): void {
		nock.cleanAll();
		nock.enableNetConnect();
	}

	/** A change between two polls, stamped with the host's clock. */
	change(kind: 'article' | 'social', id: string, status: string): void {
		const record = (kind === 'article' ? this.articles : this.social).find((r) => r.id === id);
		if (!record) throw new Error(`no ${kind} ${id}`);
		record.status = status;
		record.updated_at = new Date().toISOString();
		if (status === 'scheduled') (record as Social).scheduled_publish_at = '2030-01-01T09:00:00Z';
	}

	/** A record born between two polls. */
	add(kind: 'article' | 'social', status: string): string {
		const now = new Date().toISOString();
		const id = newId(kind === 'article' ? 'a' : '5', ++this.generated);
		const base = { id, project_id: IDS.project, status, created_at: now, updated_at: now };
		if (kind === 'article') this.articles.push({ ...base, title: `New article ${id.slice(-2)}` });
		else
			this.social.push({
				...base,
				article_id: IDS.article,
				title: `New post ${id.slice(-2)}`,
				platforms: ['linkedin'],
				scheduled_publish_at: null,
			});
		return id;
	}

	/** The answer to one request (`path` after /api/v1). */
	answer(method: string, path: string, query: Record<string, string>, body: Json): Reply {
		const one = <T>(rows: T[], id: string, shape: (row: T) => Json): Reply => {
			const row = rows.find((r) => (r as { id: string }).id === id);
			return row ? [200, ok(shape(row))] : notFound;
		};
		const byId = /^\/([a-z/]+?)\/([0-9a-f-]{36})(\/status)?$/.exec(path);
		if (method === 'GET' && byId) {
			const [, kind, id, status] = byId;
			if (kind === 'projects') return one(PROJECTS, id, (p) => ({ ...p, language_code: 'en' }));
			if (kind === 'social/content') return one(this.social, id, socialSingle);
			if (kind === 'articles' && status)
				return one(this.articles, id, (a) => ({
					article_id: a.id,
					status: a.status,
					title: a.title,
					slug: slug(a.title),
					progress: a.status === 'queued' ? 40 : 100,
					is_complete: a.status === 'cms' || a.status === 'needs_editing',
					created_at: a.created_at,
					updated_at: a.updated_at,
				}));
			if (kind === 'articles')
				return one(this.articles, id, (a) => ({
					...articleList(a),
					content: `<h1>${a.title}</h1><p>${'word '.repeat(50)}</p>`,
				}));
		}
		if (method === 'GET' && path === '/projects') {
			const rows = PROJECTS.filter(
				(p) =>
					contains(p.business_name, query.search) && (!query.status || p.status === query.status),
			);
			return [200, page(rows, query, (p) => p)];
		}
		if (method === 'GET' && path === '/articles') {
			const key = (query.sort ?? 'created_at') as keyof Article;
			const rows = this.articles
				.filter(
					(a) =>
						(!query.status || a.status === query.status) &&
						(!query.project_id || a.project_id === query.project_id) &&
						contains(a.title, query.search),
				)
				.sort((x, y) => String(x[key]).localeCompare(String(y[key])) || x.id.localeCompare(y.id));
			if (query.order !== 'asc') rows.reverse();
			return [200, page(rows, query, articleList)];
		}
		if (method === 'GET' && path === '/social/content') {
			const rows = this.social.filter(
				(s) =>
					(!query.status || s.status === query.status) &&
					(!query.project_id || s.project_id === query.project_id) &&
					(!query.article_id || s.article_id === query.article_id) &&
					(!query.platform || s.platforms.includes(query.platform)),
			);
			return [200, page(rows, query, socialList)];
		}
		if (method === 'GET' && path === '/user/credits')
			return [
				200,
				ok({
					available_credits: 120.5,
					subscription_credits: 100,
					purchased_credits: 20.5,
					credits_used_this_month: 12.6,
					plan: 'Business',
					current_period_end: '2030-01-01T00:00:00.000Z',
				}),
			];
		if (method === 'GET' && path === '/user/usage')
			return [
				200,
				ok({
					total_requests: 420,
					today_requests: 12,
					rate_limit: {
						limit_per_minute: 1000,
						remaining_per_minute: 999,
						limit_per_day: -1,
						remaining_per_day: -1,
						reset: 1_893_456_000,
					},
					daily_breakdown: [
						{
							date: '2026-11-01',
							endpoint: '/api/v1/articles',
							total_requests: 12,
							avg_response_time_ms: 41.5,
							error_count: 0,
						},
					],
				}),
			];
		if (method === 'POST') return this.post(path, body);
		return noRoute(method, path);
	}

	private post(path: string, body: Json): Reply {
		if (path === '/articles/generate') {
			const id = this.add('article', 'cms');
			return [
				202,
				ok({
					article_id: id,
					status: 'queued',
					job_id: `job-${id.slice(-4)}`,
					slug: slug(String(body.topic)),
					language: 'en',
					credits_deducted: 1,
					credits_remaining: 80,
					estimated_time: '2-5 minutes',
					poll_url: `${API}/articles/${id}/status`,
				}),
			];
		}
		if (path === '/social/generate') {
			const id = this.add('social', 'completed');
			const platforms = body.platforms as string[];
			const record = this.social.find((s) => s.id === id)!;
			record.platforms = platforms;
			return [
				202,
				ok({
					content_id: id,
					status: 'generating',
					platforms,
					credits_deducted: Number((0.6 * platforms.length).toFixed(1)),
					credits_remaining: 119.3,
					poll_url: `${API}/social/content/${id}`,
				}),
			];
		}
		if (path === '/social/publish') {
			const id = String(body.content_id);
			if (!this.social.some((s) => s.id === id)) return notFound;
			return body.scheduled_at
				? [200, ok({ content_id: id, status: 'scheduled', scheduled_at: body.scheduled_at })]
				: [202, ok({ content_id: id, status: 'publishing', profiles: 2 })];
		}
		return noRoute('POST', path);
	}
}

const noRoute = (method: string, path: string): Reply => [
	404,
	{ success: false, error: { code: 'NOT_FOUND', message: `No route ${method} ${path}` } },
];

/**
 * Whether the account answers a route of the registry (`GET /articles/:id`): one request to a fresh
 * copy, its ids one of the account's records, its body what any generate or publish sends.
 */
export function answersRoute(method: string, path: string): boolean {
	const sample = path.replace(/:id\b/g, IDS.article);
	const body = { topic: 'x', platforms: ['linkedin'], content_id: IDS.content };
	const [, reply] = new CompatService().answer(method, sample, {}, body);
	return !JSON.stringify(reply).includes('No route');
}
