/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only CLI against a local n8n: reads argv and files, prints JSON, sets the exit code */
// Talks to a running `n8n start` on loopback through the same REST routes its editor uses.
//
//   tsx scripts/n8n/n8n-rest.ts setup            --url U --jar F
//       creates the instance owner (password from CONTENTGEN_N8N_OWNER_PASSWORD), or signs in
//       when it exists, and stores the session cookie in F
//   tsx scripts/n8n/n8n-rest.ts node-types       --url U --jar F
//       prints the node and credential type names n8n serves to its editor
//   tsx scripts/n8n/n8n-rest.ts test-credential  --url U --jar F --id <credentialId>
//       tests a saved credential like the editor's "Retry"/"Save" does; prints {status, message};
//       exit 0 when n8n reports OK
//   tsx scripts/n8n/n8n-rest.ts activate         --url U --jar F --id <workflowId>
//   tsx scripts/n8n/n8n-rest.ts static-data      --url U --jar F --id <workflowId>
//       prints the workflow's static data; exit 0 only when some node has stored some (n8n 2.41
//       activates asynchronously: a trigger's first poll lands shortly after `activate` returns)
//   tsx scripts/n8n/n8n-rest.ts executions       --url U --jar F --id <workflowId> --n8n-dir <cache>
//       prints [{id, status, mode, items: [json of the trigger node's output items]}]
import { readFileSync, writeFileSync } from 'fs';
import { createRequire } from 'module';
import { join } from 'path';

// The JWT in n8n's auth cookie is bound to this header's value.
const BROWSER_ID = 'contentgen-n8n-test';
// A throwaway owner of a throwaway instance; the calling script picks the password per run.
const OWNER_EMAIL = 'owner@contentgen.test';

function flag(name: string): string {
	const index = process.argv.indexOf(`--${name}`);
	const value = index >= 0 ? process.argv[index + 1] : undefined;
	if (value === undefined) throw new Error(`missing --${name}`);
	return value;
}

