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
//   tsx scripts/n8n/n8n-rest.ts deactivate       --url U --jar F --id <workflowId>
//   tsx scripts/n8n/n8n-rest.ts static-data      --url U --jar F --id <workflowId>
//       prints the workflow's static data; exit 0 only when some node has stored some (n8n 2.41
//       activates asynchronously: a trigger's first poll lands shortly after `activate` returns)
//   tsx scripts/n8n/n8n-rest.ts executions       --url U --jar F --id <workflowId> --n8n-dir <cache>
//       prints [{id, status, mode, items: [json of the trigger node's output items]}]
//   tsx scripts/n8n/n8n-rest.ts execution        --url U --jar F --id <executionId> --n8n-dir <cache>
//       prints {id, status, mode, startedAt, stoppedAt, error, nodes: {name: items}}
//   tsx scripts/n8n/n8n-rest.ts update-credential --url U --jar F --id <credentialId>
//       merges the JSON object in CONTENTGEN_N8N_CREDENTIAL_DATA into the credential's data
import { readFileSync, writeFileSync } from 'fs';

import { BROWSER_ID, N8nRest, outputJson } from './rest-client';

function flag(name: string): string {
	const index = process.argv.indexOf(`--${name}`);
	const value = index >= 0 ? process.argv[index + 1] : undefined;
	if (value === undefined) throw new Error(`missing --${name}`);
	return value;
}

function client(): N8nRest {
	let cookie = '';
	try {
		cookie = readFileSync(flag('jar'), 'utf8').trim();
	} catch {
		// no session yet: `setup` makes one
	}
	return new N8nRest(flag('url'), cookie);
}

async function setup(): Promise<void> {
	const rest = client();
	const owner = await rest.setup();
	writeFileSync(flag('jar'), rest.cookie);
	console.log(JSON.stringify({ owner }));
}

async function testCredential(): Promise<number> {
	const id = flag('id');
	const rest = client();
	// The editor loads the credential with its secrets redacted and sends that back to be tested;
	// n8n fills the redacted fields from the stored, encrypted copy.
	const credential = await rest.ok<{
		id: string;
		name: string;
		type: string;
		data: Record<string, unknown>;
	}>('GET', `/credentials/${id}?includeData=true`);
	const verdict = await rest.ok<{ status: string; message: string }>('POST', '/credentials/test', {
		credentials: {
			id: credential.id,
			name: credential.name,
			type: credential.type,
			data: credential.data,
		},
	});
	console.log(JSON.stringify(verdict));
	return verdict.status === 'OK' ? 0 : 1;
}

async function nodeTypes(): Promise<void> {
	const names = async (path: string) => {
		const response = await fetch(`${flag('url')}${path}`, {
			headers: { 'browser-id': BROWSER_ID, Cookie: client().cookie },
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

async function staticData(): Promise<number> {
	const workflow = await client().ok<{ staticData?: Record<string, unknown> | null }>(
		'GET',
		`/workflows/${flag('id')}`,
	);
	const value = workflow.staticData ?? null;
	console.log(JSON.stringify(value));
	return value && Object.keys(value).length > 0 ? 0 : 1;
}

async function executions(): Promise<void> {
	const rest = client();
	const out = [];
	for (const summary of await rest.executions(flag('id'))) {
		const execution = await rest.execution(summary.id, flag('n8n-dir'));
		const trigger = execution.workflowData.nodes.find((n) => /trigger/i.test(n.type));
		const items = trigger ? outputJson(execution.resultData.runData[trigger.name]) : [];
		out.push({ id: summary.id, status: summary.status, mode: summary.mode, items });
	}
	console.log(JSON.stringify(out));
}

async function execution(): Promise<void> {
	const run = await client().execution(flag('id'), flag('n8n-dir'));
	const error = run.resultData.error;
	console.log(
		JSON.stringify({
			id: run.id,
			status: run.status,
			mode: run.mode,
			startedAt: run.startedAt,
			stoppedAt: run.stoppedAt,
			error: error ? [error.message, error.description].filter(Boolean).join(' ') : null,
			nodes: Object.fromEntries(
				Object.entries(run.resultData.runData).map(([name, runs]) => [name, outputJson(runs)]),
			),
		}),
	);
}

async function updateCredential(): Promise<void> {
	const values = JSON.parse(process.env.CONTENTGEN_N8N_CREDENTIAL_DATA ?? '') as Record<
		string,
		unknown
	>;
	await client().updateCredential(flag('id'), values);
	console.log(JSON.stringify({ id: flag('id'), updated: Object.keys(values) }));
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
		case 'deactivate':
			console.log(
				JSON.stringify(await client().setActive(flag('id'), process.argv[2] === 'activate')),
			);
			return 0;
		case 'static-data':
			return await staticData();
		case 'executions':
			await executions();
			return 0;
		case 'execution':
			await execution();
			return 0;
		case 'update-credential':
			await updateCredential();
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
