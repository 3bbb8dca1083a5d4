/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev-only sandbox: a real HTTP server needs http, Buffer and timers */
/** The sandbox's wire: credentials read from a request, bodies read and written, error replies. */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'http';

import { iso } from './clock';
import { FlatError, type Reply } from './http';
import { ApiError } from './store';

export const SESSION_COOKIE_NAME = 'cg_session';

export function bearerToken(headers: IncomingHttpHeaders): string | null {
	const h = headers.authorization;
	if (!h) return null;
	const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
	return m ? m[1] : null;
}

export function sessionToken(headers: IncomingHttpHeaders): string | null {
	const cookie = headers.cookie;
	if (!cookie) return null;
	for (const part of cookie.split(';')) {
		const [k, ...rest] = part.trim().split('=');
		if (k === SESSION_COOKIE_NAME) return rest.join('=');
	}
	return null;
}

export function safeDecode(s: string): string {
	try {
		return decodeURIComponent(s);
	} catch {
		return s;
	}
}

export function errorReply(e: ApiError, requestId: string, now: number): Reply {
	return {
		status: e.status,
		body: {
			success: false,
			error: { code: e.code, message: e.message },
			meta: { request_id: requestId, timestamp: iso(now) },
		},
	};
}

export function flatReply(status: number, message: string): Reply {
	return { status, body: { error: message } };
}

export function guard(run: () => Reply, requestId: string, now: number): Reply {
	try {
		return run();
	} catch (e) {
		if (e instanceof ApiError) return errorReply(e, requestId, now);
		if (e instanceof FlatError) return flatReply(e.status, e.message);
		const message = e instanceof Error ? e.message : String(e);
		return errorReply(
			new ApiError(500, 'INTERNAL_ERROR', `Sandbox error: ${message}`),
			requestId,
			now,
		);
	}
}

/** A reply as it goes on the wire: status, headers, bytes. */
export interface WireAnswer {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
}

export function encode(reply: Reply, requestId: string): WireAnswer {
	const body =
		reply.raw !== undefined
			? Buffer.isBuffer(reply.raw)
				? reply.raw
				: Buffer.from(reply.raw, 'utf8')
			: Buffer.from(JSON.stringify(reply.body ?? null), 'utf8');
	return {
		status: reply.status,
		headers: {
			'Content-Type': reply.contentType ?? 'application/json; charset=utf-8',
			'Content-Length': String(body.length),
			'X-Request-Id': requestId,
			...(reply.headers ?? {}),
		},
		body,
	};
}

export function send(res: ServerResponse, answer: WireAnswer): void {
	res.writeHead(answer.status, answer.headers);
	res.end(answer.body);
}

export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
