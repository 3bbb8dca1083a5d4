/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only test: the fixture tarball, n8n's SQLite file and its install folder */
// The leg "update": one n8n process (SQLite) runs the package as an earlier release built it (the
// one tarball in test/n8n/fixtures, rebuilt and checked by scripts/n8n/build-old-tarball.sh) with
// the examples saved and a trigger active on Article Finished + Social Content Finished; n8n is
// stopped, articles complete and social posts finish while it is down, and the package is updated
// in place with the README's install:plain block to this checkout's build. After the start: every
// saved workflow runs, and what changed during the update is reported exactly once. Then two ways
// back: a stored state of a newer format than the build knows (what a rollback from a later
// release leaves) must be named in n8n's log with nothing lost, and a rollback to the earlier
// release itself must lose nothing either (it knows the same rule).
import { createRequire } from 'module';
import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import { Deployment } from './harness/deployment';
import { REPO } from './harness/n8n';
import { startOpenAiDouble } from './harness/openai';
import { pause, waitFor } from './harness/processes';
import { report } from './harness/report';
import { emissions, finishRecords, polls } from './harness/trigger';
import { pin } from './harness/versions';
import {
	chain,
	contentGenTrigger,
	example,
	lastStep,
	type Credential,
	type Workflow,
} from './harness/workflows';

const FIXTURES = join(REPO, 'test/n8n/fixtures');
const [OLD_FILE] = readdirSync(FIXTURES).filter((f) => /^n8n-nodes-contentgen-.+\.tgz$/.test(f));
const OLD = join(FIXTURES, OLD_FILE);
/** The earlier release as its tarball names it: version and commit. */
const EARLIER = OLD_FILE.replace(/^n8n-nodes-contentgen-(.+)-(\w+)\.tgz$/, '$1 ($2)');
const TRIGGER = 'On article completed or social finished';
// n8n refuses a Poll Times entry more often than once a minute: twelve entries, 5 s apart
const EVERY_5S = {
	item: Array.from({ length: 12 }, (_, i) => ({
		mode: 'custom',
		cronExpression: `${i * 5} * * * * *`,
	})),
};
const EXAMPLES = readdirSync(join(REPO, 'examples')).filter((f) => f.endsWith('.json'));

const n8n = pin('latest2');
const deployment = new Deployment({
	pin: n8n,
	mode: 'single',
	workers: 0,
	settings: () => ({}),
	tarball: OLD,
});
const saved: Array<{ id: string; workflow: Workflow; file: string }> = [];
let account: Credential;
let triggerId = '';
let user = '';

/** The tarball npm installed into main's n8n (the lock of ~/.n8n/nodes names it). */
function installedTarball(): string {
	const lock = JSON.parse(
		readFileSync(join(deployment.work, 'main/.n8n/nodes/package-lock.json'), 'utf8'),
	) as { packages: Record<string, { resolved?: string; integrity?: string }> };
	const entry = lock.packages['node_modules/n8n-nodes-contentgen'];
	return `${entry?.resolved ?? '?'} (${entry?.integrity?.slice(0, 20) ?? '?'}...)`;
}

/** n articles of the trigger's user complete and n social posts finish: their ids. */
function finish(n: number): string[] {
	const { articles, social } = finishRecords(deployment.sandbox, user, n);
	return [...articles, ...social];
}

/** Waits for `count` more polls of the trigger's user than there were at `since`. */
async function morePolls(label: string, since: number, count: number): Promise<void> {
	const { sandbox } = deployment;
	await waitFor(label, 90, () => polls(sandbox, user, since, 2000).length >= count);
	await pause(2000); // the execution of the last poll is saved by now
}

const figures = async (ids: string[]) => await emissions(deployment.api, triggerId, TRIGGER, ids);
const line = (label: string, ids: string[], e: Awaited<ReturnType<typeof figures>>) =>
	`${label}: ${ids.length - e.missing.length} of ${ids.length} reported, duplicates ${e.duplicates}, missing ${e.missing.length}`;

