// The workflows of the queue-mode leg (queue.leg.ts) and its benchmark (bench.ts), imported with
// n8n's CLI under fixed ids. Every one starts at a production webhook, so n8n main enqueues it and
// a worker runs it. Our nodes use the credential CREDENTIALS.queue (functional checks) or
// CREDENTIALS.bench (benchmark); the "what users build instead" variants use n8n's HTTP Request node
// with a Bearer credential on the same key.

export const CREDENTIALS = {
	queue: { id: 'contentgen-sandbox', name: 'ContentGen account' },
	bench: { id: 'contentgen-bench', name: 'ContentGen benchmark key' },
	bearer: { id: 'contentgen-bench-bearer', name: 'ContentGen benchmark key (Bearer)' },
};

/** Webhook paths, by workflow. */
export const PATHS = {
	generateWait: 'q-generate-wait',
	generateThenWait: 'q-generate-then-wait',
	recover: 'q-recover',
	benchGenerateWait: 'b-generate-wait',
	benchReturnAll: 'b-return-all',
	benchHttpPaginate: 'b-http-paginate',
	benchGenerateMany: 'b-generate-many',
	benchHttpLoop: 'b-http-loop',
} as const;
export type WorkflowKey = keyof typeof PATHS;

/** Node names the benchmark reads results from. */
export const NODES = {
	ours: 'ContentGen',
	http: 'HTTP Request',
	httpRecords: 'Split records',
	loopFetch: 'Get finished article',
};

/** Poll interval of every wait in these workflows: the sandbox runs fast, the figures compare like with like. */
export const POLL_SECONDS = 1;

interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Workflow {
	id: string;
	name: string;
	active: false;
	nodes: WorkflowNode[];
	connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: 'main'; index: number }>> }
	>;
	settings: Record<string, unknown>;
}

const WORKFLOW_IDS: Record<WorkflowKey, string> = {
	generateWait: 'cgqGenerateWait',
	generateThenWait: 'cgqGenerateThenWait',
	recover: 'cgqRecover',
	benchGenerateWait: 'cgqBenchGenerateWait',
	benchReturnAll: 'cgqBenchReturnAll',
	benchHttpPaginate: 'cgqBenchHttpPaginate',
	benchGenerateMany: 'cgqBenchGenerateMany',
	benchHttpLoop: 'cgqBenchHttpLoop',
};

export function workflowId(key: WorkflowKey): string {
	return WORKFLOW_IDS[key];
}

function uuid(key: WorkflowKey, n: number): string {
	// Stable ids: n8n wants UUIDs for webhook ids, the hex tail keeps them apart.
	const tail = Buffer.from(`${key}:${n}`).toString('hex').padEnd(12, '0').slice(-12);
	return `0c9e0000-0000-4000-8000-${tail}`;
}

/**
 * A linear chain of nodes after a webhook. `respond`: the webhook answers with the last node's first
 * item (firstEntryJson), once the workflow finished with nothing (noData), or at once (onReceived).
 */
function chain(
	key: WorkflowKey,
	name: string,
	respond: 'firstEntryJson' | 'noData' | 'onReceived',
	nodes: Array<Omit<WorkflowNode, 'id' | 'position'>>,
	extraConnections: Workflow['connections'] = {},
): Workflow {
	const webhook: WorkflowNode = {
		id: uuid(key, 0),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: uuid(key, 99),
		parameters: {
			httpMethod: 'POST',
			path: PATHS[key],
			...(respond === 'onReceived'
				? { responseMode: 'onReceived' }
				: { responseMode: 'lastNode', responseData: respond }),
			options: {},
		},
	};
	const all = [
		webhook,
		...nodes.map((n, i) => ({
			...n,
			id: uuid(key, i + 1),
			position: [220 * (i + 1), 0] as [number, number],
		})),
	];
	const connections: Workflow['connections'] = { ...extraConnections };
	for (let i = 0; i + 1 < all.length; i++) {
		connections[all[i].name] ??= { main: [[]] };
		connections[all[i].name].main[0].push({ node: all[i + 1].name, type: 'main', index: 0 });
	}
	return {
		id: WORKFLOW_IDS[key],
		name: `Queue mode: ${name}`,
		active: false,
		nodes: all,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

function ours(
	name: string,
	credential: { id: string; name: string },
	parameters: Record<string, unknown>,
): Omit<WorkflowNode, 'id' | 'position'> {
	return {
		name,
		type: 'n8n-nodes-contentgen.contentGen',
		typeVersion: 2,
		parameters,
		credentials: { contentGenApi: credential },
	};
}

const generateArticle = (credential: { id: string; name: string }, wait: boolean) =>
	ours(wait ? NODES.ours : 'Generate article', credential, {
		resource: 'article',
		operation: 'generate',
		topic: '={{ $json.topic ?? $json.body.topic }}',
		projectId: {
			__rl: true,
			mode: 'id',
			value: '={{ $json.project_id ?? $json.body.projectId }}',
		},
		waitForCompletion: wait,
		...(wait ? { options: { pollInterval: POLL_SECONDS } } : {}),
	});

const waitFor = (credential: { id: string; name: string }, articleId: string) =>
	ours('Wait for article', credential, {
		resource: 'article',
		operation: 'waitForCompletion',
		articleId: { __rl: true, mode: 'id', value: articleId },
		options: { pollInterval: POLL_SECONDS },
	});

function http(
	name: string,
	url: string,
	extra: Record<string, unknown> = {},
): Omit<WorkflowNode, 'id' | 'position'> {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBearerAuth',
			options: {},
			...extra,
		},
		credentials: { httpBearerAuth: CREDENTIALS.bearer },
	};
}