async function call(
	method: string,
	path: string,
	body?: unknown,
	cookie?: string,
): Promise<{ status: number; json: unknown; setCookie: string[] }> {
	const response = await fetch(`${flag('url')}/rest${path}`, {
		method,
		headers: {
			'Content-Type': 'application/json',
			'browser-id': BROWSER_ID,
			...(cookie ? { Cookie: cookie } : {}),
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

function data<T>(json: unknown): T {
	return (json as { data: T }).data;
}

async function setup(): Promise<void> {
	const password = process.env.CONTENTGEN_N8N_OWNER_PASSWORD;
	if (!password) throw new Error('CONTENTGEN_N8N_OWNER_PASSWORD is not set');
	const owner = { email: OWNER_EMAIL, firstName: 'Content', lastName: 'Gen', password };
	let result = await call('POST', '/owner/setup', owner);
	if (result.status >= 400) {
		// Owner exists already (n8n restarted on the same user folder): sign in instead.
		result = await call('POST', '/login', { emailOrLdapLoginId: owner.email, password });
	}
	const cookie = result.setCookie
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	if (result.status >= 400 || !cookie) {
		throw new Error(
			`owner setup/login failed: HTTP ${result.status} ${JSON.stringify(result.json)}`,
		);
	}
	writeFileSync(flag('jar'), cookie);
	console.log(JSON.stringify({ owner: OWNER_EMAIL }));
}

function jar(): string {
	return readFileSync(flag('jar'), 'utf8').trim();
}

async function testCredential(): Promise<number> {
	const id = flag('id');
	// The editor loads the credential with its secrets redacted and sends that back to be tested;
	// n8n fills the redacted fields from the stored, encrypted copy.
	const stored = await call('GET', `/credentials/${id}?includeData=true`, undefined, jar());
	if (stored.status !== 200)
		throw new Error(`GET credential ${id}: HTTP ${stored.status} ${JSON.stringify(stored.json)}`);
	const credential = data<{
		id: string;
		name: string;
		type: string;
		data: Record<string, unknown>;
	}>(stored.json);
	const tested = await call(
		'POST',
		'/credentials/test',
		{
			credentials: {
				id: credential.id,
				name: credential.name,
				type: credential.type,
				data: credential.data,
			},
		},
		jar(),
	);
	if (tested.status !== 200)
		throw new Error(`credential test: HTTP ${tested.status} ${JSON.stringify(tested.json)}`);
	const verdict = data<{ status: string; message: string }>(tested.json);
	console.log(JSON.stringify(verdict));
	return verdict.status === 'OK' ? 0 : 1;
}

async function nodeTypes(): Promise<void> {
	const names = async (path: string) => {
		const response = await fetch(`${flag('url')}${path}`, {
			headers: { 'browser-id': BROWSER_ID, Cookie: jar() },
		});
		if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
		return ((await response.json()) as Array<{ name: string }>).map((t) => t.name);
	};
	console.log(
		JSON.stringify({
			nodes: (await names('/types/nodes.json')).filter((n) =>
				n.startsWith('n8n-nodes-contentgen.'),
			),
			credentials: (await names('/types/credentials.json')).filter((n) =>
				n.startsWith('contentGen'),
			),
		}),
	);
}

async function activate(): Promise<void> {
	const id = flag('id');
	const workflow = await call('GET', `/workflows/${id}`, undefined, jar());
	if (workflow.status !== 200) throw new Error(`GET workflow ${id}: HTTP ${workflow.status}`);
	const { versionId } = data<{ versionId: string }>(workflow.json);
	const result = await call('POST', `/workflows/${id}/activate`, { versionId }, jar());
	if (result.status !== 200) {
		throw new Error(`activate ${id}: HTTP ${result.status} ${JSON.stringify(result.json)}`);
	}
	const active = data<{ active: boolean; activeVersionId?: string | null }>(result.json);
	console.log(
		JSON.stringify({ id, active: active.active, activeVersionId: active.activeVersionId ?? null }),
	);
}

async function staticData(): Promise<number> {
	const id = flag('id');
	const workflow = await call('GET', `/workflows/${id}`, undefined, jar());
	if (workflow.status !== 200) throw new Error(`GET workflow ${id}: HTTP ${workflow.status}`);
	const value =
		data<{ staticData?: Record<string, unknown> | null }>(workflow.json).staticData ?? null;
	console.log(JSON.stringify(value));
	return value && Object.keys(value).length > 0 ? 0 : 1;
}

interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
}

async function executions(): Promise<void> {
	const id = flag('id');
	// Execution data comes back serialised with `flatted`; use n8n's own copy to read it.
	const requireFromN8n = createRequire(
		join(flag('n8n-dir'), 'node_modules', 'n8n', 'package.json'),
	);
	const flatted = requireFromN8n('flatted') as { parse: (text: string) => unknown };

	const filter = encodeURIComponent(JSON.stringify({ workflowId: id }));
	const list = await call('GET', `/executions?filter=${filter}&limit=100`, undefined, jar());
	if (list.status !== 200)
		throw new Error(`GET executions: HTTP ${list.status} ${JSON.stringify(list.json)}`);
	const results = data<{ results: ExecutionSummary[] }>(list.json).results;

	const out = [];
	for (const execution of results) {
		const full = await call('GET', `/executions/${execution.id}`, undefined, jar());
		const record = data<{
			data: string;
			workflowData: { nodes: Array<{ name: string; type: string }> };
		}>(full.json);
		const run = flatted.parse(record.data) as {
			resultData: {
				runData: Record<
					string,
					Array<{ data?: { main?: Array<Array<{ json: unknown }> | null> } }>
				>;
			};
		};
		const trigger = record.workflowData.nodes.find((n) => /trigger/i.test(n.type));
		const items = (trigger ? (run.resultData.runData[trigger.name] ?? []) : []).flatMap((task) =>
			(task.data?.main ?? []).flatMap((branch) => (branch ?? []).map((item) => item.json)),
		);
		out.push({ id: execution.id, status: execution.status, mode: execution.mode, items });
	}
	console.log(JSON.stringify(out));
}

async function main(): Promise<number> {
	switch (process.argv[2]) {
		case 'setup':
			await setup();
			return 0;
		case 'node-types':
			await nodeTypes();
			return 0;
		case 'test-credential':
			return await testCredential();
		case 'activate':
			await activate();
			return 0;
		case 'static-data':
			return await staticData();
		case 'executions':
			await executions();
			return 0;
		default:
			throw new Error(`unknown command ${process.argv[2]}`);
	}
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		console.error((error as Error).message);
		process.exit(2);
	},
);
