/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a real local socket server for network-failure tests */
/**
 * A loopback HTTP server that plays a script of answers, including dropped connections.
 * nock's replyWithError leaves axios hanging, so connection faults are tested on real sockets.
 */
import { createServer, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';

export type Step =
	| { drop: true }
	| { status: number; body?: unknown; headers?: Record<string, string> };

export interface SeenRequest {
	method: string;
	url: string;
	body: string;
	authorization?: string;
}

export interface FlakyServer {
	url: string;
	seen: SeenRequest[];
	close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

export async function startFlakyServer(steps: Step[]): Promise<FlakyServer> {
	const seen: SeenRequest[] = [];
	const queue = [...steps];
	const server: Server = createServer(async (request, response) => {
		const body = await readBody(request);
		seen.push({
			method: request.method ?? '',
			url: request.url ?? '',
			body,
			authorization: request.headers.authorization,
		});
		const step = queue.shift() ?? {
			status: 599,
			body: { success: false, error: { code: 'SCRIPT_ENDED', message: 'no more steps' } },
		};
		if ('drop' in step) {
			request.socket.destroy();
			return;
		}
		const payload = typeof step.body === 'string' ? step.body : JSON.stringify(step.body ?? '');
		response.writeHead(step.status, {
			'Content-Type': 'application/json',
			...(step.headers ?? {}),
		});
		response.end(payload);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** A loopback address where nothing listens: connecting to it is refused. */
export async function refusedUrl(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return `http://127.0.0.1:${port}`;
}
