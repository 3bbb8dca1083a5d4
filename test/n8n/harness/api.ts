/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev-only client of a local n8n: loads n8n's own flatted, returns Buffers */
// n8n's HTTP API for the tests: the public API (/api/v1, with an API key) wherever it has the
// route, and the editor's private routes (/rest, with the owner's session cookie) only for what the
// public API does not offer; each private use names why.
import { createRequire } from 'module';
import { join } from 'path';

// The JWT in n8n's auth cookie is bound to this header's value.
const BROWSER_ID = 'contentgen-n8n-test';
const OWNER = { email: 'owner@contentgen.test', firstName: 'Content', lastName: 'Gen' };

export interface ExecutionRecord {
	id: string;
	status: string;
	mode: string;
	finished: boolean;
	workflowId: string;
	/** node name -> json of every output item across its runs */
	nodes: Record<string, Array<Record<string, unknown>>>;
	/** node name -> the binary properties of its output items */
	binaries: Record<string, BinaryRef[]>;
	/** node name -> error message of its last failed run */
	errors: Record<string, string>;
	error: string | null;
	/** n8n's own run data, for checks that read more than the items */
	runData: Record<string, NodeRun[]>;
}

export interface BinaryRef {
	id?: string;
	fileName?: string;
	mimeType?: string;
	fileSize?: string;
}

export interface NodeRun {
	error?: { message?: string; description?: string };
	data?: Record<
		string,
		Array<Array<{ json: Record<string, unknown>; binary?: Record<string, BinaryRef> }> | null>
	>;
}

const outputs = (runs: NodeRun[]) =>
	runs.flatMap((r) =>
		Object.values(r.data ?? {}).flatMap((branches) => branches.flatMap((b) => b ?? [])),
	);

export class N8nApi {
	private cookie = '';
	private apiKey = '';
	private readonly password = `Cg-${Math.random().toString(36).slice(2)}-A1`;

	constructor(
		readonly url: string,
		/** the n8n install, whose own `flatted` reads execution data */
		private readonly n8nDir: string,
	) {}

	private async send(path: string, init: RequestInit & { json?: unknown }): Promise<unknown> {
		const response = await fetch(`${this.url}${path}`, {
			...init,
			headers: {
				'Content-Type': 'application/json',
				'browser-id': BROWSER_ID,
				...(this.cookie ? { Cookie: this.cookie } : {}),
				...(this.apiKey && path.startsWith('/api/') ? { 'X-N8N-API-KEY': this.apiKey } : {}),
			},
			body: init.json === undefined ? undefined : JSON.stringify(init.json),
		});
		const text = await response.text();
		const setCookie = response.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.find((c) => c.startsWith('n8n-auth='));
		if (setCookie) this.cookie = setCookie;
		if (!response.ok) {
			throw new Error(
				`${init.method ?? 'GET'} ${path}: HTTP ${response.status} ${text.slice(0, 500)}`,
			);
		}
		return text ? JSON.parse(text) : null;
	}

	private rest<T>(method: string, path: string, json?: unknown): Promise<T> {
		return this.send(`/rest${path}`, { method, json }).then((r) => (r as { data: T }).data);
	}

	private public<T>(method: string, path: string, json?: unknown): Promise<T> {
		return this.send(`/api/v1${path}`, { method, json }) as Promise<T>;
	}

