/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only test: the environment for its settings, a worker's user folder */
// The leg "queue": the packed package in n8n's queue mode on the deployment self-hosters run
// (Postgres, Redis, main + two workers, each loading the package from its own user folder).
// Workflows start at production webhooks or at our polling trigger, so main enqueues them and the
// workers run them: a burst of webhook executions, a worker killed during Wait for Completion (the
// execution fails, nothing is charged twice, the README's recovery finds the article), the trigger
// emitting every completion exactly once across that, and under a 429 longer than its poll
// interval. The shared-budget benchmark on the same deployment is a command of its own
// (`npm run bench:n8n`, scripts/n8n/bench.ts), not a test.
//   CONTENTGEN_N8N_QUEUE_SPEED=<n>      sandbox speed (default 10: an article takes 6-12 s)
//   CONTENTGEN_N8N_QUEUE_BARE_WORKER=1  worker-2 runs without the package (the leg must fail)
import { rmSync } from 'fs';
import { join } from 'path';

import { importCredentials, importWorkflows } from './harness/cli';
import { Deployment } from './harness/deployment';
import { pause, waitFor } from './harness/processes';
import { CREDENTIALS, queueWorkflows, workflowId } from './harness/queue-workflows';
import { report } from './harness/report';
import { contentGenCredential, fixture } from './harness/single';
import { emissions } from './harness/trigger';
import { pin } from './harness/versions';
import { prepareWorkflows } from './harness/prepare';

