/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test helper: waits on the event loop for the socket nock answers on */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import { withoutStrayRequests } from '../helpers/nock';

export const PROJECT = '0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b';
export const ARTICLE = '1a1a1a1a-1a1a-4a1a-8a1a-1a1a1a1a1a1a';
export const CONTENT = '2c2c2c2c-2c2c-4c2c-8c2c-2c2c2c2c2c2c';

/** The n-th of many ids (n from 0), distinct and valid. */
export function nthId(n: number, prefix = '0000'): string {
	return `${prefix}0000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

export const projectRef = { __rl: true, mode: 'id', value: PROJECT };

/** An article Generate's parameters: a topic and the project, plus `extra`. */
export const articleGenerate = (extra: IDataObject = {}): IDataObject => ({
	resource: 'article',
	operation: 'generate',
	topic: 'Coffee and focus',
	projectId: projectRef,
	...extra,
});

export function ok(data: unknown, pagination?: IDataObject): IDataObject {
	return (
		pagination ? { success: true, data, pagination } : { success: true, data }
	) as IDataObject;
}

export function onePage(count: number, limit = 100): IDataObject {
	return {
		total: count,
		page: 1,
		limit,
		total_pages: Math.max(1, Math.ceil(count / limit)),
		has_more: false,
	};
}

export function articleResponse(id = ARTICLE): IDataObject {
	return {
		article_id: id,
		status: 'queued',
		job_id: `job-${id.slice(-4)}`,
		slug: 'coffee-and-focus',
		language: 'en',
		credits_deducted: 1,
		credits_remaining: 41,
		estimated_time: '3-5 minutes',
		poll_url: `/api/v1/articles/${id}/status`,
	};
}

export function articleStatus(id: string, status: string, progress: number): IDataObject {
	return {
		article_id: id,
		status,
		title: 'Coffee and focus',
		slug: 'coffee-and-focus',
		progress,
		is_complete: status === 'cms' || status === 'needs_editing',
		created_at: '2026-11-20T10:00:00.000Z',
		updated_at: '2026-11-20T10:01:00.000Z',
	};
}

export function fullArticle(id = ARTICLE, status = 'cms'): IDataObject {
	return {
		id,
		title: 'Coffee and focus',
		slug: 'coffee-and-focus',
		status,
		meta_description: 'Why coffee helps',
		content: '<h1>Coffee</h1><p>It helps.</p>',
		project_id: PROJECT,
		created_at: '2026-11-20T10:00:00.000Z',
		updated_at: '2026-11-20T10:03:00.000Z',
	};
}

export function socialRecord(
	id = CONTENT,
	status = 'completed',
	extra: IDataObject = {},
): IDataObject {
	const finished = !['generating', 'queued', 'draft'].includes(status);
	return {
		id,
		article_id: ARTICLE,
		project_id: PROJECT,
		title: 'Launch post',
		status,
		source_url: 'https://blog.example.com/launch',
		source_type: 'blog',
		language: 'en',
		platforms: finished
			? { instagram: 'Insta caption', linkedin: 'LinkedIn caption', twitter: 'Tweet' }
			: ['instagram', 'linkedin', 'twitter'],
		image_urls: {},
		video_urls: {},
		overlay_urls: {},
		first_comments: {},
		thread_items: [],
		processing_stage: finished ? 'done' : 'writing',
		processing_progress: finished ? 100 : 40,
		is_published: false,
		scheduler_post_id: null,
		scheduled_publish_at: null,
		error_message: null,
		created_at: '2026-11-20T10:00:00.000Z',
		updated_at: '2026-11-20T10:01:00.000Z',
		...extra,
	};
}

/** The API with the test key required, and every request it answers logged as "METHOD /path?query". */
export function recordedApi(): { scope: nock.Scope; log: string[]; bodies: unknown[] } {
	const log: string[] = [];
	const bodies: unknown[] = [];
	const scope = nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });
	scope.on(
		'request',
		(req: { method: string; path: string }, _interceptor: unknown, body: string) => {
			log.push(`${req.method} ${req.path.replace('/api/v1', '')}`);
			bodies.push(body ? JSON.parse(body) : undefined);
		},
	);
	return { scope, log, bodies };
}

/** A generate refused by validation: the field is named, nothing is spent, nothing is sent. */
export async function expectRefusedBeforeSending(
	workflow: Parameters<typeof runWorkflow>[0],
	field: string,
): Promise<void> {
	const result = await withoutStrayRequests(async () => await runWorkflow(workflow));
	expect(result.error?.message).toContain(field);
	expect(result.error?.description).toContain('no credits were spent');
}

/**
 * nock's reply function for a connection reset mid-request: it throws (nock destroys the request
 * with the error) only once the request sits on a socket that listens for errors. A timer alone
 * (`delayConnection` + `replyWithError`) fired, on a machine whose event loop was busy, before
 * the socket was attached, and the socket's error had no listener ("Unhandled error. (Error:
 * socket hang up").
 */
export async function dropConnection(this: nock.ReplyFnContext): Promise<never> {
	const request = this.req;
	while (!(request.socket && request.socket.listenerCount('error') > 0))
		await new Promise((resolve) => setImmediate(resolve));
	throw connectionReset();
}

/** A dropped connection for nock's replyWithError: an Error with the code (a plain object leaves axios hanging). */
export function connectionReset(): Error {
	return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}
