/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only: a loopback HTTP proxy */
// A loopback proxy in front of the sandbox for one credential's Base URL: every request passes
// through unchanged, and a test can wait for the next one to arrive, to act at a chosen moment of
// a poll (stop n8n 40 ms into it). Only the workflows using that credential go through it.
import { createServer, request, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';

export class Tap {
	url = '';
	private waiting: Array<(at: number) => void> = [];
	private readonly server: Server;

	private constructor(upstream: URL) {
		this.server = createServer((req: IncomingMessage, res) => {
			this.arrived();
			const forward = request(
				{
					host: upstream.hostname,
					port: upstream.port,
					method: req.method,
					path: req.url,
					headers: { ...req.headers, host: upstream.host },
				},
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			forward.on('error', () => res.destroy());
			req.pipe(forward);
		});
	}

	static async start(target: string): Promise<Tap> {
		const tap = new Tap(new URL(target));
		await new Promise<void>((resolve) => tap.server.listen(0, '127.0.0.1', resolve));
		tap.url = `http://127.0.0.1:${(tap.server.address() as AddressInfo).port}`;
		return tap;
	}

	/** Resolves (with the time) when the next request arrives. */
	next(): Promise<number> {
		return new Promise((resolve) => this.waiting.push(resolve));
	}

	private arrived(): void {
		const now = Date.now();
		const waiting = this.waiting;
		this.waiting = [];
		for (const resolve of waiting) resolve(now);
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise((resolve) => this.server.close(resolve));
	}
}
