/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only test: reads the examples folder and the environment for its skip settings */
// The leg "single": the packed package in one n8n process of the latest 2.x (SQLite), against the
// sandbox. `n8n execute` runs the smoke fixture, its wrong-key copy (which must fail, saying why)
// and every example (the AI-agent example against a scripted OpenAI-compatible model); then in
// `n8n start`: the types n8n serves, the credential test (also refusing plain http to a remote
// host), the example triggers activated, and the article trigger emitting a completion exactly
// once, also across a restart.
//   CONTENTGEN_N8N_SKIP_TRIGGER=1  leaves out the article trigger (about a minute)
//   CONTENTGEN_N8N_SKIP_RESTART=1  leaves out its restart (about 30 s)
import { readdirSync } from 'fs';
import { join } from 'path';

import { judgeAgent } from './harness/agent';
import { execute, importCredentials, importWorkflows } from './harness/cli';
import { Deployment } from './harness/deployment';
import { judgeRun } from './harness/judge';
import { REPO } from './harness/n8n';
import { openAiDouble } from './harness/openai';
import { prepareWorkflows } from './harness/prepare';
import { pause, waitFor } from './harness/processes';
import { report } from './harness/report';
import {
	ACCOUNT,
	accountCredentials,
	contentGenCredential,
	fixture,
	editorTests,
	importAndWrongKeyTests,
	OPENAI,
	PLAIN_HTTP,
	PLAIN_HTTP_URL,
	TRIGGER_ACCOUNT,
	WRONG,
} from './harness/single';
import { emissions } from './harness/trigger';
import { pin } from './harness/versions';

const deployment = new Deployment({
	pin: pin('latest2'),
	mode: 'single',
	workers: 0,
	settings: () => ({}),
});
const examples = readdirSync(join(REPO, 'examples'))
	.filter((f) => f.endsWith('.json'))
	.map((f) => join(REPO, 'examples', f));
const prepared = prepareWorkflows(
	[fixture('smoke-credits.json'), fixture('trigger-article-completed.json'), ...examples],
	{ account: ACCOUNT, wrongKey: WRONG, openAi: OPENAI },
);
const ofKind = (...kinds: string[]) => prepared.filter((p) => kinds.includes(p.kind));
const TRIGGER_WF = 'cgTriggerArticle01';
const TRIGGER_NODE = 'On article completed';
const exampleTriggers = ofKind('trigger').filter((p) => p.id !== TRIGGER_WF);
const triggerNodeOf = (id: string) =>
	prepared
		.find((p) => p.id === id)!
		.workflow.nodes.find((n) => n.type === 'n8n-nodes-contentgen.contentGenTrigger')!.name;

let recordUrl = '';
let triggerKey = '';
let listing: string[] = [];
const outputs: string[] = [];

beforeAll(async () => {
	await deployment.prepare();
	const { sandbox, processes, work } = deployment;
	const double = await openAiDouble(processes, work);
	recordUrl = double.recordUrl;
	report(`OpenAI-compatible double at ${double.url}`);
	// the trigger runs as the sandbox's second user: its requests and records are its own
	triggerKey = sandbox.control.createKey({
		userId: sandbox.control.otherUserId,
		name: 'n8n trigger test',
	});
	await importCredentials(deployment, [
		...accountCredentials(sandbox),
		contentGenCredential(TRIGGER_ACCOUNT, triggerKey, sandbox.url),
		{ ...OPENAI, type: 'openAiApi', data: { apiKey: 'sk-local-double', url: double.url } },
	]);
	listing = await importWorkflows(
		deployment,
		prepared.map((p) => ({ ...p.workflow, id: p.id })),
	);
});

afterAll(async () => {
	await deployment.stop();
});

importAndWrongKeyTests(deployment, prepared, () => listing, outputs);

