/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test: runs the docs' shell commands as a reader would */
/**
 * Every shell command the docs show is run as written, or listed with why it is not. Each test's
 * title is the listing: "ran: <command>", or a skipped "not run (<why>): <command>". A command
 * the docs gain without a plan here fails the first test.
 *
 * `npm run test:repo` runs the quick ones (the sandbox, the demo). CONTENTGEN_DOCS_FULL=1 (the
 * "Docs commands" step of .ci/run, after n8n is installed) also runs the install from the packed
 * tarball into a fresh n8n user folder, and n8n's import of every example followed by an execution
 * against the sandbox. The quick start's `npm ci --ignore-scripts` on a fresh clone is CI's own
 * install (.ci/run runs on one); its demo runs here.
 */
import { spawn } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { delimiter, join } from 'path';

import { loadExample, withSpendingOn } from '../../harness/examples';
import { pin } from '../n8n/harness/versions';
import { apiGet, checkDemoOutput, docCommands, portIsFree, type DocCommand } from './commands';

const ROOT = join(__dirname, '..', '..');
const FULL = process.env.CONTENTGEN_DOCS_FULL === '1';
const EXAMPLES = ['ai-agent-tool', 'content-pipeline', 'publish-finished-social', 'weekly-article'];

const work = mkdtempSync(join(tmpdir(), 'contentgen-docs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Finished {
	code: number | null;
	/** The signal that ended it, if one did. */
	signal?: string | null;
	output: string;
}

/** Runs `command` with bash in `cwd`, as a reader pastes it into a terminal. */
function sh(
	command: string,
	options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
) {
	return new Promise<Finished>((resolve) => {
		const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', command], {
			cwd: options.cwd ?? ROOT,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const timer = setTimeout(() => {
			output += `\n(stopped after ${options.timeoutMs / 1000} s)`;
			process.kill(-child.pid!, 'SIGKILL');
		}, options.timeoutMs);
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, output });
		});
	});
}

function expectSuccess(finished: Finished, command: string): void {
	expect({
		command,
		code: finished.code,
		tail: finished.code === 0 ? '' : finished.output.slice(-3000),
	}).toEqual({
		command,
		code: 0,
		tail: '',
	});
}

/** A long-running command (the sandbox) until it prints `ready`; then stopped. */
async function whileRunning<T>(
	command: string,
	env: NodeJS.ProcessEnv,
	ready: RegExp,
	use: (output: string) => Promise<T>,
): Promise<T> {
	const child = spawn('bash', ['-c', command], {
		cwd: ROOT,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
	try {
		await new Promise<void>((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new Error(`"${command}" printed no ${ready}:\n${output}`)),
				60_000,
			);
			child.stdout.on('data', () => {
				if (ready.test(output)) {
					clearTimeout(timer);
					resolve();
				}
			});
			child.on('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`"${command}" exited (${code}):\n${output}`));
			});
		});
		return await use(output);
	} finally {
		process.kill(-child.pid!, 'SIGTERM');
		await exited;
	}
}

// ---------------------------------------------------------------------------------------------
// What each command is and how it is checked.

/** Installs the packed package with the README's install:pack and install:plain blocks, once. */
let installed: Promise<{ userFolder: string }> | undefined;
function installFromTarball(): Promise<{ userFolder: string }> {
	installed ??= (async () => {
		const userFolder = join(work, 'n8n-user');
		// install-package.sh runs the two marked README blocks exactly as written, HOME set to the folder.
		const finished = await sh(`bash scripts/n8n/install-package.sh ${work}/tarball ${userFolder}`, {
			timeoutMs: 600_000,
		});
		expectSuccess(finished, 'README install:pack and install:plain');
		expect(finished.output).toMatch(/installed n8n-nodes-contentgen-[\d.]+\.tgz \(\d+ files\)/);
		return { userFolder };
	})();
	return installed;
}

function n8nBinary(): string | undefined {
	const { cache } = pin('latest2');
	if (!existsSync(join(cache, '.contentgen-install-complete'))) return undefined;
	return join(cache, 'node_modules', '.bin');
}

function n8nEnv(userFolder: string, bin: string): NodeJS.ProcessEnv {
	// Jest sets NODE_ENV=test, under which n8n's commands log nothing; a reader's shell has none.
	const inherited = { ...process.env };
	delete inherited.NODE_ENV;
	return {
		...inherited,
		PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: 'contentgen-docs-test',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		// n8n's commands say what they did through its log, at level info.
		N8N_LOG_LEVEL: 'info',
	};
}

