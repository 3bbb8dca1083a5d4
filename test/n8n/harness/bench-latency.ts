// A case of the queue-mode benchmark (bench.ts) across a network: the sandbox holds every answer
// back 150 ms (then 1 ms), and the same 200-item Get workflow runs with ContentGen (at its defaults,
// and at Parallel Requests 20) and with n8n's HTTP Request node signed by the ContentGen credential
// (predefined credential type), which sends every item's request at once. SAMPLES runs of each,
// interleaved; the median time, its spread, requests and 429 answers of each, and the median
// against HTTP Request's. The workflows are made at run time through n8n's API, so the leg's
// imported set stays as it is.
import type { Deployment } from './deployment';
import { medianRun, outputJson, SAMPLES, type Run } from './bench-run';
import type { resultTable } from './bench-table';
import { CREDENTIALS } from './queue-workflows';

const ITEMS = 200;
const LATENCIES_MS = [150, 1];

type Variant = { key: string; label: string; node: Record<string, unknown> };

export interface LatencyTools {
	/** A fresh key of the benchmark user on the Business plan, in the benchmark credentials. */
	freshKey(): Promise<void>;
	run(key: { id: string; path: string }, bodies: unknown[]): Promise<Run>;
	row: ReturnType<typeof resultTable>['row'];
	check(ok: boolean, text: string): void;
}

function variants(api: string): Variant[] {
	const ours = (parallelRequests?: number) => ({
		type: 'n8n-nodes-contentgen.contentGen',
		typeVersion: 2,
		parameters: {
			resource: 'article',
			operation: 'get',
			articleId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			options: parallelRequests ? { parallelRequests } : {},
		},
		credentials: { contentGenApi: CREDENTIALS.bench },
	});
	return [
		{ key: 'ours', label: 'ContentGen at its defaults', node: ours() },
		{ key: 'ours20', label: 'ContentGen, Parallel Requests 20', node: ours(20) },
		{
			key: 'http',
			label: 'HTTP Request, ContentGen credential',
			node: {
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					url: `=${api}/articles/{{ $json.id }}`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'contentGenApi',
					options: {},
				},
				credentials: { contentGenApi: CREDENTIALS.bench },
			},
		},
	];
}

/** Webhook (the ids in its body) -> one item per id -> the Get. */
function workflow(variant: Variant, path: string) {
	// Stable ids: n8n wants UUIDs for webhook ids, the hex tail keeps them apart.
	const id = (n: number) =>
		`0c9e1a7e-0000-4000-8000-${Buffer.from(`${variant.key}:${n}`).toString('hex').padEnd(12, '0').slice(-12)}`;
	return {
		name: `Latency: ${ITEMS} article Gets, ${variant.label}`,
		nodes: [
			{
				id: id(1),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: id(9),
				parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'noData' },
			},
			{
				id: id(2),
				name: 'Split items',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fieldToSplitOut: 'body.items', options: {} },
			},
			{ id: id(3), name: 'Get', position: [440, 0], ...variant.node },
		],
		connections: {
			Webhook: { main: [[{ node: 'Split items', type: 'main', index: 0 }]] },
			'Split items': { main: [[{ node: 'Get', type: 'main', index: 0 }]] },
		},
	};
}

/** Runs the case; its rows go into the benchmark's table under `section`. */
export async function latencyGets(
	deployment: Deployment,
	tools: LatencyTools,
	section: number,
): Promise<void> {
	const { control } = deployment.sandbox;
	const user = control.otherUserId;
	const project = control.projects(user)[0].id;
	const ids = control.seedArticles(ITEMS, { userId: user, projectId: project, status: 'cms' });
	const api = `${deployment.sandbox.url.replace(/\/+$/, '')}/api/v1`;
	const made: Array<{ variant: Variant; id: string; path: string }> = [];
	for (const variant of variants(api)) {
		const path = `b-latency-${variant.key}`;
		const id = await deployment.api.createWorkflow(workflow(variant, path));
		await deployment.api.setActive(id, true);
		made.push({ variant, id, path });
	}
	const body = { items: ids.map((id) => ({ id })) };
	try {
		for (const latencyMs of LATENCIES_MS) {
			const runs = new Map<string, Run[]>(made.map(({ variant }) => [variant.key, []]));
			control.setLatency(latencyMs);
			for (let n = 0; n < SAMPLES; n++) {
				for (const { variant, id, path } of made) {
					await tools.freshKey();
					runs.get(variant.key)?.push(await tools.run({ id, path }, [body]));
				}
			}
			report(tools, section, latencyMs, made, runs, ids);
		}
	} finally {
		control.setLatency(0);
		for (const { id } of made) await deployment.api.setActive(id, false);
	}
}

function report(
	tools: LatencyTools,
	section: number,
	latencyMs: number,
	made: Array<{ variant: Variant }>,
	runs: Map<string, Run[]>,
	ids: string[],
): void {
	const http = runs.get('http') as Run[];
	// HTTP Request outputs the whole envelope, ContentGen the article.
	const articlesOf = (r: Run) =>
		outputJson(r.executions[0]?.runData.Get)
			.map((a) => (a.data && typeof a.data === 'object' ? (a.data as Record<string, unknown>) : a))
			.filter((a) => ids.includes(String(a.id)));
	for (const { variant } of made) {
		const samples = runs.get(variant.key) as Run[];
		tools.row(
			section,
			`${ITEMS} items x article get, ${latencyMs} ms latency, Business plan`,
			variant.label,
			samples,
			{ ms: 0, what: '', applies: false },
			`${articlesOf(medianRun(samples)).length} of ${ITEMS} articles`,
			http,
		);
		if (variant.key === 'http') continue;
		for (const r of samples) {
			const limited = r.requests.filter((q) => q.status === 429).length;
			const got = articlesOf(r).length;
			tools.check(
				got === ITEMS && limited === 0 && r.executions.every((e) => e.status === 'success'),
				`${ITEMS} Gets at ${latencyMs} ms latency, ${variant.label}: ${got} of ${ITEMS} articles, ${limited} answers 429`,
			);
		}
	}
}
