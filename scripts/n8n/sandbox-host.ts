/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only process host: prints to stdout, reads argv, serves a control port */
// Runs the sandbox for scripts/test-n8n.sh and exposes a tiny loopback control API so the shell
// script can count the requests n8n made and steer generation outcomes.
// Prints one JSON line once both servers listen:
//   {"url","apiKey","controlUrl","projectId","triggerApiKey","triggerUserId","triggerProjectId"}
// The trigger* fields belong to the sandbox's second user, so the trigger test's requests and records
// stay apart from those of every other workflow.
import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

import { startSandbox } from '../../sandbox';

function arg(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1] : fallback;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(body));
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({
		port: Number(arg('port', '0')),
		speed: Number(arg('speed', '1000')),
		seed: Number(arg('seed', '42')),
		quiet: true,
	});
	const { control } = sandbox;

	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		void (async () => {
			try {
				if (req.method === 'GET' && url.pathname === '/requests') {
					// Filters keep the answer small: ?method=GET&path=/api/v1/articles (exact path match);
					// firstPage=1 keeps list requests for page 1 only.
					const method = url.searchParams.get('method');
					const path = url.searchParams.get('path');
					const prefix = url.searchParams.get('prefix');
					const firstPage = url.searchParams.get('firstPage') === '1';
					const userId = url.searchParams.get('userId');
					const entries = control
						.requests()
						.filter((r) => !method || r.method === method)
						.filter((r) => !path || r.path === path)
						.filter((r) => !prefix || r.path.startsWith(prefix))
						.filter((r) => !firstPage || !r.query.page || r.query.page === '1')
						.filter((r) => !userId || r.userId === userId)
						.map(({ method: m, path: p, query, status, at }) => ({
							method: m,
							path: p,
							query,
							status,
							at,
						}));
					send(res, 200, entries);
					return;
				}
				if (req.method === 'POST' && url.pathname === '/force-outcome') {
					const body = await readBody(req);
					control.forceOutcome(
						body.kind as 'article' | 'social',
						body.outcome as 'cms' | 'needs_editing' | 'failed' | 'completed' | 'ready',
						typeof body.count === 'number' ? body.count : undefined,
					);
					send(res, 200, { ok: true });
					return;
				}
				if (req.method === 'POST' && url.pathname === '/advance') {
					const body = await readBody(req);
					control.advance(Number(body.ms ?? 0));
					send(res, 200, { ok: true, now: control.now().toISOString() });
					return;
				}
				send(res, 404, { error: `no control route ${req.method} ${url.pathname}` });
			} catch (error) {
				send(res, 500, { error: (error as Error).message });
			}
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const controlPort = (server.address() as AddressInfo).port;

	const triggerUserId = control.otherUserId;
	const triggerApiKey = control.createKey({ userId: triggerUserId, name: 'n8n trigger test' });
	console.log(
		JSON.stringify({
			url: sandbox.url,
			apiKey: sandbox.apiKey,
			controlUrl: `http://127.0.0.1:${controlPort}`,
			projectId: control.projects()[0]?.id ?? null,
			triggerApiKey,
			triggerUserId,
			triggerProjectId: control.projects(triggerUserId)[0]?.id ?? null,
		}),
	);

	const shutdown = () => {
		server.close();
		void sandbox.close().finally(() => process.exit(0));
	};
	process.on('SIGTERM', shutdown);
	process.on('SIGINT', shutdown);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