beforeAll(async () => {
	await deployment.prepare();
	await deployment.launchAndSignIn();
	const { sandbox, api } = deployment;
	user = sandbox.control.otherUserId;
	const credential = async (name: string, apiKey: string) => ({
		name,
		id: await api.createCredential(name, 'contentGenApi', { apiKey, baseUrl: sandbox.url }),
	});
	account = await credential('ContentGen account', sandbox.apiKey);
	const triggerAccount = await credential(
		'ContentGen trigger account',
		sandbox.control.createKey({ userId: user, name: 'n8n trigger' }),
	);
	const openAi = {
		name: 'OpenAI (local double)',
		id: await api.createCredential('OpenAI (local double)', 'openAiApi', {
			apiKey: 'sk-local-double',
			url: await startOpenAiDouble(deployment.processes, deployment.work),
		}),
	};
	for (const file of EXAMPLES) {
		const workflow = example(join(REPO, 'examples', file), account, openAi);
		saved.push({ id: await api.createWorkflow(workflow), workflow, file });
	}
	triggerId = await api.createWorkflow(
		chain('ContentGen trigger across an update', [
			contentGenTrigger(TRIGGER, triggerAccount, {
				events: ['articleCompleted', 'socialFinished'],
				pollTimes: EVERY_5S,
			}),
		]),
	);
	report(`saved under the earlier build: ${EXAMPLES.join(', ')} and the trigger`);
});

afterAll(async () => {
	await deployment.stop();
});

let before: string[] = [];
let during: string[] = [];
/** The update's figures, printed on one line once the saved workflows have run. */
const summary = { before: '', during: '', duplicates: 0, missing: 0, ran: 0 };

test(`under the earlier build (${EARLIER}) the trigger, active, reports changes once`, async () => {
	report(`installed: ${installedTarball()}`);
	const since = Date.now();
	await deployment.api.setActive(triggerId, true);
	await morePolls('the activation poll', since, 1);
	before = finish(2);
	const changed = Date.now();
	await morePolls('two polls after the changes', changed, 2);
	const e = await figures(before);
	report(line('before the update', before, e));
	summary.before = `${before.length - e.missing.length} of ${before.length}`;
	expect(e.missing).toEqual([]);
	expect(e.duplicates).toBe(0);
});

test("updated in place with the README's commands while n8n is stopped: what changed meanwhile is reported exactly once", async () => {
	await deployment.instance.stop(deployment.main);
	during = finish(3);
	await deployment.install();
	report(`installed: ${installedTarball()}`);
	const logBefore = deployment.logs().length;
	const started = Date.now();
	await deployment.restartMain();
	await morePolls('three polls after the update', started, 3);
	const said = deployment
		.logs()
		.slice(logBefore)
		.split('\n')
		.filter((l) => /ContentGen Trigger.*state/.test(l));
	report(`n8n's log after the update: ${said.join(' | ') || 'nothing about the stored state'}`);
	const all = await figures([...before, ...during]);
	const now = await figures(during);
	const articles = during.slice(0, 3).filter((id) => !now.missing.includes(id)).length;
	const social = during.slice(3).filter((id) => !now.missing.includes(id)).length;
	report(
		`${line('during the update', during, now)} (articles ${articles} of 3, social ${social} of 3); before it, reported again: ${all.duplicates}`,
	);
	Object.assign(summary, {
		during: `${during.length - now.missing.length} of ${during.length}`,
		duplicates: all.duplicates,
		missing: all.missing.length,
	});
	// A state of an earlier format is caught up from a minute before its last poll (docs/trigger.md,
	// a service clock behind n8n's): changes reported in that minute may come again, each with the
	// event id of its first report, which Remove Duplicates drops. Nothing else repeats.
	const formatChanged = said.some((l) => /written by an earlier version/.test(l));
	if (formatChanged) {
		expect(all.sameEventId.filter((id) => !before.includes(id))).toEqual([]);
		expect(all.sameEventId.length).toBeGreaterThanOrEqual(all.duplicates);
	} else expect(all.duplicates).toBe(0);
	expect(all.failed).toBe(0);
	expect(now.missing).toEqual([]);
});

test.each(EXAMPLES)('after the update, the saved example %s runs', async (file) => {
	const entry = saved.find((s) => s.file === file)!;
	if (file === 'publish-finished-social.json')
		deployment.sandbox.control.seedSocial(1, { status: 'completed', platforms: ['linkedin'] });
	const id = await deployment.api.runManually(entry.id, entry.workflow.nodes[0].name);
	const execution = await deployment.api.finished(id, 180);
	const last = file === 'ai-agent-tool.json' ? 'AI Agent' : lastStep(entry.workflow);
	report(
		`${file}: execution ${execution.id} ${execution.status}, ${execution.nodes[last]?.length ?? 0} item(s) from "${last}"`,
	);
	expect(execution.error).toBeNull();
	expect(execution.status).toBe('success');
	expect(execution.nodes[last]?.length ?? 0).toBeGreaterThan(0);
	summary.ran += 1;
	if (file === EXAMPLES[EXAMPLES.length - 1])
		report(
			`update from ${EARLIER}: saved workflows run ${summary.ran} of ${EXAMPLES.length}; events before the update ${summary.before}, during it ${summary.during}; duplicates ${summary.duplicates}, missing ${summary.missing}`,
		);
});

