/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev-only sandbox: a real HTTP server needs http, timers and process */
import { randomBytes } from 'crypto';
import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'http';

import { Clock, iso, wholeSeconds } from './clock';
import { faultReply, rateLimitReply } from './fault-replies';
import { Faults } from './faults';
import type { Ctx, Reply } from './http';
import type { Network } from './network';
import { Rng } from './prng';
import { consume, rateHeaders } from './ratelimit';
import { PERMISSION_BY_METHOD, ROUTES } from './routes';
import { ApiError, hashKey, type Store, type User } from './store';
import type { RequestLogEntry, SocialListOrder } from './types';
import { endpointOf, type UsageBook } from './usage';
import {
	bearerToken,
	delay,
	encode,
	errorReply,
	flatReply,
	guard,
	readBody,
	safeDecode,
	send,
	SESSION_COOKIE_NAME,
	sessionToken,
	type WireAnswer,
} from './wire';

/** One request as it arrives, over a socket or from a caller in the same process. */
export interface WireRequest {
	method: string;
	/** path and query, as in the request line */
	url: string;
	headers: IncomingHttpHeaders;
	body: string;
}

export interface WorldOptions {
	authFailureStatus: 401 | 403;
	socialListOrder: SocialListOrder;
	stamps: 'ms' | 's';
	looseStatusFilter: boolean;
	quiet: boolean;
	/** where the media links of records point: a CDN's address; default `<address used>/files` */
	mediaUrl?: string;
	/** whether finished records have videos on the platforms that take one */
	videos: boolean;
}

/** Everything one sandbox instance owns: no module-level state, so instances are independent. */
export class World {
	readonly log: RequestLogEntry[] = [];
	baseUrl = '';
	private readonly sessions = new Map<string, string>();
	private server: Server | null = null;

	constructor(
		readonly store: Store,
		readonly usage: UsageBook,
		readonly faults: Faults,
		readonly clock: Clock,
		private readonly listRng: Rng,
		readonly network: Network,
		private readonly opts: WorldOptions,
	) {}

	addSession(u: User): string {
		this.sessions.set(u.sessionToken, u.id);
		return `${SESSION_COOKIE_NAME}=${u.sessionToken}`;
	}

	listen(port: number, host: string): Promise<string> {
		return new Promise((resolve, reject) => {
			const server = createServer((req, res) => {
				this.onRequest(req, res).catch((err: Error) => {
					this.write(`sandbox: unexpected error: ${err.stack ?? err.message}\n`);
					if (!res.headersSent) res.writeHead(500);
					res.end();
				});
			});
			server.keepAliveTimeout = 5_000;
			server.once('error', reject);
			// A thousand items' requests arrive at once (Parallel Requests, n8n's HTTP Request node):
			// Node's default backlog of 511 would drop the rest of the connections, which come again
			// a second later, as a production server's larger backlog does not.
			server.listen({ port, host, backlog: 4096 }, () => {
				const addr = server.address();
				const actualPort = addr && typeof addr === 'object' ? addr.port : port;
				const shownHost = host.includes(':') ? `[${host}]` : host;
				this.server = server;
				this.baseUrl = `http://${shownHost}:${actualPort}`;
				resolve(this.baseUrl);
			});
		});
	}

