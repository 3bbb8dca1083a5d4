/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only client of a local n8n: reads the environment, loads n8n's own flatted */
// A client of a running n8n's REST API on loopback, through the same routes its editor uses.
// Used by scripts/n8n/n8n-rest.ts (the shell's entry point) and scripts/n8n/queue-bench.ts.
import { createRequire } from 'module';
import { join } from 'path';

// The JWT in n8n's auth cookie is bound to this header's value.
export const BROWSER_ID = 'contentgen-n8n-test';
// A throwaway owner of a throwaway instance; the calling script picks the password per run.
const OWNER_EMAIL = 'owner@contentgen.test';

export interface Reply {
	status: number;
	json: unknown;
	setCookie: string[];
}

export function data<T>(json: unknown): T {
	return (json as { data: T }).data;
}

export class N8nRest {
	constructor(
		readonly url: string,
		public cookie = '',
	) {}

	async call(method: string, path: string, body?: unknown): Promise<Reply> {
		const response = await fetch(`${this.url}/rest${path}`, {
			method,
			headers: {
				'Content-Type': 'application/json',
				'browser-id': BROWSER_ID,
				...(this.cookie ? { Cookie: this.cookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		let json: unknown = text;
		try {
			json = JSON.parse(text);
		} catch {
			// keep the raw text: n8n answers some errors in plain text
		}
		return { status: response.status, json, setCookie: response.headers.getSetCookie() };
	}

	/** `call`, failing unless n8n answers 200. */
	async ok<T>(method: string, path: string, body?: unknown): Promise<T> {
		const reply = await this.call(method, path, body);
		if (reply.status !== 200) {
			throw new Error(`${method} ${path}: HTTP ${reply.status} ${JSON.stringify(reply.json)}`);
		}
		return data<T>(reply.json);
	}

	/**
	 * Creates the instance owner (password from CONTENTGEN_N8N_OWNER_PASSWORD), or signs in when it
	 * exists; keeps the session cookie.
	 */
	async setup(): Promise<string> {
		const password = process.env.CONTENTGEN_N8N_OWNER_PASSWORD;
		if (!password) throw new Error('CONTENTGEN_N8N_OWNER_PASSWORD is not set');
		const owner = { email: OWNER_EMAIL, firstName: 'Content', lastName: 'Gen', password };
		let result = await this.call('POST', '/owner/setup', owner);
		if (result.status >= 400) {
			// Owner exists already (n8n restarted on the same user folder): sign in instead.
			result = await this.call('POST', '/login', { emailOrLdapLoginId: owner.email, password });
		}
		const cookie = result.setCookie
			.map((c) => c.split(';')[0])
			.find((c) => c.startsWith('n8n-auth='));
		if (result.status >= 400 || !cookie) {
			throw new Error(
				`owner setup/login failed: HTTP ${result.status} ${JSON.stringify(result.json)}`,
			);
		}
		this.cookie = cookie;
		return OWNER_EMAIL;
	}

	async setActive(id: string, active: boolean): Promise<{ id: string; active: boolean }> {
		const { versionId } = await this.ok<{ versionId: string }>('GET', `/workflows/${id}`);
		const result = await this.ok<{ active: boolean; activeVersionId?: string | null }>(
			'POST',
			`/workflows/${id}/${active ? 'activate' : 'deactivate'}`,
			active ? { versionId } : {},
		);
		return { id, active: result.active };
	}

	/** Replaces a saved credential's data (e.g. a new API key); the value is never printed. */
	async updateCredential(id: string, values: Record<string, unknown>): Promise<void> {
		const stored = await this.ok<{ name: string; type: string; data: Record<string, unknown> }>(
			'GET',
			`/credentials/${id}?includeData=true`,
		);
		await this.ok('PATCH', `/credentials/${id}`, {
			name: stored.name,
			type: stored.type,
			data: { ...stored.data, ...values },
		});
	}

	/** Executions of a workflow, newest first (at most 100). */
	async executions(workflowId: string): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		return (
			await this.ok<{ results: ExecutionSummary[] }>(
				'GET',
				`/executions?filter=${filter}&limit=100`,
			)
		).results;
	}

	/** One execution with its run data, unflattened with n8n's own `flatted` (from the install in n8nDir). */
	async execution(id: string, n8nDir: string): Promise<Execution> {
		const requireFromN8n = createRequire(join(n8nDir, 'node_modules', 'n8n', 'package.json'));
		const flatted = requireFromN8n('flatted') as { parse: (text: string) => unknown };
		const record = await this.ok<
			ExecutionSummary & { data: string; workflowData: Execution['workflowData'] }
		>('GET', `/executions/${id}`);
		const run = flatted.parse(record.data) as { resultData: Execution['resultData'] };
		return { ...record, workflowData: record.workflowData, resultData: run.resultData };
	}
}

export interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

export interface NodeRun {
	startTime?: number;
	executionTime?: number;
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: Record<string, Array<Array<{ json: Record<string, unknown> }> | null>>;
}

export interface Execution extends ExecutionSummary {
	workflowData: { nodes: Array<{ name: string; type: string }> };
	resultData: {
		runData: Record<string, NodeRun[]>;
		error?: { message?: string; description?: string };
		lastNodeExecuted?: string;
	};
}

/** Every output item of a node across its runs, whatever connection type it outputs on. */
export function outputJson(runs: NodeRun[] | undefined): Array<Record<string, unknown>> {
	return (runs ?? []).flatMap((run) =>
		Object.values(run.data ?? {}).flatMap((branches) =>
			branches.flatMap((branch) => (branch ?? []).map((item) => item.json)),
		),
	);
}