/** The trigger's stored state in n8n's SQLite file, read or rewritten while n8n is stopped. */
async function storedState(change?: (state: Record<string, unknown>) => void) {
	const requireFromN8n = createRequire(join(n8n.cache, 'node_modules/n8n/'));
	const sqlite3 = requireFromN8n('sqlite3') as {
		Database: new (file: string) => {
			get(sql: string, params: unknown[], cb: (e: Error | null, row: unknown) => void): void;
			run(sql: string, params: unknown[], cb: (e: Error | null) => void): void;
			close(cb: () => void): void;
		};
	};
	const db = new sqlite3.Database(join(deployment.work, 'main/.n8n/database.sqlite'));
	try {
		const row = await new Promise<{ staticData: string | null }>((resolve, reject) =>
			db.get('SELECT staticData FROM workflow_entity WHERE id = ?', [triggerId], (e, r) =>
				e ? reject(e) : resolve(r as { staticData: string | null }),
			),
		);
		const data = JSON.parse(row.staticData ?? '{}') as Record<string, Record<string, unknown>>;
		const node = data[`node:${TRIGGER}`];
		if (change && node) {
			change(node.tracker as Record<string, unknown>);
			await new Promise<void>((resolve, reject) =>
				db.run(
					'UPDATE workflow_entity SET staticData = ? WHERE id = ?',
					[JSON.stringify(data), triggerId],
					(e) => (e ? reject(e) : resolve()),
				),
			);
		}
		return node?.tracker as Record<string, unknown> | undefined;
	} finally {
		await new Promise<void>((resolve) => db.close(resolve));
	}
}

test("a stored state of a newer format than the build knows (a rollback from a later release) is named in n8n's log, and what changed is not lost", async () => {
	await deployment.instance.stop(deployment.main);
	const state = await storedState((tracker) => {
		tracker.v = 99;
	});
	report(
		`stored state rewritten as a later release would leave it: v ${String(state?.v)}, t ${String(state?.t)}`,
	);
	const changes = finish(2);
	const logBefore = deployment.logs().length;
	const started = Date.now();
	await deployment.restartMain();
	await morePolls('three polls after the start', started, 3);
	const logged = deployment
		.logs()
		.slice(logBefore)
		.split('\n')
		.filter((l) => /ContentGen Trigger/.test(l) && /format|newer|version/i.test(l));
	const e = await figures(changes);
	report(`n8n's log: ${logged.length ? logged.join(' | ') : 'nothing about the stored state'}`);
	report(line('while the newer state was stored', changes, e));
	expect(logged.length).toBeGreaterThan(0);
	expect(e.missing).toEqual([]);
	expect(e.duplicates).toBe(0);
});

test(`rolled back to ${EARLIER} with the README's commands: the saved workflows load, and what changed meanwhile is reported`, async () => {
	await deployment.instance.stop(deployment.main);
	const changes = finish(2);
	await deployment.install(OLD);
	report(`installed: ${installedTarball()}`);
	const logBefore = deployment.logs().length;
	const started = Date.now();
	await deployment.restartMain();
	await morePolls('three polls after the rollback', started, 3);
	const log = deployment.logs().slice(logBefore);
	const e = await figures(changes);
	const mentions = log.split('\n').filter((l) => /ContentGen/.test(l) && /warn|error/i.test(l));
	report(line(`during the rollback to ${EARLIER}`, changes, e));
	report(
		`n8n's log after the rollback: ${mentions.length ? mentions.join(' | ') : 'no warning from ContentGen'}`,
	);
	expect(await deployment.api.servedTypes()).toEqual(
		expect.arrayContaining([
			'n8n-nodes-contentgen.contentGen',
			'n8n-nodes-contentgen.contentGenTrigger',
		]),
	);
	expect(log).not.toMatch(/Unrecognized node type/);
	expect(e.missing).toEqual([]);
});

test('no API key appears in the log', () => {
	expect(deployment.logs().includes(deployment.sandbox.apiKey)).toBe(false);
});