	close(): Promise<void> {
		const server = this.server;
		this.server = null;
		if (!server) return Promise.resolve();
		return new Promise((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	}

	private write(line: string): void {
		if (!this.opts.quiet) process.stderr.write(line);
	}

	// ---- request pipeline ----

	private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const inFlight = this.network.arrive();
		try {
			const body = await readBody(req);
			const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
			const answer = await this.answer({ ...request, body }, inFlight);
			if (answer === null) req.socket.destroy();
			else send(res, answer);
		} finally {
			this.network.leave();
		}
	}

	/**
	 * The answer to one request without a socket (null: the connection is dropped), exactly as
	 * the server gives it: a caller in the same process reaches the same routes and records.
	 */
	async handle(request: WireRequest): Promise<WireAnswer | null> {
		const inFlight = this.network.arrive();
		try {
			return await this.answer(request, inFlight);
		} finally {
			this.network.leave();
		}
	}

	private async answer(req: WireRequest, inFlight: number): Promise<WireAnswer | null> {
		const started = process.hrtime.bigint();
		const method = req.method.toUpperCase();
		const url = new URL(req.url, 'http://sandbox.local');
		let path = url.pathname;
		if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
		const query: Record<string, string> = {};
		url.searchParams.forEach((v, k) => {
			if (!(k in query)) query[k] = v;
		});
		const requestId = 'req_' + randomBytes(12).toString('hex');
		const entry: RequestLogEntry = {
			method,
			path,
			query,
			status: 0,
			userId: null,
			at: iso(this.clock.nowMs()),
			inFlight,
		};
		this.log.push(entry);

		const raw = req.body;
		let body: unknown;
		let bodyError = false;
		if (raw.trim() !== '') {
			try {
				body = JSON.parse(raw);
			} catch {
				bodyError = true;
				body = raw;
			}
			entry.body = body;
		}
		entry.userId = this.peekUser(req.headers);

		const now = this.clock.nowMs();
		const decision = this.faults.decide(method, path);
		let reply: Reply | 'drop';
		let processed = false;
		if (decision.storm !== undefined) {
			reply = rateLimitReply(decision.storm, requestId, now, { 'X-RateLimit-Remaining': '0' });
		} else if (decision.fault && !decision.afterProcessing) {
			reply = faultReply(decision, undefined, requestId, now);
		} else {
			const real = this.process(req, method, path, query, body, bodyError, entry, requestId, now);
			processed = true;
			reply = decision.fault ? faultReply(decision, real, requestId, now) : real;
		}
		const travel = decision.latencyMs + this.network.delayMs();
		if (travel > 0) await delay(travel);

		entry.status = reply === 'drop' ? 0 : reply.status;
		if (reply !== 'drop' && this.opts.stamps === 's') reply.body = wholeSeconds(reply.body);
		const answer = reply === 'drop' ? null : encode(reply, requestId);
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		if (processed && entry.userId && path.startsWith('/api/')) {
			this.usage.record(entry.userId, now, endpointOf(path), ms, entry.status);
		}
		this.write(
			`${iso(now)} ${method} ${req.url} -> ${entry.status || 'dropped'} (${ms.toFixed(1)} ms)\n`,
		);
		return answer;
	}

	/**
	 * The address the client used (its Host header), so the files a record links to are
	 * reachable the same way: listening on 0.0.0.0 for n8n in Docker, that is
	 * http://host.docker.internal:8787, not the listening address.
	 */
	private addressOf(headers: IncomingHttpHeaders): string {
		const host = headers.host;
		return host && /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(host)
			? `http://${host}`
			: this.baseUrl;
	}

	private peekUser(headers: IncomingHttpHeaders): string | null {
		const token = bearerToken(headers);
		if (token) {
			const k = this.store.keysByHash.get(hashKey(token));
			return k ? k.userId : null;
		}
		const session = sessionToken(headers);
		return session ? (this.sessions.get(session) ?? null) : null;
	}

	private process(
		req: WireRequest,
		method: string,
		path: string,
		query: Record<string, string>,
		body: unknown,
		bodyError: boolean,
		entry: RequestLogEntry,
		requestId: string,
		now: number,
	): Reply {
		const candidates = ROUTES.filter((r) => r.re.test(path));
		const route = candidates.find((r) => r.method === method);
		if (!route) {
			return errorReply(
				new ApiError(404, 'NOT_FOUND', `Route ${method} ${path} not found`),
				requestId,
				now,
			);
		}
		const params = (route.re.exec(path) ?? []).slice(1).map(safeDecode);
		this.store.settle(now);
		const base: Omit<Ctx, 'user' | 'key'> = {
			store: this.store,
			now,
			query,
			body,
			params,
			media: {
				url: this.opts.mediaUrl ?? `${this.addressOf(req.headers)}/files`,
				videos: this.opts.videos,
			},
			listRng: this.listRng,
			socialListOrder: this.opts.socialListOrder,
			looseStatusFilter: this.opts.looseStatusFilter,
			usage: this.usage,
		};

		if (route.auth === 'public') {
			const dummy = { ...base, user: null as unknown as User, key: null };
			return guard(() => route.handler(dummy), requestId, now);
		}

		if (route.auth === 'session') {
			const token = sessionToken(req.headers);
			const userId = token ? this.sessions.get(token) : undefined;
			if (!userId) {
				const msg = bearerToken(req.headers)
					? 'API keys cannot manage API keys: sign in to the dashboard (session cookie required)'
					: 'Authentication required: sign in to the dashboard';
				return flatReply(401, msg);
			}
			entry.userId = userId;
			if (bodyError) return flatReply(400, 'Request body is not valid JSON');
			const ctx: Ctx = { ...base, user: this.store.user(userId), key: null };
			return guard(() => route.handler(ctx), requestId, now);
		}

		// Bearer routes: authenticate, count, authorise, then validate and run
		const token = bearerToken(req.headers);
		const authFail = (message: string) =>
			errorReply(
				new ApiError(this.opts.authFailureStatus, 'UNAUTHORIZED', message),
				requestId,
				now,
			);
		if (!token) return authFail('Missing API key: send the header Authorization: Bearer <API key>');
		const key = this.store.keysByHash.get(hashKey(token));
		if (!key) return authFail('Invalid API key');
		if (key.revokedAt !== null) return authFail('This API key has been revoked');
		if (key.expiresAt !== null && key.expiresAt <= now) return authFail('This API key has expired');
		const u = this.store.user(key.userId);
		entry.userId = u.id;
		key.lastUsedAt = now;

		const rate = consume(key, this.store.limits(u), now);
		const headers = rateHeaders(rate.state);
		if (rate.retryAfter !== null) {
			return rateLimitReply(rate.retryAfter, requestId, now, headers);
		}

		const needed = PERMISSION_BY_METHOD[method] ?? 'write';
		const missing: string[] = [];
		if (!key.permissions.includes(needed))
			missing.push(`the '${needed}' permission (needed for ${method})`);
		if (route.scope && !key.scopes.includes(route.scope)) {
			missing.push(`the '${route.scope}' scope (needed for /api/v1/${route.scope}/*)`);
		}
		let reply: Reply;
		if (missing.length) {
			reply = errorReply(
				new ApiError(403, 'FORBIDDEN', `This API key lacks ${missing.join(' and ')}`),
				requestId,
				now,
			);
		} else if (bodyError && method !== 'GET') {
			reply = errorReply(
				new ApiError(400, 'VALIDATION_ERROR', 'Request body is not valid JSON'),
				requestId,
				now,
			);
		} else {
			const ctx: Ctx = { ...base, user: u, key };
			reply = guard(() => route.handler(ctx), requestId, now);
		}
		reply.headers = { ...headers, ...(reply.headers ?? {}) };
		return reply;
	}
}
