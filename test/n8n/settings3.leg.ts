/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev-only test: a loopback server, file paths, the environment for an optional part */
// The leg "n8n 3.0 settings": the packed package in n8n's latest 2.x with the settings n8n 3.0
// makes the default or the only behaviour, in the deployment self-hosters run: queue mode with
// Redis and Postgres 17, main + two workers, manual executions offloaded to the workers, binary
// data in the database (then once on a shared filesystem folder), the durable scheduler running
// poll triggers, and the SSRF guard on with the service's address allowed. The trigger is proved
// there in two scenarios (harness/durable.ts) with durable cursors off and the default Delivery,
// then again after a restart with N8N_POLLER_DURABLE_CURSORS_ENABLED=true, Delivery "at least once"
// and the Remove Duplicates recipe (docs/deployment.md gives the table).
// Then the same guard without an allow setting, as a user who missed it would meet it.
import { readdirSync } from 'fs';
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import { join } from 'path';

import { Deployment } from './harness/deployment';
import { REPO } from './harness/n8n';
import { report } from './harness/report';
import { pin } from './harness/versions';
import {
	chain,
	contentGen,
	contentGenTrigger,
	example,
	httpWithOurCredential,
	lastStep,
	manualTrigger,
	type Credential,
} from './harness/workflows';
import { durableScenarios } from './harness/durable';
import { polls } from './harness/trigger';
import { waitFor } from './harness/processes';
import { startOpenAiDouble } from './harness/openai';

const SSRF_ALLOWED = {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
};
const SETTINGS_3 = {
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
	OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	N8N_DEFAULT_BINARY_DATA_MODE: 'database',
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'false',
	...SSRF_ALLOWED,
};
const EXAMPLES = readdirSync(join(REPO, 'examples')).filter((f) => f.endsWith('.json'));

// The social list in a fixed order unrelated to dates, as a table read without ORDER BY gives it
// (one reshuffled on every request is covered by test/trigger/social-scale.test.ts).
const deployment = new Deployment({
	pin: pin('latest2'),
	workers: 2,
	settings: () => SETTINGS_3,
	socialListOrder: 'id',
});
let account: Credential;
let triggerAccount: Credential;
let wrongKey: Credential;

beforeAll(async () => {
	await deployment.start();
	const { sandbox, api } = deployment;
	const credential = async (name: string, apiKey: string) => ({
		name,
		id: await api.createCredential(name, 'contentGenApi', { apiKey, baseUrl: sandbox.url }),
	});
	account = await credential('ContentGen account', sandbox.apiKey);
	triggerAccount = await credential(
		'ContentGen trigger account',
		sandbox.control.createKey({ userId: sandbox.control.otherUserId, name: 'n8n trigger' }),
	);
	wrongKey = await credential('ContentGen wrong key', `svc_${'0'.repeat(64)}`);
});

afterAll(async () => {
	await deployment.stop();
});

/** Runs a saved workflow as "Execute workflow" does and returns the finished execution and its worker. */
async function runOnWorker(workflowId: string, trigger: string, triggerOnly = false) {
	const id = await deployment.api.runManually(workflowId, trigger, triggerOnly);
	const execution = await deployment.api.finished(id, 180);
	return { execution, workers: deployment.ranOn(id) };
}

test('the package loads on main; the credential test passes and rejects a wrong key without showing it', async () => {
	const types = await deployment.api.servedTypes();
	expect(types).toEqual(
		expect.arrayContaining([
			'n8n-nodes-contentgen.contentGen',
			'n8n-nodes-contentgen.contentGenTrigger',
			'contentGenApi',
		]),
	);
	const good = await deployment.api.testCredential(account.id);
	expect(good).toMatchObject({ status: 'OK' });
	const bad = await deployment.api.testCredential(wrongKey.id);
	expect(bad.status).toBe('Error');
	expect(bad.message).not.toContain('0'.repeat(64));
	report(`credential test: ${JSON.stringify(good)}; wrong key: ${bad.message}`);
});

test.each(EXAMPLES)('example %s runs as a manual execution on a worker', async (file) => {
	const openAi = file === 'ai-agent-tool.json' ? await openAiCredential() : undefined;
	const workflow = example(join(REPO, 'examples', file), account, openAi);
	// a record for the trigger's test event, which "Publish now" then publishes
	if (file === 'publish-finished-social.json')
		deployment.sandbox.control.seedSocial(1, { status: 'completed', platforms: ['linkedin'] });
	const id = await deployment.api.createWorkflow(workflow);
	const before = deployment.sandbox.control.requests().length;
	const { execution, workers } = await runOnWorker(id, workflow.nodes[0].name);
	const requests = deployment.sandbox.control.requests().length - before;
	report(
		`${file}: execution ${execution.id} ${execution.status} on ${workers.join('+') || 'no worker'}, ${requests} requests`,
	);
	expect(execution.error).toBeNull();
	expect(execution.status).toBe('success');
	expect(workers).toHaveLength(1);
	const last = file === 'ai-agent-tool.json' ? 'AI Agent' : lastStep(workflow);
	expect(execution.nodes[last]?.length ?? 0).toBeGreaterThan(0);
});

