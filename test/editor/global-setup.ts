/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error -- test setup: starts n8n, the sandbox and the install scripts, prints where they run */
// What the editor suite runs against, made once per run and stopped by global-teardown.ts:
//   - n8n (the `latest2` pin of test/n8n/versions.json) installed once by scripts/n8n/install.sh into
//     CONTENTGEN_N8N_CACHE (default ~/.cache/n8n-nodes-contentgen/n8n-<version>);
//   - the packed package installed as a community package with the README's own commands
//     (scripts/n8n/install-package.sh; CONTENTGEN_N8N_SKIP_BUILD=1 packs the existing dist/);
//   - the sandbox as the service, fast enough that an article finishes while the editor waits;
//   - `n8n start` on free loopback ports, with an owner to sign in as;
//   - Chromium: CONTENTGEN_CHROMIUM, or `chromium` on PATH (Debian's package).
// The specs read what they need from the state file named by CONTENTGEN_EDITOR_STATE.
import { execFileSync, spawn, type ChildProcess } from 'child_process';
import { randomBytes } from 'crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { startSandbox } from '../../sandbox';
import { baseEnvironment } from '../n8n/harness/n8n';
import { freePort } from '../n8n/harness/processes';
import { pin } from '../n8n/harness/versions';
import { launchSignedIn } from './browser';
import { stopAll, type Running } from './global-teardown';
import type { EditorState } from './state';

const REPO = join(__dirname, '..', '..');
const N8N = pin('latest2');
const N8N_VERSION = N8N.version;
const OWNER_EMAIL = 'owner@contentgen.test';

declare global {
	var contentGenEditor: Running | undefined;
}

/** The environment without what jest sets for its own tests (n8n quits silently with NODE_ENV=test). */
function plainEnvironment(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	delete env.NODE_ENV;
	delete env.JEST_WORKER_ID;
	return env;
}

/** Runs a script of the repository to its end, its output in `log`; throws with the log's tail. */
function runScript(log: string, script: string, args: string[]) {
	const out = openSync(log, 'w');
	try {
		execFileSync('bash', [join(REPO, script), ...args], {
			stdio: ['ignore', out, out],
			env: plainEnvironment(),
		});
	} catch {
		const tail = execFileSync('tail', ['-n', '25', log], { encoding: 'utf8' });
		throw new Error(`${script} failed (${log}):\n${tail}`);
	} finally {
		closeSync(out);
	}
}

function chromium(): string {
	const named = process.env.CONTENTGEN_CHROMIUM;
	if (named) return named;
	for (const candidate of ['chromium', 'chromium-browser']) {
		try {
			return execFileSync('sh', ['-c', `command -v ${candidate}`], { encoding: 'utf8' }).trim();
		} catch {
			// try the next name
		}
	}
	throw new Error(
		"no Chromium: install Debian's package (apt-get install chromium) or set CONTENTGEN_CHROMIUM",
	);
}

/** Waits until n8n answers its readiness check and its REST routes, or it exits. */
async function ready(url: string, n8n: ChildProcess, log: string) {
	const deadline = Date.now() + 180_000;
	for (;;) {
		if (n8n.exitCode !== null) throw new Error(`n8n exited with ${n8n.exitCode}; see ${log}`);
		const answers = await Promise.all(
			['/healthz/readiness', '/rest/settings'].map(
				async (path) =>
					await fetch(url + path).then(
						(r) => r.ok,
						() => false,
					),
			),
		);
		if (answers.every(Boolean)) return;
		if (Date.now() > deadline) throw new Error(`n8n did not become ready in 180 s; see ${log}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

export default async function globalSetup() {
	chromium();
	const work = mkdtempSync(join(tmpdir(), 'contentgen-editor-'));
	const { cache } = N8N;
	const home = join(work, 'home');
	console.log(`\neditor suite: n8n ${N8N_VERSION} in ${cache}, work folder ${work}`);
	runScript(join(work, 'install.log'), 'scripts/n8n/install.sh', [cache]);
	runScript(join(work, 'install-package.log'), 'scripts/n8n/install-package.sh', [
		join(work, 'package'),
		home,
	]);

	const running: Running = { state: { work } as EditorState };
	globalThis.contentGenEditor = running;
	try {
		await start(running, cache, home);
	} catch (error) {
		await stopAll(running);
		throw error;
	}
}

async function start(running: Running, cache: string, home: string) {
	const { work } = running.state;
	running.sandbox = await startSandbox({
		port: 0,
		speed: Number(process.env.CONTENTGEN_EDITOR_SANDBOX_SPEED ?? 2000),
		seed: 42,
		quiet: true,
	});

	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const log = join(work, 'n8n-start.log');
	const out = openSync(log, 'w');
	running.n8n = spawn(join(cache, 'node_modules', '.bin', 'n8n'), ['start'], {
		detached: true,
		stdio: ['ignore', out, out],
		env: {
			...plainEnvironment(),
			...(await baseEnvironment()),
			N8N_USER_FOLDER: home,
			N8N_PORT: String(port),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		},
	});
	closeSync(out);
	const started = Date.now();
	await ready(url, running.n8n, log);

	// n8n has no public route or command that creates the owner: its own sign-up page posts here.
	const password = `Cg-${randomBytes(9).toString('hex')}-A1`;
	const setup = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ email: OWNER_EMAIL, firstName: 'Content', lastName: 'Gen', password }),
	});
	if (!setup.ok) throw new Error(`owner setup: HTTP ${setup.status} ${await setup.text()}`);
	console.log(
		`editor suite: n8n ready at ${url} after ${Math.round((Date.now() - started) / 1000)} s`,
	);

	const browser = chromium();
	const screenshots = join(work, 'screenshots');
	mkdirSync(screenshots, { recursive: true });
	running.state = {
		n8nUrl: url,
		n8nVersion: N8N_VERSION,
		n8nLog: log,
		ownerEmail: OWNER_EMAIL,
		ownerPassword: password,
		sandboxUrl: running.sandbox.url,
		apiKey: running.sandbox.apiKey,
		chromium: browser,
		browserEndpoint: '',
		work,
		screenshots,
		images: process.env.CONTENTGEN_UPDATE_SCREENSHOTS ? join(REPO, 'docs', 'images') : undefined,
	};
	running.browser = await launchSignedIn(running.state);
	running.state.browserEndpoint = running.browser.wsEndpoint();
	const stateFile = join(work, 'state.json');
	writeFileSync(stateFile, JSON.stringify(running.state), { mode: 0o600 });
	process.env.CONTENTGEN_EDITOR_STATE = stateFile;
}
