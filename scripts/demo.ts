/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only command line demo: prints progress, uses timers, a temp folder and the exit code */
/**
 * npm run demo: runs examples/content-pipeline.json through n8n's workflow engine with this
 * package's nodes, against the local sandbox (no account, no network). Prints each node as it
 * finishes, the API requests as they happen, and a summary with the credits each step cost.
 */
import { randomBytes } from 'crypto';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import type { IDataObject, ITaskData } from 'n8n-workflow';

import { startSandbox, type LedgerEntry, type RequestLogEntry, type Sandbox } from '../sandbox';
import { SPEND_SWITCH } from '../harness/examples';

/** An article takes 60-120 s at speed 1; at 30 it takes 2-4 s, social content about 1 s. */
const SPEED = 30;
/** The node's minimum; the example itself polls at the service's cadence (15 s / 5 s). */
const POLL_INTERVAL_S = 1;
const DEADLINE_MS = 50_000;
const EXAMPLE = 'content-pipeline.json';

const useColour = process.stdout.isTTY === true && !process.env.NO_COLOR;
const paint = (code: number) => (text: string) =>
	useColour ? `\u001b[${code}m${text}\u001b[0m` : text;
const dim = paint(2);
const bold = paint(1);
const green = paint(32);
const red = paint(31);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** Credits from whole hundredths, so 0.6 x 3 prints as 1.8. */
function credits(hundredths: number): string {
	return String(hundredths / 100);
}

function toHundredths(value: unknown): number {
	return Math.round(Number(value) * 100);
}

function shortIds(text: string): string {
	return text.replace(UUID, (id) => `${id.slice(0, 8)}…`);
}

class DemoFailure extends Error {
	constructor(
		message: string,
		readonly detail?: string | null,
	) {
		super(message);
	}
}

function fail(message: string, detail?: string | null): never {
	throw new DemoFailure(message, detail);
}

/** Prints the sandbox's request log as it grows. */
class RequestTicker {
	private seen = 0;
	private started = Date.now();
	private timer?: NodeJS.Timeout;

	constructor(private readonly sandbox: Sandbox) {}

	start(): void {
		this.started = Date.now();
		this.timer = setInterval(() => this.flush(), 100);
	}

	flush(): void {
		const log = this.sandbox.control.requests();
		for (const entry of log.slice(this.seen)) console.log(dim(`      ${this.describe(entry)}`));
		this.seen = log.length;
	}

	stop(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
		this.flush();
	}

	private describe(entry: RequestLogEntry): string {
		const path = shortIds(entry.path.replace(/^\/api\/v1/, ''));
		const query = new URLSearchParams(entry.query).toString();
		const at = `+${seconds(Date.now() - this.started)}`;
		const poll = /\/status$|^\/social\/content\/[^/]+$/.test(entry.path.replace(/^\/api\/v1/, ''))
			? '  (status check)'
			: '';
		return `${at.padStart(7)}  ${entry.method.padEnd(4)} ${path}${query ? `?${query}` : ''} -> ${entry.status}${poll}`;
	}
}

function first(task: ITaskData): IDataObject {
	return task.data?.main?.[0]?.[0]?.json ?? {};
}

/** One line about what a node produced. */
function summarise(nodeName: string, task: ITaskData): string {
	const json = first(task);
	switch (nodeName) {
		case SPEND_SWITCH:
			return `spend_credits is ${String(json.spend_credits)} (the example ships with false)`;
		case 'Pick a project':
			return `${String(json.business_name)} (${String(json.id)})`;
		case 'Generate article':
			return `"${String(json.title)}" is ${String(json.status)}`;
		case 'Generate social posts': {
			const captions = Object.keys((json.captions as IDataObject | undefined) ?? {});
			return `${captions.join(', ')} posts are ${String(json.status)}`;
		}
		case 'Schedule posts':
			return `${String(json.status)} for ${String(json.scheduled_at)}`;
		case 'Credits left':
			return `${String(json.available_credits)} credits available`;
		default:
			return '';
	}
}

function costOf(ledger: LedgerEntry[], recordId: unknown): number {
	return ledger
		.filter((entry) => entry.recordId === recordId)
		.reduce((sum, entry) => sum + entry.hundredths, 0);
}