const splitItems = {
	name: 'Split items',
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	parameters: { fieldToSplitOut: 'body.items', options: {} },
};

export function queueWorkflows(sandboxUrl: string): Workflow[] {
	const api = `${sandboxUrl.replace(/\/+$/, '')}/api/v1`;
	const loop = chain('benchHttpLoop', '20 generations, HTTP Request + Wait + IF loop', 'noData', [
		splitItems,
		http('Generate', `${api}/articles/generate`, {
			method: 'POST',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ { topic: $json.topic, project_id: $json.project_id } }}',
		}),
		{
			name: 'Wait',
			type: 'n8n-nodes-base.wait',
			typeVersion: 1.1,
			parameters: { amount: POLL_SECONDS, unit: 'seconds' },
		},
		http('Get status', `=${api}/articles/{{ $json.data.article_id }}/status`),
		{
			name: 'Finished?',
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
					conditions: [
						{
							id: uuid('benchHttpLoop', 50),
							leftValue: '={{ $json.data.is_complete }}',
							rightValue: '',
							operator: { type: 'boolean', operation: 'true', singleValue: true },
						},
					],
					combinator: 'and',
				},
				options: {},
			},
		},
		http(NODES.loopFetch, `=${api}/articles/{{ $json.data.article_id }}`),
	]);
	// The IF node's false branch goes back to the Wait: the usual polling loop.
	loop.connections['Finished?'].main[1] = [{ node: 'Wait', type: 'main', index: 0 }];

	return [
		chain('generateWait', 'generate an article and wait', 'firstEntryJson', [
			generateArticle(CREDENTIALS.queue, true),
		]),
		chain('generateThenWait', 'generate, then Wait for Completion by ID', 'onReceived', [
			generateArticle(CREDENTIALS.queue, false),
			waitFor(CREDENTIALS.queue, '={{ $json.article_id }}'),
		]),
		chain('recover', 'find a generation by its topic and wait for it', 'firstEntryJson', [
			ours('Find article', CREDENTIALS.queue, {
				resource: 'article',
				operation: 'getMany',
				limit: 1,
				filters: { search: '={{ $json.body.topic }}' },
			}),
			waitFor(CREDENTIALS.queue, '={{ $json.id }}'),
		]),
		chain('benchGenerateWait', 'generate an article and wait (benchmark key)', 'noData', [
			generateArticle(CREDENTIALS.bench, true),
		]),
		chain('benchReturnAll', 'Get Many, Return All', 'noData', [
			ours(NODES.ours, CREDENTIALS.bench, {
				resource: 'article',
				operation: 'getMany',
				returnAll: true,
				filters: { status: '={{ $json.body.status }}' },
			}),
		]),
		chain('benchHttpPaginate', "HTTP Request with n8n's pagination", 'noData', [
			http(NODES.http, `${api}/articles`, {
				sendQuery: true,
				queryParameters: {
					parameters: [
						{ name: 'status', value: '={{ $json.body.status }}' },
						{ name: 'limit', value: '100' },
					],
				},
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }],
							},
							paginationCompleteWhen: 'other',
							completeExpression: '={{ !$response.body.pagination.has_more }}',
						},
					},
				},
			}),
			// One item per record, as Get Many gives them: the page bodies split on their data array.
			{
				name: NODES.httpRecords,
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'data', options: {} },
			},
		]),
		chain('benchGenerateMany', '20 generations in one node', 'noData', [
			splitItems,
			generateArticle(CREDENTIALS.bench, true),
		]),
		loop,
	];
}