/** `n8n import:workflow` of the README, then the same for every example, then one executed. */
async function importAndExecute(command: string): Promise<void> {
	const bin = n8nBinary();
	if (!bin)
		throw new Error('n8n is not installed: run `npm run test:n8n` (scripts/n8n/install.sh) first');
	const { userFolder } = await installFromTarball();
	const env = n8nEnv(userFolder, bin);
	// The README's command as written, then the same for every example.
	for (const same of [
		command,
		...EXAMPLES.map((example) =>
			command.replace(/examples\/[\w-]+\.json/, `examples/${example}.json`),
		),
	]) {
		const imported = await sh(same, { env, timeoutMs: 300_000 });
		expectSuccess(imported, same);
		expect({ command: same, output: imported.output.slice(-500) }).toEqual({
			command: same,
			output: expect.stringContaining('Successfully imported 1 workflow.'),
		});
	}
	const exported = join(work, 'exported.json');
	const exporting = await sh(`n8n export:workflow --all --output=${exported}`, {
		env,
		timeoutMs: 300_000,
	});
	expectSuccess(exporting, 'n8n export:workflow --all');
	expect({ exported: existsSync(exported), output: exporting.output.slice(-1000) }).toEqual({
		exported: true,
		output: exporting.output.slice(-1000),
	});
	const ids = (JSON.parse(readFileSync(exported, 'utf8')) as Array<{ id: string }>).map(
		(w) => w.id,
	);
	expect(ids.sort()).toEqual(
		EXAMPLES.map(
			(example) =>
				(
					JSON.parse(readFileSync(join(ROOT, 'examples', `${example}.json`), 'utf8')) as {
						id: string;
					}
				).id,
		).sort(),
	);

	// Executed as imported, against a seeded sandbox, with the credential the examples name.
	const sandboxHome = join(work, 'sandbox-home');
	await whileRunning(
		'npx tsx sandbox/cli.ts --port 0 --seed 7 --quiet',
		{ ...process.env, HOME: sandboxHome },
		/Ctrl-C/,
		async (output) => {
			const baseUrl = /^Base URL:\s+(\S+)/m.exec(output)![1];
			const apiKey = /^API key:\s+(\S+)/m.exec(output)![1];
			const credentials = join(work, 'credentials.json');
			writeFileSync(
				credentials,
				JSON.stringify([
					{
						id: 'contentgen-sandbox',
						name: 'ContentGen account',
						type: 'contentGenApi',
						data: { apiKey, baseUrl },
					},
				]),
			);
			expectSuccess(
				await sh(`n8n import:credentials --input=${credentials}`, { env, timeoutMs: 300_000 }),
				'import:credentials',
			);
			rmSync(credentials);
			const scheduled = async () =>
				(
					(await apiGet(baseUrl, apiKey, '/social/content?status=scheduled&limit=100')).body
						.data as unknown as Array<{ id: string }>
				).map((record) => record.id);
			const scheduledBefore = await scheduled();
			const balance = async () =>
				Number((await apiGet(baseUrl, apiKey, '/user/credits')).body.data.available_credits);
			const spentBy = async () => {
				const before = await balance();
				const run = await sh('n8n execute --id=ContentGenPipeline --rawOutput', {
					env,
					timeoutMs: 300_000,
				});
				// n8n 2.41's `execute` often dies of a segmentation fault while exiting after a short
				// execution (a workflow of one Manual Trigger: 4 crashes in 5 runs), after printing the
				// finished execution: that print is what is judged then.
				const crashedOnExit =
					run.signal === 'SIGSEGV' && /"status": "success",\s*"finished": true/.test(run.output);
				if (!crashedOnExit) expectSuccess(run, 'n8n execute --id=ContentGenPipeline');
				return Math.round((before - (await balance())) * 100);
			};
			// As imported, the spend switch is false: the run stops before any generate.
			expect(await spentBy()).toBe(0);
			// With "Spend credits?" set to true (as a user does in the editor), it generates.
			const switchedOn = join(work, 'content-pipeline-spending.json');
			writeFileSync(
				switchedOn,
				JSON.stringify(withSpendingOn(loadExample('content-pipeline.json'))),
			);
			expectSuccess(
				await sh(`n8n import:workflow --input=${switchedOn}`, { env, timeoutMs: 300_000 }),
				'import:workflow of the switched-on copy',
			);
			expect(await spentBy()).toBe(330);
			// Schedule posts ships switched off: the run schedules nothing.
			expect(await scheduled()).toEqual(scheduledBefore);
		},
	);
}

interface Plan {
	/** quick: in every `npm test`; full: with CONTENTGEN_DOCS_FULL=1; never: listed with why */
	when: 'quick' | 'full' | 'never';
	why?: string;
	/** the part of the command run, when not all of it */
	part?: string;
	run?: (command: string) => Promise<void>;
}

