/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- a real loopback server that misbehaves on purpose: hangs, drips, redirects */
/**
 * A loopback HTTP server whose every answer is written by the test: it can hang, drip a body
 * byte by byte, redirect, or serve pages. Every request is recorded with its Authorization header.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo, Socket } from 'net';

export interface SeenRequest {
	method: string;
	path: string;
	query: URLSearchParams;
	authorization?: string;
	body: string;
}

export type Handler = (
	request: SeenRequest,
	response: ServerResponse,
	raw: IncomingMessage,
) => void | Promise<void>;

export interface HostileServer {
	url: string;
	origin: string;
	seen: SeenRequest[];
	close(): Promise<void>;
}

export async function startHostileServer(
	handle: Handler,
	host = '127.0.0.1',
): Promise<HostileServer> {
	const seen: SeenRequest[] = [];
	const sockets = new Set<Socket>();
	const timers = new Set<NodeJS.Timeout>();
	const server = createServer(async (raw, response) => {
		const chunks: Buffer[] = [];
		for await (const chunk of raw) chunks.push(chunk as Buffer);
		const url = new URL(raw.url ?? '/', 'http://local');
		const request: SeenRequest = {
			method: raw.method ?? '',
			path: url.pathname,
			query: url.searchParams,
			authorization: raw.headers.authorization,
			body: Buffer.concat(chunks).toString('utf8'),
		};
		seen.push(request);
		await handle(request, response, raw);
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	const origin = `http://${host}:${port}`;
	return {
		url: origin,
		origin,
		seen,
		close: async () => {
			for (const timer of timers) clearInterval(timer);
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Headers now, then one byte every `everyMs` for as long as the client listens. */
export function drip(response: ServerResponse, everyMs = 200): void {
	response.writeHead(200, { 'Content-Type': 'application/json' });
	response.write('{"success":true,"data":{"x":"');
	const timer = setInterval(() => {
		if (response.destroyed) clearInterval(timer);
		else response.write('a');
	}, everyMs);
	response.on('close', () => clearInterval(timer));
}

export function json(response: ServerResponse, status: number, body: unknown, headers = {}): void {
	response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	response.end(JSON.stringify(body));
}

export const envelope = (data: unknown, pagination?: unknown) =>
	pagination === undefined ? { success: true, data } : { success: true, data, pagination };

export const failure = (code: string, message: string) => ({
	success: false,
	error: { code, message },
	meta: { request_id: 'req_hostile', timestamp: '2026-11-23T00:00:00Z' },
});
