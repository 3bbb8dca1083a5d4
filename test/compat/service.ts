/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling: the sandbox answers in this process through http types */
/**
 * The account every workflow of the compatibility corpus runs against: the sandbox (sandbox/),
 * answering in this process, with the corpus's records (./records.ts) loaded, a fixed seed, the
 * ids the frozen workflows name for the records it creates, and every job done by the next
 * request (a wait sees it complete on its first look). nock hands it each request sent to the
 * credential's Base URL and to the image host: the sandbox's own route table answers them, so a
 * route added there is answered here too. A trigger scenario changes records between polls,
 * stamped with the sandbox's clock (the host's).
 */
import type { IncomingHttpHeaders } from 'http';
import nock from 'nock';

import { TEST_API_KEY, TEST_BASE_URL } from '../../harness/engine';
import { createSandbox, type InProcessSandbox } from '../../sandbox';
import { ACCOUNT, CREDITS, IDS, IMAGE_HOST, recordIds } from './records';

export { IDS, IMAGE_HOST };

/** Where the records' media are: the image host's `/img/<id>/<file>` is the sandbox's `/files/...`. */
const MEDIA = `${IMAGE_HOST}/img`;
/** A scheduled record's publish time in the trigger scenarios. */
const SCHEDULED_AT = Date.parse('2030-01-01T09:00:00Z');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface Served {
	method: string;
	/** path and host for another origin than the service's */
	url: string;
	query: Record<string, string>;
	body?: unknown;
}

export class CompatService {
	readonly served: Served[] = [];
	private readonly sandbox: InProcessSandbox = createSandbox({
		seed: 38,
		apiKey: TEST_API_KEY,
		account: ACCOUNT,
		recordIds: recordIds(),
		credits: CREDITS,
		socialProfiles: 2,
		speed: Infinity,
		socialListOrder: 'id',
		mediaUrl: MEDIA,
		videos: false,
	});

	/** Intercepts the service and the image host until `stop`. */
	start(): void {
		nock.disableNetConnect();
		for (const method of METHODS) {
			nock(TEST_BASE_URL)
				.persist()
				.intercept(/.*/, method)
				.reply(this.forward(method, (uri) => uri));
			nock(IMAGE_HOST)
				.persist()
				.intercept(/.*/, method)
				.reply(this.forward(method, (uri) => uri.replace(/^\/img\//, '/files/'), IMAGE_HOST));
		}
	}

	stop(): void {
		nock.cleanAll();
		nock.enableNetConnect();
	}

	/** A change between two polls. */
	change(kind: 'article' | 'social', id: string, status: string): void {
		const { control } = this.sandbox;
		if (kind === 'article') control.setArticleStatus(id, status);
		else control.setSocialStatus(id, status, status === 'scheduled' ? SCHEDULED_AT : undefined);
	}

	/** A record born between two polls. */
	add(kind: 'article' | 'social', status: string): string {
		const { control } = this.sandbox;
		const at = { status, projectId: IDS.project, spacingMs: 0 };
		const [id] =
			kind === 'article'
				? control.seedArticles(1, at)
				: control.seedSocial(1, { ...at, platforms: ['linkedin'] });
		return id;
	}

	/** nock's reply: the request noted, then answered by the sandbox. */
	private forward(method: string, path: (uri: string) => string, origin?: string) {
		const served = this.served;
		const sandbox = this.sandbox;
		return async function (this: nock.ReplyFnContext, uri: string, body: nock.Body) {
			const raw = typeof body === 'string' ? body : JSON.stringify(body);
			const url = new URL(uri, origin ?? TEST_BASE_URL);
			served.push({
				method,
				url: origin ? `${origin}${uri}` : url.pathname,
				query: origin ? {} : Object.fromEntries(url.searchParams),
				...(method === 'POST' ? { body: raw ? JSON.parse(raw) : raw } : {}),
			});
			const answer = await sandbox.handle({
				method,
				url: path(uri),
				headers: this.req.headers as IncomingHttpHeaders,
				body: raw,
			});
			if (!answer) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
			return [answer.status, answer.body, answer.headers] as nock.ReplyFnResult;
		};
	}
}