	/**
	 * The instance owner (private: the public API has no owner setup or login), then an API key
	 * with every scope the owner may grant (private: keys are minted in the editor only).
	 */
	async setup(): Promise<void> {
		try {
			await this.rest('POST', '/owner/setup', { ...OWNER, password: this.password });
		} catch {
			// the owner exists already (main restarted on the same database): sign in
			await this.rest('POST', '/login', {
				emailOrLdapLoginId: OWNER.email,
				password: this.password,
			});
		}
		if (this.apiKey) return;
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes');
		const key = await this.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label: `contentgen test ${Date.now()}`,
			expiresAt: null,
			scopes,
		});
		this.apiKey = key.rawApiKey;
	}

	async createCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<string> {
		return (await this.public<{ id: string }>('POST', '/credentials', { name, type, data })).id;
	}

	async createWorkflow(workflow: {
		name: string;
		nodes: unknown[];
		connections: unknown;
		settings?: Record<string, unknown>;
	}): Promise<string> {
		const { name, nodes, connections } = workflow;
		return (
			await this.public<{ id: string }>('POST', '/workflows', {
				name,
				nodes,
				connections,
				settings: workflow.settings ?? { executionOrder: 'v1' },
			})
		).id;
	}

	/** Publishes (activates) or unpublishes a workflow. */
	async setActive(id: string, active: boolean): Promise<void> {
		await this.public('POST', `/workflows/${id}/${active ? 'publish' : 'unpublish'}`, {});
	}

	async staticData(id: string): Promise<Record<string, unknown> | null> {
		return (
			(
				await this.public<{ staticData?: Record<string, unknown> | null }>(
					'GET',
					`/workflows/${id}`,
				)
			).staticData ?? null
		);
	}

	/**
	 * Ids of a workflow's executions, newest first. n8n leaves running executions out of this list
	 * unless asked for `status` running.
	 */
	async executionIds(workflowId: string, status?: string): Promise<string[]> {
		const page = await this.public<{ data: Array<{ id: string | number }> }>(
			'GET',
			`/executions?workflowId=${workflowId}&limit=250${status ? `&status=${status}` : ''}`,
		);
		return page.data.map((e) => String(e.id));
	}

	async execution(id: string): Promise<ExecutionRecord> {
		const record = await this.public<{
			id: string | number;
			status: string;
			mode: string;
			finished: boolean;
			workflowId: string;
			data?: unknown;
		}>('GET', `/executions/${id}?includeData=true`);
		const data = (typeof record.data === 'string' ? this.unflatten(record.data) : record.data) as
			| {
					resultData?: {
						runData?: Record<string, NodeRun[]>;
						error?: { message?: string; description?: string };
					};
			  }
			| undefined;
		const runData = data?.resultData?.runData ?? {};
		const nodes: ExecutionRecord['nodes'] = {};
		const binaries: ExecutionRecord['binaries'] = {};
		const errors: ExecutionRecord['errors'] = {};
		for (const [name, runs] of Object.entries(runData)) {
			nodes[name] = outputs(runs).map((item) => item.json);
			binaries[name] = outputs(runs).flatMap((item) => Object.values(item.binary ?? {}));
			const failed = runs.find((r) => r.error);
			if (failed?.error)
				errors[name] = [failed.error.message, failed.error.description].filter(Boolean).join(' ');
		}
		const error = data?.resultData?.error;
		return {
			id: String(record.id),
			status: record.status,
			mode: record.mode,
			finished: record.finished,
			workflowId: record.workflowId,
			nodes,
			binaries,
			errors,
			error: error ? [error.message, error.description].filter(Boolean).join(' ') : null,
			runData,
		};
	}

	/** The execution once n8n has finished it (whichever way). */
	async finished(id: string, seconds = 120): Promise<ExecutionRecord> {
		const deadline = Date.now() + seconds * 1000;
		for (;;) {
			const record = await this.execution(id).catch(() => undefined);
			if (record && !['new', 'running', 'waiting'].includes(record.status)) return record;
			if (Date.now() > deadline)
				throw new Error(`execution ${id} not finished within ${seconds} s (${record?.status})`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}

	/**
	 * A GET of the editor's REST API, timed to the last byte of its answer (private: what the editor
	 * loads when it opens a workflow has no public route).
	 */
	async editorGet(path: string): Promise<{ ms: number; bytes: number; text: string }> {
		const started = performance.now();
		const response = await fetch(`${this.url}/rest${path}`, {
			headers: { 'browser-id': BROWSER_ID, Cookie: this.cookie },
		});
		const body = Buffer.from(await response.arrayBuffer());
		const ms = performance.now() - started;
		if (!response.ok) throw new Error(`GET /rest${path}: HTTP ${response.status}`);
		return { ms, bytes: body.length, text: body.toString('utf8') };
	}

	/** The signed-in owner's session, for a browser that opens the editor as them. */
	get session(): { cookie: string; browserId: string } {
		return { cookie: this.cookie, browserId: BROWSER_ID };
	}

	/** The node and credential types main serves to its editor (private: the editor's own list). */
	async servedTypes(): Promise<string[]> {
		const names = async (path: string) => {
			const response = await fetch(`${this.url}${path}`, {
				headers: { 'browser-id': BROWSER_ID, Cookie: this.cookie },
			});
			if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
			return ((await response.json()) as Array<{ name: string }>).map((t) => t.name);
		};
		return [...(await names('/types/nodes.json')), ...(await names('/types/credentials.json'))];
	}

	private unflatten(text: string): unknown {
		const requireFromN8n = createRequire(join(this.n8nDir, 'node_modules', 'n8n', 'package.json'));
		return (requireFromN8n('flatted') as { parse: (t: string) => unknown }).parse(text);
	}

	/**
	 * Runs a saved workflow as the editor's "Execute workflow" button does, from its trigger
	 * (private: the public API cannot start a manual execution); with `triggerOnly` it runs that node
	 * alone, as "Fetch Test Event" does. Returns the execution id.
	 */
	async runManually(id: string, trigger: string, triggerOnly = false): Promise<string> {
		// n8n before 2.x reads the workflow from the payload, later ones from the database
		const workflowData = await this.rest<Record<string, unknown>>('GET', `/workflows/${id}`);
		const result = await this.rest<{ executionId?: string }>('POST', `/workflows/${id}/run`, {
			workflowData,
			triggerToStartFrom: { name: trigger },
			...(triggerOnly ? { destinationNode: { nodeName: trigger, mode: 'inclusive' } } : {}),
		});
		if (!result.executionId)
			throw new Error(`manual run of ${id} started no execution: ${JSON.stringify(result)}`);
		return result.executionId;
	}

	async testCredential(id: string): Promise<{ status: string; message: string }> {
		return await this.public('POST', `/credentials/${id}/test`);
	}

	/**
	 * The credential test as the editor's Save/Retry runs it (private: n8n 1.x has no public test
	 * route): the stored credential, data included, sent back to n8n's test endpoint.
	 */
	async testCredentialAsEditor(id: string): Promise<{ status: string; message: string }> {
		const stored = await this.rest<{ id: string; name: string; type: string; data: unknown }>(
			'GET',
			`/credentials/${id}?includeData=true`,
		);
		const { name, type, data } = stored;
		return await this.rest('POST', '/credentials/test', { credentials: { id, name, type, data } });
	}

	/** Replaces some fields of a credential's data (a fresh API key), keeping the others. */
	async updateCredential(id: string, data: Record<string, unknown>): Promise<void> {
		await this.public('PATCH', `/credentials/${id}`, { data, isPartialData: true });
	}

	/** The bytes of a stored binary as the editor downloads them (private: not in the public API). */
	async binary(binaryId: string): Promise<Buffer> {
		const response = await fetch(
			`${this.url}/rest/binary-data?id=${encodeURIComponent(binaryId)}&action=download`,
			{ headers: { 'browser-id': BROWSER_ID, Cookie: this.cookie } },
		);
		if (!response.ok)
			throw new Error(`binary ${binaryId}: HTTP ${response.status} ${await response.text()}`);
		return Buffer.from(await response.arrayBuffer());
	}
}