let openAi: Credential | undefined;
async function openAiCredential(): Promise<Credential> {
	if (openAi) return openAi;
	const url = await startOpenAiDouble(deployment.processes, deployment.work);
	const name = 'OpenAI (local double)';
	openAi = {
		name,
		id: await deployment.api.createCredential(name, 'openAiApi', {
			apiKey: 'sk-local-double',
			url,
		}),
	};
	return openAi;
}

/** Download Images on a worker; main serves each stored image back byte for byte. */
async function downloadImagesReadBackOnMain(mode: string): Promise<void> {
	const { sandbox, api } = deployment;
	const [contentId] = sandbox.control.seedSocial(1, {
		status: 'completed',
		platforms: ['instagram', 'linkedin'],
	});
	const record = (await (
		await fetch(`${sandbox.url}/api/v1/social/content/${contentId}`, {
			headers: { Authorization: `Bearer ${sandbox.apiKey}` },
		})
	).json()) as { data: { image_urls: Record<string, string> } };
	const images = Object.entries(record.data.image_urls);
	expect(images.length).toBeGreaterThan(0);
	const id = await api.createWorkflow(
		chain(`Download Images (${mode})`, [
			manualTrigger(),
			contentGen('Get with images', account, {
				resource: 'socialContent',
				operation: 'get',
				contentId: { __rl: true, mode: 'id', value: contentId },
				options: { downloadImages: true },
			}),
		]),
	);
	const { execution, workers } = await runOnWorker(id, 'Start');
	expect(execution.error).toBeNull();
	expect(workers).toHaveLength(1);
	const stored = execution.binaries['Get with images'];
	expect(stored).toHaveLength(images.length);
	for (const [platform, url] of images) {
		const original = Buffer.from(await (await fetch(url)).arrayBuffer());
		const ref = stored.find((b) => b.fileName?.startsWith(platform));
		expect(ref?.id).toMatch(new RegExp(`^${mode}`));
		const served = await api.binary(ref!.id!);
		expect(served.equals(original)).toBe(true);
		report(
			`Download Images (${mode}): ${platform} ${original.length} bytes stored by ${workers[0]} as ${ref!.id!.split(':')[0]}, served by main byte-identical`,
		);
	}
}

test('Download Images: binary stored in the database on a worker, read back on main', async () => {
	await downloadImagesReadBackOnMain('database');
});

// Needs the credential change that signs the HTTP Request node's legacy `uri` option (branch leaks).
test("n8n's HTTP Request node with ContentGen API as its predefined credential: the service answers, another origin gets nothing", async () => {
	const { sandbox, api } = deployment;
	let strayRequests = 0;
	const stray = createServer((_req, res) => {
		strayRequests += 1;
		res.end('{}');
	});
	await new Promise<void>((resolve) => stray.listen(0, '127.0.0.1', resolve));
	const strayUrl = `http://127.0.0.1:${(stray.address() as AddressInfo).port}/collect`;
	try {
		const run = async (url: string) =>
			await runOnWorker(
				await api.createWorkflow(
					chain(`HTTP Request to ${url}`, [
						manualTrigger(),
						httpWithOurCredential('HTTP Request', account, url),
					]),
				),
				'Start',
			);
		const own = await run(`${sandbox.url}/api/v1/user/credits`);
		expect(own.execution.error).toBeNull();
		expect(own.execution.nodes['HTTP Request'][0]).toHaveProperty('data.available_credits');
		const other = await run(strayUrl);
		report(
			`HTTP Request node: ${sandbox.url}/api/v1/user/credits ${own.execution.status}; ${strayUrl} ${other.execution.status} (${other.execution.error}), ${strayRequests} requests reached it`,
		);
		expect(other.execution.status).toBe('error');
		expect(strayRequests).toBe(0);
	} finally {
		stray.close();
	}
});

const TRIGGER = 'On article completed';
let triggerWorkflow = '';

test('"Fetch Test Event" runs on a worker, shows a record and moves nothing', async () => {
	const { sandbox, api } = deployment;
	sandbox.control.seedArticles(2, {
		userId: sandbox.control.otherUserId,
		status: 'cms',
		spacingMs: 1,
	});
	triggerWorkflow = await api.createWorkflow(
		chain('ContentGen trigger: article completed', [
			contentGenTrigger(TRIGGER, triggerAccount, { events: ['articleCompleted'] }),
		]),
	);
	const before = await api.staticData(triggerWorkflow);
	const { execution, workers } = await runOnWorker(triggerWorkflow, TRIGGER, true);
	const after = await api.staticData(triggerWorkflow);
	report(
		`Fetch Test Event: execution ${execution.id} on ${workers.join('+')}, ${execution.nodes[TRIGGER]?.length ?? 0} item(s), static data before ${JSON.stringify(before)} after ${JSON.stringify(after)}`,
	);
	expect(execution.error).toBeNull();
	expect(workers).toHaveLength(1);
	expect(execution.nodes[TRIGGER]).toHaveLength(1);
	expect(after).toEqual(before);
});

