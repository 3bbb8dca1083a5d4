/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only process host: prints to stdout, reads argv, serves a control port */
// Runs the sandbox for scripts/test-n8n.sh and exposes a tiny loopback control API so the shell
// script can count the requests n8n made, steer generation outcomes, rate limits and faults.
// Prints one JSON line once both servers listen:
//   {"url","apiKey","controlUrl","projectId","userId","triggerApiKey","triggerUserId","triggerProjectId"}
// The trigger* fields belong to the sandbox's second user, so the trigger test's requests and records
// stay apart from those of every other workflow.
//
//   tsx scripts/n8n/sandbox-host.ts [--port 0] [--speed 1000] [--seed 42]
import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

import { startSandbox, type FaultConfig, type Plan } from '../../sandbox';
import { PLAN_LIMITS } from '../../sandbox/constants';

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
					// firstPage=1 keeps list requests for page 1 only; withBody=1 adds request bodies.
					const method = url.searchParams.get('method');
					const path = url.searchParams.get('path');
					const prefix = url.searchParams.get('prefix');
					const firstPage = url.searchParams.get('firstPage') === '1';
					const withBody = url.searchParams.get('withBody') === '1';
					const userId = url.searchParams.get('userId');
					// since=<ISO time>: only requests received at or after it
					const since = Date.parse(url.searchParams.get('since') ?? '');
					const entries = control
						.requests()
						.filter((r) => Number.isNaN(since) || Date.parse(r.at) >= since)
						.filter((r) => !method || r.method === method)
						.filter((r) => !path || r.path === path)
						.filter((r) => !prefix || r.path.startsWith(prefix))
						.filter((r) => !firstPage || !r.query.page || r.query.page === '1')
						.filter((r) => !userId || r.userId === userId)
						.map(({ method: m, path: p, query, status, at, body }) => ({
							method: m,
							path: p,
							query,
							status,
							at,
							...(withBody ? { body } : {}),
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
				if (req.method === 'POST' && url.pathname === '/keys') {
					// A fresh key of a user starts with an unspent per-minute window.
					const body = await readBody(req);
					const apiKey = control.createKey({
						userId: body.userId as string | undefined,
						name: (body.name as string | undefined) ?? 'n8n test key',
					});
					send(res, 200, { apiKey });
					return;
				}
				if (req.method === 'POST' && url.pathname === '/plan-limits') {
					// The rate limits of a plan for one user, e.g. {"userId": "...", "plan": "Free"}
					const body = await readBody(req);
					const limits = PLAN_LIMITS[body.plan as Plan];
					if (!limits) throw new Error(`unknown plan ${String(body.plan)}`);
					control.setRateLimit(limits, body.userId as string | undefined);
					send(res, 200, { ok: true, ...limits });
					return;
				}
				if (req.method === 'POST' && url.pathname === '/faults') {
					control.setFaults((await readBody(req)) as FaultConfig);
					send(res, 200, { ok: true });
					return;
				}
				if (req.method === 'DELETE' && url.pathname === '/faults') {
					control.clearFaults();
					send(res, 200, { ok: true });
					return;
				}
				if (req.method === 'POST' && url.pathname === '/seed-articles') {
					const body = await readBody(req);
					const ids = control.seedArticles(Number(body.count ?? 0), {
						userId: body.userId as string | undefined,
						status: body.status as string | undefined,
					});
					send(res, 200, { count: ids.length });
					return;
				}
				if (req.method === 'POST' && url.pathname === '/credits') {
					const body = await readBody(req);
					control.setCredits(
						{ subscription: Number(body.subscription), purchased: Number(body.purchased ?? 0) },
						body.userId as string | undefined,
					);
					send(res, 200, { ok: true });
					return;
				}
				if (req.method === 'GET' && url.pathname === '/ledger') {
					const userId = url.searchParams.get('userId');
					send(
						res,
						200,
						control.ledger().filter((e) => !userId || e.userId === userId),
					);
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
			userId: control.defaultUserId,
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