function plan(doc: DocCommand): Plan | undefined {
	const c = doc.command;
	if (c === "npx -y -p node@24 -- sh -c 'npm ci --ignore-scripts && npm run demo'")
		return {
			// The install would replace this checkout's node_modules; on a fresh clone, it is CI's own.
			when: 'quick',
			part: "its npm run demo; its npm ci on a fresh clone is .ci/run's Install step",
			run: async () => {
				const finished = await sh('npm run demo', { timeoutMs: 180_000 });
				expectSuccess(finished, 'npm run demo');
				checkDemoOutput(ROOT, finished.output);
			},
		};
	if (c === 'npx -y -p node@24 -- npm test')
		return { when: 'never', why: 'the test suite this check is part of' };
	if (doc.marker === 'install:pack' || doc.marker === 'install:plain')
		return { when: 'full', run: async () => void (await installFromTarball()) };
	// Both sandbox commands: the key works from this machine and stays the same on a restart; the
	// one for Docker also prints the address a container uses (the container side needs Docker).
	if (c === 'npm run sandbox -- --keep-key' || c === 'npm run sandbox -- --keep-key --host 0.0.0.0')
		return {
			when: 'quick',
			run: async (command) => {
				if (!(await portIsFree(8787)))
					throw new Error('port 8787 is taken: stop the other sandbox first');
				const env = { ...process.env, HOME: join(work, c.includes('--host') ? 'docker' : 'home') };
				const key = () =>
					whileRunning(command, env, /Ctrl-C/, async (output) => {
						expect(output).toMatch(/^Base URL:\s+http:\/\/127\.0\.0\.1:8787$/m);
						if (c.includes('--host'))
							expect(output).toMatch(/^From Docker:\s+http:\/\/host\.docker\.internal:8787 /m);
						const apiKey = /^API key:\s+(svc_[0-9a-f]{64})$/m.exec(output)?.[1] ?? '';
						const { status } = await apiGet('http://127.0.0.1:8787', apiKey, '/user/credits');
						expect(status).toBe(200);
						return apiKey;
					});
				const first = await key();
				const kept = readFileSync(join(env.HOME, '.contentgen-sandbox', 'api-key'), 'utf8');
				expect(kept.trim()).toBe(first);
				expect(await key()).toBe(first);
			},
		};
	if (c === 'npm ls --prefix ~/.n8n/nodes n8n-nodes-contentgen')
		return {
			when: 'full',
			run: async (command) => {
				const { userFolder } = await installFromTarball();
				const finished = await sh(command, {
					env: { ...process.env, HOME: userFolder },
					timeoutMs: 120_000,
				});
				expectSuccess(finished, command);
				const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
					version: string;
				};
				expect(finished.output).toContain(`n8n-nodes-contentgen@${version}`);
			},
		};
	if (/^n8n import:workflow --input=examples\/[\w-]+\.json$/.test(c))
		return { when: 'full', run: importAndExecute };
	if (/^npm run bench\b/.test(c))
		return {
			when: 'never',
			why: 'a benchmark run takes minutes of every core and is no test; figures.test.ts checks what its --write left',
		};
	if (/^\s*docker /.test(c) || /^for volume in /.test(c) || c === 'done')
		return { when: 'never', why: 'needs Docker and an n8n container' };
	if (doc.where.startsWith('docs/deployment.md') && /^(export \w+=|n8n (start|worker)$)/.test(c))
		return {
			when: 'never',
			why: 'a production deployment with placeholders; test/n8n/settings3.leg.ts runs it (queue mode on Postgres, main + two workers)',
		};
	return undefined;
}

const COMMANDS = docCommands(ROOT);
const oneLine = (command: string) => command.replace(/\s*\n\s*/g, ' ⏎ ');

describe('commands in the docs', () => {
	it('every command in the docs is run here or says why not', () => {
		expect(COMMANDS.length).toBeGreaterThan(5);
		const unplanned = COMMANDS.filter((doc) => !plan(doc)).map(
			(doc) => `${doc.where}: ${doc.command}`,
		);
		expect(unplanned).toEqual([]);
	});

	for (const doc of COMMANDS) {
		const p = plan(doc);
		if (!p) continue;
		const title = `${doc.where}: ${oneLine(doc.command)}`;
		if (p.when === 'never') it.skip(`not run (${p.why}): ${title}`, () => undefined);
		else if (p.when === 'full' && !FULL)
			it.skip(`not run here (CONTENTGEN_DOCS_FULL=1 runs it, in .ci/run): ${title}`, () =>
				undefined);
		else
			it(
				`ran${p.part ? ` (${p.part})` : ''}: ${title}`,
				async () => await p.run!(doc.command),
				1_200_000,
			);
	}
});