// n8n fails a job whose worker stopped renewing its lock (a crash) after lock duration + stalled
// interval, then rechecks for 30 s; defaults 60 s + 30 s, shortened here to keep the test quick.
const LOCKS = {
	QUEUE_WORKER_LOCK_DURATION: '10000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};
const deployment = new Deployment({
	pin: pin('latest2'),
	workers: 2,
	speed: Number(process.env.CONTENTGEN_N8N_QUEUE_SPEED ?? 10),
	settings: () => LOCKS,
});
const TRIGGER_WF = 'cgTriggerArticle01';
const TRIGGER_NODE = 'On article completed';
const WEBHOOKS = queueWorkflows('http://placeholder').map((w) => w.id);
/** every article the functional checks generate: the trigger must emit each exactly once */
const generated: string[] = [];
let benchKey = '';

const control = () => deployment.sandbox.control;
const webhook = async (path: string, body: unknown) => {
	const response = await fetch(`${deployment.instance.url}/webhook/${path}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	try {
		return JSON.parse(text) as Record<string, unknown>;
	} catch {
		return { answer: text.slice(0, 300) };
	}
};
const finishedArticle = (a: Record<string, unknown>) =>
	typeof a.id === 'string' && ['cms', 'needs_editing'].includes(String(a.status));
const projectId = () => control().projects()[0].id;

beforeAll(async () => {
	await deployment.prepare();
	const { sandbox, work } = deployment;
	if (process.env.CONTENTGEN_N8N_QUEUE_BARE_WORKER) {
		report(
			'CONTENTGEN_N8N_QUEUE_BARE_WORKER: worker-2 runs without the package; this leg must fail',
		);
		rmSync(join(work, 'worker-2', '.n8n', 'nodes'), { recursive: true, force: true });
	}
	// The functional checks and the trigger share the default user's key (one rate budget); the
	// benchmark's key belongs to the second user and is replaced by a fresh one per case.
	benchKey = sandbox.control.createKey({
		userId: sandbox.control.otherUserId,
		name: 'n8n benchmark',
	});
	const trigger = { id: 'contentgen-trigger', name: 'ContentGen trigger account' };
	await importCredentials(deployment, [
		contentGenCredential(CREDENTIALS.queue, sandbox.apiKey, sandbox.url),
		contentGenCredential(trigger, sandbox.apiKey, sandbox.url),
		contentGenCredential(CREDENTIALS.bench, benchKey, sandbox.url),
		{ ...CREDENTIALS.bearer, type: 'httpBearerAuth', data: { token: benchKey } },
	]);
	const [triggerWorkflow] = prepareWorkflows([fixture('trigger-article-completed.json')], {
		account: CREDENTIALS.queue,
		wrongKey: CREDENTIALS.queue,
	});
	const listing = await importWorkflows(deployment, [
		...queueWorkflows(sandbox.url),
		{ ...triggerWorkflow.workflow, id: TRIGGER_WF },
	]);
	report(`imported 4 credentials and ${listing.filter((l) => l.includes('|')).length} workflows`);
	await deployment.launchAndSignIn();
	for (const id of [...WEBHOOKS, TRIGGER_WF]) await deployment.api.setActive(id, true);
	await waitFor('the trigger stores its starting point', 60, async () => {
		const data = await deployment.api.staticData(TRIGGER_WF);
		return data !== null && Object.keys(data).length > 0;
	});
	report(`activated ${WEBHOOKS.length} webhook workflows and the trigger (4 polls a minute)`);
});

afterAll(async () => {
	await deployment.stop();
});

test('10 concurrent webhook calls: main enqueues each, each runs on exactly one worker, both workers used, each gets its finished article', async () => {
	const answers = await Promise.all(
		Array.from({ length: 10 }, (_, i) =>
			webhook('q-generate-wait', {
				topic: `Queue mode, article ${i + 1} of a burst`,
				projectId: projectId(),
			}),
		),
	);
	for (const a of answers) if (finishedArticle(a)) generated.push(String(a.id));
	const ids = await waitFor('the 10 executions are listed', 30, async () => {
		const list = await deployment.api.executionIds(workflowId('generateWait'));
		return list.length >= 10 && list;
	});
	const executions = await Promise.all(ids.map((id) => deployment.api.execution(id)));
	const mainLog = deployment
		.logs()
		.split('\n')
		.filter((l) => l.includes('Enqueued execution'));
	const placement = executions.map((e) => ({
		id: e.id,
		status: e.status,
		workers: deployment.ranOn(e.id),
		enqueued: mainLog.some((l) => l.includes(`Enqueued execution ${e.id} (job`)),
	}));
	report(
		`burst (id:status:worker): ${placement.map((p) => `${p.id}:${p.status}:${p.workers.join('+')}`).join(' ')}`,
	);
	expect(answers.filter(finishedArticle)).toHaveLength(10);
	expect(placement).toHaveLength(10);
	for (const p of placement) {
		expect(p.status).toBe('success');
		expect(p.workers).toHaveLength(1);
		expect(p.enqueued).toBe(true);
	}
	expect(new Set(placement.map((p) => p.workers[0])).size).toBe(2);
});

describe('a worker killed during Wait for Completion', () => {
	const topic = `Recovered after a worker crash ${Date.now()}`;
	let article = '';
	let execution = '';

	test('the execution is marked failed (error or crashed) once n8n sees the worker gone', async () => {
		const since = Date.now();
		await webhook('q-generate-then-wait', { topic, projectId: projectId() });
		article = await waitFor(`the generate of "${topic}" is charged`, 30, () => {
			const rows = control()
				.ledger()
				.filter((e) => Date.parse(e.at) >= since && e.kind === 'article');
			return rows.length === 1 && rows[0].recordId;
		});
		generated.push(article);
		await waitFor(`Wait for Completion polls article ${article}`, 30, () =>
			control()
				.requests()
				.some((r) => r.path === `/api/v1/articles/${article}/status`),
		);
		// n8n lists a running execution only when asked for running ones
		execution = await waitFor('the running execution', 30, async () => {
			const [id] = await deployment.api.executionIds(workflowId('generateThenWait'), 'running');
			return id;
		});
		const [victimName] = deployment.ranOn(execution);
		const victim = deployment.workers.find((w) => w.name === victimName);
		expect(victim).toBeDefined();
		await deployment.killWorker(victim!);
		const killedAt = Date.now();
		report(
			`killed ${victimName} (SIGKILL) while execution ${execution} waited for article ${article}`,
		);
		// a crashed worker comes back, as under a process supervisor
		await deployment.restartWorker(victim!);
		const record = await deployment.api.finished(execution, 150);
		report(
			`execution ${execution} is ${record.status} ${Math.round((Date.now() - killedAt) / 1000)} s after the kill: ${record.error}`,
		);
		// failed either way: `error` when the job's lock expires, `crashed` when n8n's recovery
		// finds the execution's worker gone first
		expect(['error', 'crashed']).toContain(record.status);
	});

	test('the crashed execution is not run again: 1 generate sent, 1 charge', () => {
		const generates = control()
			.requests()
			.filter(
				(r) =>
					r.method === 'POST' &&
					r.path === '/api/v1/articles/generate' &&
					(r.body as { topic?: string } | undefined)?.topic === topic,
			).length;
		const charges = control()
			.ledger()
			.filter((e) => e.recordId === article).length;
		report(`after the crash: ${generates} generate(s) of "${topic}", ${charges} charge(s)`);
		expect(article).not.toBe('');
		expect(generates).toBe(1);
		expect(charges).toBe(1);
	});

	test('recovered as the README says: Get Many by topic, then Wait for Completion by ID', async () => {
		const recovered = await webhook('q-recover', { topic });
		report(`recovered: ${JSON.stringify(recovered).slice(0, 200)}`);
		expect(recovered.id).toBe(article);
		expect(finishedArticle(recovered)).toBe(true);
	});
});

/** Every generated article emitted once, by trigger executions that each ran on one worker. */
async function exactlyOnce(label: string): Promise<void> {
	const result = await emissions(deployment.api, TRIGGER_WF, TRIGGER_NODE, generated);
	const emitting = result.byExecution.filter((e) => e.hits > 0);
	const placement = emitting.map((e) => `${e.id}:${deployment.ranOn(e.id).join('+')}`);
	report(
		`${generated.length} completions ${label}: ${result.hits} emitted, duplicates ${result.duplicates}, missing ${result.missing.length}; trigger executions (id:worker) ${placement.join(' ')}`,
	);
	expect(result.missing).toEqual([]);
	expect(result.hits).toBe(generated.length);
	expect(result.duplicates).toBe(0);
	for (const e of emitting) expect(deployment.ranOn(e.id)).toHaveLength(1);
}

test('trigger executions run on the workers, each completion emitted exactly once across the worker restart', async () => {
	// two more generations after the restart, run by whichever worker takes them
	for (const i of [1, 2]) {
		const answer = await webhook('q-generate-wait', {
			topic: `Queue mode, after the restart ${i}`,
			projectId: projectId(),
		});
		generated.push(String(answer.id ?? `missing ${i}`));
	}
	await waitFor('every completion emitted', 90, async () => {
		const result = await emissions(deployment.api, TRIGGER_WF, TRIGGER_NODE, generated);
		return result.missing.length === 0;
	}).catch(() => undefined);
	await exactlyOnce('across the worker restart');
});

test('a poll answered 429 with Retry-After 18 s (next poll due in 15 s) makes no error execution and loses nothing', async () => {
	// Polls are due every 15 s (at :00, :15, :30, :45). The poll that meets Retry-After 18 s cannot
	// wait it out before the next one: it must end quietly, store nothing, and leave the window to
	// the next. The fault is set shortly before a poll is due.
	const second = new Date().getUTCSeconds();
	await pause((((15 - (second % 15) + 15 - 3) % 15) + 1) * 1000);
	const before = new Set(await deployment.api.executionIds(TRIGGER_WF));
	const since = Date.now();
	control().setFaults({
		rateLimitStorm: { requests: 1, retryAfter: 18 },
		match: { method: 'GET', pathPrefix: '/api/v1/articles' },
	});
	const listReads = () =>
		control()
			.requests()
			.filter(
				(r) => r.method === 'GET' && r.path === '/api/v1/articles' && Date.parse(r.at) >= since,
			);
	// the 429'd poll, its Retry-After, and two more polls
	await waitFor(
		'two polls after the 429',
		60,
		() => listReads().filter((r) => r.status === 200).length >= 2,
	).catch(() => undefined);
	await pause(3000); // an error execution of the 429'd poll would be saved by now
	control().clearFaults();
	const limited = listReads().filter((r) => r.status === 429).length;
	const ok = listReads().filter((r) => r.status === 200).length;
	const fresh = (await deployment.api.executionIds(TRIGGER_WF)).filter((id) => !before.has(id));
	const records = await Promise.all(fresh.map((id) => deployment.api.execution(id)));
	const errors = records.filter((r) => r.status !== 'success');
	report(
		`polls: ${limited} 429, ${ok} ok; new trigger executions ${records.map((r) => `${r.id}:${r.status}`).join(' ') || 'none'}${errors.map((e) => `; ${e.id}: ${e.error}`).join('')}`,
	);
	expect(limited).toBe(1);
	expect(errors).toEqual([]);
	await exactlyOnce('after two more polls');
	await deployment.api.setActive(TRIGGER_WF, false);
});

test('no API key appears in the logs of main and the workers', () => {
	const logs = deployment.logs();
	expect(logs.includes(deployment.sandbox.apiKey)).toBe(false);
	expect(logs.includes(benchKey)).toBe(false);
});