// Needs the social trigger's cheap idle poll (branch trigger-social).
test('a social trigger on Scheduled/Published over an account of 3,000 published records: at most 7 requests per idle poll', async () => {
	const { sandbox, api } = deployment;
	// the article trigger polls as the same user: it must be off, also when its test failed
	if (triggerWorkflow) await api.setActive(triggerWorkflow, false).catch(() => undefined);
	const user = sandbox.control.otherUserId;
	sandbox.control.seedSocial(3000, { userId: user, status: 'published', spacingMs: 1000 });
	const id = await api.createWorkflow(
		chain('ContentGen trigger: social scheduled or published', [
			contentGenTrigger('On social scheduled or published', triggerAccount, {
				events: ['socialScheduled', 'socialPublished'],
			}),
		]),
	);
	const since = Date.now();
	await api.setActive(id, true);
	// The trigger first reads the whole social list once, over as many polls as its budget needs;
	// idle polls come after. A poll is complete once the next one has started.
	const complete = () =>
		polls(sandbox, user, since)
			.slice(0, -1)
			.map((p) => p.length);
	await waitFor('two idle polls after the account is learnt', 240, () => {
		const counts = complete();
		return counts.length >= 3 && counts.slice(-2).every((n) => n <= 7);
	}).catch(() => undefined);
	await api.setActive(id, false);
	const perPoll = complete();
	report(
		`social trigger over 3,000 published records: requests per poll ${perPoll.join(' ')} (first: activation)`,
	);
	expect(perPoll.length).toBeGreaterThanOrEqual(3);
	for (const idle of perPoll.slice(-2)) expect(idle).toBeLessThanOrEqual(7);
});

// The trigger under the durable scheduler, cursors off (n8n's default) with the default Delivery.
// CONTENTGEN_N8N_DURABLE_ALL=1 adds the other Delivery under each cursor setting (about 5 minutes
// more; not in CI), for the whole table of docs/deployment.md.
const allDeliveries = Boolean(process.env.CONTENTGEN_N8N_DURABLE_ALL);
durableScenarios(deployment, {
	title: 'cursors off, Delivery exactly once (default)',
	promise: 'exactlyOnce',
});
if (allDeliveries)
	durableScenarios(deployment, {
		title: 'cursors off, Delivery at least once',
		delivery: 'atLeastOnce',
		promise: 'atLeastOnce',
	});

// One restart for two settings: binary data on a shared folder, and durable cursors on for the
// trigger's scenarios that follow (the images do not depend on them).
test('Download Images in filesystem mode on a storage folder main and workers share', async () => {
	await deployment.restart({
		...SETTINGS_3,
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		N8N_BINARY_DATA_STORAGE_PATH: join(deployment.work, 'shared-storage'),
		N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	});
	await downloadImagesReadBackOnMain('filesystem');
});

// Durable cursors on, with Delivery at least once and the Remove Duplicates recipe.
durableScenarios(deployment, {
	title: 'cursors on, Delivery at least once',
	delivery: 'atLeastOnce',
	promise: 'atLeastOnce',
});
if (allDeliveries)
	durableScenarios(deployment, {
		title: 'cursors on, Delivery exactly once (default)',
		promise: 'exactlyOnce',
	});

// What a user meets when the SSRF guard is on and the service's address is not allowed. Needs the
// messages that name n8n's allow settings (branch leaks).
test('SSRF guard on without an allow setting: the credential test and the node name the SSRF protection and its two allow settings', async () => {
	const withoutAllow: Record<string, string> = { ...SETTINGS_3 };
	delete withoutAllow.N8N_SSRF_ALLOWED_IP_RANGES;
	await deployment.restart(withoutAllow);
	const verdict = await deployment.api.testCredential(account.id);
	const id = await deployment.api.createWorkflow(
		chain('Credits behind the SSRF guard', [
			manualTrigger(),
			contentGen('Credits', account, { resource: 'account', operation: 'getCredits' }),
		]),
	);
	const { execution, workers } = await runOnWorker(id, 'Start');
	report(`SSRF guard without allow setting: credential test ${verdict.status}: ${verdict.message}`);
	report(
		`SSRF guard without allow setting: node on ${workers.join('+')}: ${execution.errors.Credits ?? execution.error}`,
	);
	for (const message of [verdict.message, execution.errors.Credits ?? execution.error ?? '']) {
		expect(message).toMatch(/SSRF protection blocked/);
		expect(message).toContain('N8N_SSRF_ALLOWED_HOSTNAMES');
		expect(message).toContain('N8N_SSRF_ALLOWED_IP_RANGES');
		expect(message).not.toMatch(/Check the Base URL/i);
	}
	expect(verdict.status).toBe('Error');
	expect(execution.status).toBe('error');
});

test('no API key appears in the logs of main and the workers', () => {
	const logs = deployment.logs();
	expect(logs.includes(deployment.sandbox.apiKey)).toBe(false);
});