test.each(ofKind('manual', 'agent').map((p) => [p.name, p] as const))(
	'n8n execute runs "%s" and its output meets the checks',
	async (_name, p) => {
		const since = Date.now();
		const result = await execute(deployment, p.id);
		outputs.push(result.stdout, result.stderr);
		const verdict = judgeRun(result, p.expect, deployment.sandbox.apiKey);
		verdict.notes.forEach((n) => report(`${p.name}: ${n}`));
		expect(verdict.failures).toEqual([]);
		if (p.kind !== 'agent') return;
		// An agent's run is judged by the model double and the sandbox too: the tools ran with the
		// model's arguments, the article was charged once, the final message came back.
		const agent = await judgeAgent({
			stdout: result.stdout,
			recordUrl,
			sandbox: deployment.sandbox,
			userId: deployment.sandbox.control.defaultUserId,
			since,
		});
		agent.notes.forEach((n) => report(`${p.name}: ${n}`));
		expect(agent.failures).toEqual([]);
	},
);

// An example whose model node the test cannot stand in for is imported (checked above), not run.
for (const p of ofKind('external'))
	test.skip(`"${p.name}" is not executed: it ${p.note}`, () => {});

describe('n8n start', () => {
	const control = () => deployment.sandbox.control;
	const examplePolls: Record<string, boolean> = {};
	let exampleRecords: string[] = [];
	let articleId = '';

	beforeAll(async () => {
		const t0 = Date.now();
		await deployment.launchAndSignIn();
		report(
			`n8n start ready at ${deployment.instance.url} (${Math.round((Date.now() - t0) / 1000)} s)`,
		);
	});

	editorTests(deployment, 'n8n', 'public');

	test('the credential test refuses plain http to a remote host before sending the key', async () => {
		const verdict = await deployment.api.testCredential(PLAIN_HTTP.id);
		report(`credential test of ${PLAIN_HTTP_URL}: ${JSON.stringify(verdict)}`);
		expect(verdict.status).toBe('Error');
		expect(verdict.message).toMatch(/plain http/);
		expect(JSON.stringify(verdict)).not.toContain(deployment.sandbox.apiKey);
	});

	const activated = async (id: string) => {
		const data = await deployment.api.staticData(id);
		return data !== null && Object.keys(data).length > 0;
	};

	if (exampleTriggers.length > 0) {
		test.each(exampleTriggers.map((p) => [p.name, p] as const))(
			'example "%s" is activated and polls for the first time',
			async (_name, p) => {
				await deployment.api.setActive(p.id, true);
				await waitFor(`the first poll of "${p.name}"`, 60, () => activated(p.id));
				examplePolls[p.id] = true;
			},
		);
		test('records for the example triggers are generated', async () => {
			const { sandbox } = deployment;
			const post = async (path: string, body: unknown) => {
				const response = await fetch(`${sandbox.url}/api/v1${path}`, {
					method: 'POST',
					headers: {
						Authorization: `Bearer ${sandbox.apiKey}`,
						'Content-Type': 'application/json',
					},
					body: JSON.stringify(body),
				});
				expect(response.status).toBe(202);
				return ((await response.json()) as { data: Record<string, string> }).data;
			};
			const social = await post('/social/generate', {
				source_url: 'https://blog.example.com/exactly-once',
				platforms: ['linkedin', 'twitter'],
			});
			const article = await post('/articles/generate', {
				topic: 'Polling triggers that never repeat themselves',
				project_id: control().projects()[0].id,
			});
			exampleRecords = [social.content_id, article.article_id];
			report(`generated social content ${social.content_id} and article ${article.article_id}`);
		});
	}

	/** Polls of the trigger user seen by the sandbox: bursts of its article-list reads 5 s apart. */
	const polls = () => {
		const times = control()
			.requests()
			.filter(
				(r) =>
					r.method === 'GET' && r.path === '/api/v1/articles' && r.userId === control().otherUserId,
			)
			.map((r) => Date.parse(r.at))
			.sort((a, b) => a - b);
		return times.filter((t, i) => i === 0 || t - times[i - 1] > 5000).length;
	};
	const fetchedArticle = () =>
		control()
			.requests()
			.filter((r) => r.method === 'GET' && r.path === `/api/v1/articles/${articleId}`).length;
	const skipTrigger = process.env.CONTENTGEN_N8N_SKIP_TRIGGER ? test.skip : test;
	const skipRestart =
		process.env.CONTENTGEN_N8N_SKIP_TRIGGER || process.env.CONTENTGEN_N8N_SKIP_RESTART
			? test.skip
			: test;

	skipTrigger('the article trigger, activated, polls once and emits no backlog', async () => {
		const before = polls();
		await deployment.api.setActive(TRIGGER_WF, true);
		await waitFor('the trigger stores its starting point', 60, () => activated(TRIGGER_WF));
		await waitFor('the activation poll reaches the sandbox', 30, () => polls() >= before + 1);
		await pause(2000); // an execution started by the activation poll would be saved by now
		const result = await emissions(deployment.api, TRIGGER_WF, TRIGGER_NODE, []);
		report(`activation: ${polls() - before} poll(s), ${result.executions} executions`);
		expect(result.executions).toBe(0);
	});

	skipTrigger(
		'a completion is emitted exactly once, and the workflow fetches the article once',
		async () => {
			const { sandbox } = deployment;
			const response = await fetch(`${sandbox.url}/api/v1/articles/generate`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${triggerKey}`, 'Content-Type': 'application/json' },
				body: JSON.stringify({
					topic: 'Exactly-once polling in n8n',
					project_id: control().projects(control().otherUserId)[0].id,
					word_count: 300,
				}),
			});
			articleId = ((await response.json()) as { data: { article_id: string } }).data.article_id;
			await waitFor(`article ${articleId} completes`, 30, async () => {
				const status = await fetch(`${sandbox.url}/api/v1/articles/${articleId}/status`, {
					headers: { Authorization: `Bearer ${triggerKey}` },
				});
				return ((await status.json()) as { data: { is_complete: boolean } }).data.is_complete;
			});
			// two polls after the completion: the first must emit it, the second must not again
			const baseline = polls();
			const t0 = Date.now();
			await waitFor('two polls after the completion', 100, () => polls() >= baseline + 2);
			await pause(2000); // let the execution of the emitting poll be saved
			const result = await emissions(deployment.api, TRIGGER_WF, TRIGGER_NODE, [articleId]);
			report(
				`article ${articleId}: ${polls() - baseline} polls in ${Math.round((Date.now() - t0) / 1000)} s after the completion; ${JSON.stringify(result)}; fetched ${fetchedArticle()} time(s)`,
			);
			expect(result.hits).toBe(1);
			expect(result.failed).toBe(0);
			expect(fetchedArticle()).toBe(1);
		},
	);

	skipRestart('after a restart of n8n and two more polls, still exactly once', async () => {
		await deployment.instance.stop(deployment.main);
		const before = polls();
		await deployment.restartMain();
		await waitFor('two polls after the restart', 100, () => polls() >= before + 2);
		await pause(2000);
		const result = await emissions(deployment.api, TRIGGER_WF, TRIGGER_NODE, [articleId]);
		report(`after the restart, ${polls() - before} polls: ${JSON.stringify(result)}`);
		expect(result.hits).toBe(1);
		expect(fetchedArticle()).toBe(1);
	});

	if (exampleTriggers.length > 0) {
		test.each(exampleTriggers.map((p) => [p.name, p] as const))(
			'example "%s" ran on its trigger, each transition once, no failed execution',
			async (_name, p) => {
				expect(examplePolls[p.id]).toBe(true);
				const node = triggerNodeOf(p.id);
				// the example triggers poll on their own schedule, at most a minute apart
				await waitFor(`"${p.name}" reacts`, 90, async () => {
					const result = await emissions(deployment.api, p.id, node, exampleRecords);
					return result.hits > 0;
				});
				await pause(2000);
				const result = await emissions(deployment.api, p.id, node, exampleRecords);
				report(`${p.name}: ${JSON.stringify(result)}`);
				expect(result.failed).toBe(0);
				expect(result.duplicates).toBe(0);
			},
		);
	}

	test("the API key never appears in n8n's log or in what n8n execute printed", () => {
		for (const key of [deployment.sandbox.apiKey, triggerKey]) {
			expect(deployment.logs().includes(key)).toBe(false);
			expect(outputs.some((o) => o.includes(key))).toBe(false);
		}
	});
});