async function main(): Promise<void> {
	const started = Date.now();
	// n8n-core keeps an instance key file in N8N_USER_FOLDER: use a throwaway folder.
	const userFolder = mkdtempSync(join(tmpdir(), 'contentgen-demo-'));
	process.env.N8N_USER_FOLDER = userFolder;
	// A throwaway key spares n8n-core generating one (and announcing it); its log stays quiet.
	process.env.N8N_ENCRYPTION_KEY ??= randomBytes(24).toString('hex');
	process.env.N8N_LOG_LEVEL ??= 'silent';
	console.log(dim("Loading n8n's workflow engine…"));
	// Loaded after N8N_USER_FOLDER is set.
	const { runWorkflow } = await import('../harness/engine');
	const { loadExample, withPollInterval, withPublishingOn } = await import('../harness/examples');

	const sandbox = await startSandbox({ port: 0, speed: SPEED });
	const ticker = new RequestTicker(sandbox);
	const cleanUp = async () => {
		ticker.stop();
		await sandbox.close();
		rmSync(userFolder, { recursive: true, force: true });
	};

	try {
		// The example ships with its spend switch at false and Schedule posts off; the sandbox charges
		// nothing real and posts nowhere, so the demo turns both on.
		const workflow = withPublishingOn(withPollInterval(loadExample(EXAMPLE), POLL_INTERVAL_S));
		const before = sandbox.control.credits();
		console.log(bold(`ContentGen demo: examples/${EXAMPLE} ("${workflow.name}")`));
		console.log(
			`Runs in n8n's workflow engine with this package's nodes, against a local sandbox.`,
		);
		console.log(
			`Sandbox ${sandbox.url} at speed ${SPEED} (an article takes 2-4 s); status checks every ${POLL_INTERVAL_S} s.`,
		);
		console.log(`Credits before: ${before.available}\n`);

		const nodeStarted = new Map<string, number>();
		let cancel: () => void = () => undefined;
		let timedOut = false;
		const deadline = setTimeout(() => {
			timedOut = true;
			cancel();
		}, DEADLINE_MS);

		const workflowStarted = Date.now();
		ticker.start();
		const result = await runWorkflow(workflow, {
			credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.url },
			onStart: (stop) => (cancel = stop),
			onNodeStart(nodeName) {
				ticker.flush();
				nodeStarted.set(nodeName, Date.now());
				console.log(`  ${dim('▸')} ${nodeName}`);
			},
			onNodeFinish(nodeName, task) {
				ticker.flush();
				const took = seconds(Date.now() - (nodeStarted.get(nodeName) ?? Date.now()));
				if (task.error) {
					console.log(`  ${red('✗')} ${nodeName} ${dim(`(${took})`)}: ${task.error.message}`);
				} else {
					const detail = summarise(nodeName, task);
					console.log(
						`  ${green('✓')} ${nodeName} ${dim(`(${took})`)}${detail ? ` ${detail}` : ''}`,
					);
				}
			},
		});
		clearTimeout(deadline);
		ticker.stop();

		if (timedOut) fail(`the workflow did not finish within ${DEADLINE_MS / 1000} s`);
		if (result.error) {
			fail(
				`node "${result.error.node ?? '?'}" stopped the workflow: ${result.error.message}`,
				result.error.description,
			);
		}

		const out = (name: string) => result.output(name)[0]?.json ?? {};
		const project = out('Pick a project');
		const article = out('Generate article');
		const social = out('Generate social posts');
		const scheduled = out('Schedule posts');
		const finalCredits = out('Credits left');
		const ledger = sandbox.control.ledger();
		const articleCost = costOf(ledger, article.id);
		const socialCost = costOf(ledger, social.id);
		const platforms = Object.keys((social.captions as IDataObject | undefined) ?? {});
		const spent = toHundredths(before.available) - toHundredths(finalCredits.available_credits);
		const requests = sandbox.control.requests();
		const statusChecks = requests.filter((r) =>
			/\/status$|^\/api\/v1\/social\/content\/[^/]+$/.test(r.path),
		).length;

		const row = (label: string, text: string) => console.log(`  ${label.padEnd(16)}${text}`);
		console.log(`\n${bold('Summary')}`);
		row('project', `${String(project.business_name)}  ${String(project.id)}`);
		row(
			'article',
			`${String(article.id)}  ${String(article.status)}  cost ${credits(articleCost)} credits`,
		);
		row('  title', String(article.title));
		row(
			'social content',
			`${String(social.id)}  ${String(social.status)}  cost ${credits(socialCost)} credits (0.6 x ${platforms.length}: ${platforms.join(', ')})`,
		);
		row('  source', String(social.source_url));
		row('scheduled', `${String(scheduled.status)} for ${String(scheduled.scheduled_at)}`);
		row(
			'credits',
			`${before.available} before, ${String(finalCredits.available_credits)} after: spent ${credits(spent)} (${credits(articleCost)} + ${credits(socialCost)})`,
		);
		row('API requests', `${requests.length} (${statusChecks} of them status checks, all free)`);
		row(
			'time',
			`${seconds(Date.now() - workflowStarted)} for the workflow, ${seconds(Date.now() - started)} in all (with loading n8n)`,
		);

		if (spent !== articleCost + socialCost) {
			fail(
				`the balance fell by ${credits(spent)} credits but the ledger records ${credits(articleCost + socialCost)}`,
			);
		}
		console.log(`\n${green('Demo finished.')}`);
	} finally {
		await cleanUp();
	}
}

main().then(
	() => process.exit(0),
	(error: Error) => {
		console.error(`\n${red('Demo failed:')} ${error.message}`);
		const detail = error instanceof DemoFailure ? error.detail : error.stack;
		if (detail) console.error(detail);
		process.exit(1);
	},
);
