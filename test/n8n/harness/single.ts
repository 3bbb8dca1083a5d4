/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only: paths of test files */
// What the one-process legs (latest 2.x and the 1.x line) share: the credentials they import, the
// workflows `n8n execute` runs and the checks of a run.
import { join } from 'path';

import type { Sandbox } from '../../../sandbox';
import { execute, type CredentialFile } from './cli';
import type { Deployment } from './deployment';
import { judgeFailure, judgeRun } from './judge';
import { REPO } from './n8n';
import type { Prepared } from './prepare';
import { report } from './report';
import type { Credential } from './workflows';

export const WRONG_KEY = `svc_${'0'.repeat(64)}`;
export const ACCOUNT: Credential = { id: 'contentgen-sandbox', name: 'ContentGen account' };
export const WRONG: Credential = { id: 'contentgen-wrong-key', name: 'ContentGen wrong key' };
export const TRIGGER_ACCOUNT: Credential = {
	id: 'contentgen-trigger',
	name: 'ContentGen trigger account',
};
export const OPENAI: Credential = { id: 'openai-double', name: 'OpenAI (local double)' };
export const PLAIN_HTTP: Credential = {
	id: 'contentgen-plain-http',
	name: 'ContentGen over plain http',
};
/** a remote host over plain http: the credential test must refuse to send the key there */
export const PLAIN_HTTP_URL = 'http://api.contentgen.invalid';
/** a wrong key must fail with a message that says so */
export const AUTH_FAILURE = /api key|401|unauthori[sz]ed|not accepted/i;

export const fixture = (name: string) => join(REPO, 'test', 'n8n', 'fixtures', name);
export const exampleFile = (name: string) => join(REPO, 'examples', name);

/** A ContentGen credential for import:credentials. */
export function contentGenCredential(
	credential: Credential,
	apiKey: string,
	baseUrl: string,
): CredentialFile {
	return { ...credential, type: 'contentGenApi', data: { apiKey, baseUrl } };
}

/** The account, the wrong key and the plain-http copy of the account, against the sandbox. */
export function accountCredentials(sandbox: Sandbox): CredentialFile[] {
	return [
		contentGenCredential(ACCOUNT, sandbox.apiKey, sandbox.url),
		contentGenCredential(WRONG, WRONG_KEY, sandbox.url),
		contentGenCredential(PLAIN_HTTP, sandbox.apiKey, PLAIN_HTTP_URL),
	];
}

/** Node types n8n must serve its editor once the package loads. */
export const SERVED_TYPES = [
	'n8n-nodes-contentgen.contentGen',
	'n8n-nodes-contentgen.contentGenTool',
	'n8n-nodes-contentgen.contentGenTrigger',
	'contentGenApi',
];

/**
 * The tests both one-process legs open with: every workflow is in n8n after the import, and each
 * wrong-key copy fails under `n8n execute`, judged failed by the checks of its good twin, with a
 * message that says why and never the key. Their output goes into `outputs`.
 */
export function importAndWrongKeyTests(
	deployment: Deployment,
	prepared: Prepared[],
	listing: () => string[],
	outputs: string[],
): void {
	test('import:credentials and import:workflow put every workflow into n8n', () => {
		for (const p of prepared) {
			report(`imported ${p.kind} workflow "${p.name}" (${p.id})${p.note ? `: ${p.note}` : ''}`);
			expect(listing()).toContain(`${p.id}|${p.name}`);
		}
	});

	test.each(prepared.filter((p) => p.kind === 'broken').map((p) => [p.name, p] as const))(
		'"%s" is judged failed by the same checks, and fails with an actionable auth message without the key',
		async (_name, p) => {
			const result = await execute(deployment, p.id);
			outputs.push(result.stdout, result.stderr);
			const asGood = judgeRun(result, p.expect, WRONG_KEY);
			report(`${p.name}: judged failed: ${asGood.failures[0]}`);
			expect(asGood.failures).not.toEqual([]);
			const failure = judgeFailure(result, AUTH_FAILURE, WRONG_KEY);
			failure.notes.forEach((n) => report(`${p.name}: ${n}`));
			expect(failure.failures).toEqual([]);
		},
	);
}

/**
 * The tests of a started n8n both one-process legs make: it serves the package's types to its
 * editor, and the credential test passes the account and rejects a wrong key without showing it.
 * `how` runs the credential test (n8n 1.x has no public route for it).
 */
export function editorTests(deployment: Deployment, n8n: string, how: 'public' | 'editor'): void {
	test(`${n8n} serves our node and credential types to its editor`, async () => {
		const types = await deployment.api.servedTypes();
		report(`served: ${types.filter((t) => /contentGen/i.test(t)).join(', ')}`);
		expect(types).toEqual(expect.arrayContaining(SERVED_TYPES));
	});

	test(`the credential test${how === 'editor' ? ', as the editor runs it,' : ''} passes the account and rejects a wrong key without showing it`, async () => {
		const run = async (id: string) =>
			how === 'editor'
				? await deployment.api.testCredentialAsEditor(id)
				: await deployment.api.testCredential(id);
		const good = await run(ACCOUNT.id);
		const bad = await run(WRONG.id);
		report(`credential test: ${JSON.stringify(good)}; wrong key: ${JSON.stringify(bad)}`);
		expect(good.status).toBe('OK');
		expect(bad.status).toBe('Error');
		expect(JSON.stringify(bad)).not.toContain(WRONG_KEY);
	});
}
