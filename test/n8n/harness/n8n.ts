/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- dev-only: installs n8n, starts its processes and runs its CLI */
// A real n8n for a test: installed once into a cache folder (scripts/n8n/install.sh), the package
// packed and installed with the README's commands (scripts/n8n/install-package.sh), then `n8n
// start` / `n8n worker` as child processes on free loopback ports.
import { execFile } from 'child_process';
import { cpSync, mkdirSync } from 'fs';
import { dirname, join } from 'path';
import { promisify } from 'util';

import { freePort, Gone, Processes, tail, waitFor, type Started } from './processes';
import type { N8nPin } from './versions';

const run = promisify(execFile);
export const REPO = join(__dirname, '..', '..', '..');

/**
 * The folder of a `node` of that major: this process's own, or one from the npm registry through
 * npx (n8n 1.x runs on Node 22 while the tests run on 24).
 */
export async function nodeDirectory(major: number): Promise<string> {
	if (Number(process.versions.node.split('.')[0]) === major) return dirname(process.execPath);
	const { stdout } = await run(
		'npx',
		['-y', '-p', `node@${major}`, '--', 'node', '-p', 'require("path").dirname(process.execPath)'],
		{ env: { ...process.env, npm_config_yes: 'true', npm_config_update_notifier: 'false' } },
	);
	return stdout.trim().split('\n').pop() ?? '';
}

/** The version of the `node` in `dir`, checked to be of `major`. */
export async function nodeVersion(dir: string, major: number): Promise<string> {
	const { stdout } = await run(join(dir, 'node'), ['--version']);
	const version = stdout.trim();
	if (!version.startsWith(`v${major}.`))
		throw new Error(`${dir}/node is ${version}, not Node ${major}`);
	return version;
}

/**
 * Installs the pinned n8n into its cache folder unless it is there already, with the `node` of
 * `nodeDir` first on PATH (its native modules are built for it); returns the binary.
 */
export async function installN8n(
	pin: N8nPin,
	nodeDir = dirname(process.execPath),
): Promise<string> {
	const env = { ...process.env, PATH: `${nodeDir}:${process.env.PATH ?? ''}` };
	await run('bash', [join(REPO, 'scripts/n8n/install.sh'), pin.cache], {
		env: {
			...env,
			N8N_VERSION: pin.version,
			N8N_EXTRA_OVERRIDES: JSON.stringify(pin.overrides),
		},
		maxBuffer: 64 * 1024 * 1024,
	});
	const binary = join(pin.cache, 'node_modules', '.bin', 'n8n');
	const { stdout } = await run(binary, ['--version'], { env });
	if (stdout.trim().split('\n').pop() !== pin.version) {
		throw new Error(`${binary} --version printed ${stdout.trim()}, expected ${pin.version}`);
	}
	return binary;
}

/**
 * Builds (unless CONTENTGEN_N8N_SKIP_BUILD), packs and installs the package into
 * `<userFolder>/.n8n/nodes` with the README's own install commands, or installs `tarball` (an
 * earlier build) with them; returns the script's last line.
 */
export async function installPackage(
	work: string,
	userFolder: string,
	tarball?: string,
): Promise<string> {
	const { stdout } = await run(
		'bash',
		[join(REPO, 'scripts/n8n/install-package.sh'), join(work, 'package'), userFolder],
		{
			env: tarball ? { ...process.env, CONTENTGEN_N8N_TARBALL: tarball } : process.env,
			maxBuffer: 64 * 1024 * 1024,
		},
	);
	return stdout.trim().split('\n').pop() ?? '';
}

/** Gives each process its own copy of the installed package, as an install on every machine would. */
export function copyPackage(from: string, to: string): void {
	mkdirSync(join(to, '.n8n'), { recursive: true });
	cpSync(join(from, '.n8n', 'nodes'), join(to, '.n8n', 'nodes'), { recursive: true });
}

/** The settings every n8n process of a test shares: quiet, local, on free ports. */
export async function baseEnvironment(): Promise<Record<string, string>> {
	const port = await freePort();
	return {
		N8N_ENCRYPTION_KEY: `contentgen-n8n-test-${Date.now()}`,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(port),
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_FORMAT: 'text',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
	};
}

/** This process's environment for an n8n child, less jest's NODE_ENV=test (n8n exits on it). */
function n8nEnvironment(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	delete env.NODE_ENV;
	return env;
}

export interface CliResult {
	stdout: string;
	stderr: string;
	/** the exit code */
	code: number;
}

export interface N8nProcess {
	role: 'main' | 'worker';
	name: string;
	userFolder: string;
	process: Started;
	/** where its readiness check answers */
	healthUrl: string;
}

/** One n8n instance: a main process and any number of workers sharing a database and settings. */
export class N8nInstance {
	readonly url: string;

	constructor(
		private readonly processes: Processes,
		private readonly binary: string,
		private readonly work: string,
		readonly env: Record<string, string>,
	) {
		this.url = `http://127.0.0.1:${env.N8N_PORT}`;
	}

	async start(role: 'main' | 'worker', name: string, userFolder: string): Promise<N8nProcess> {
		const health = await freePort();
		const env: NodeJS.ProcessEnv = {
			...n8nEnvironment(),
			...this.env,
			N8N_USER_FOLDER: userFolder,
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			QUEUE_HEALTH_CHECK_PORT: String(health),
		};
		const args = role === 'main' ? ['start'] : ['worker', '--concurrency=5'];
		const started = this.processes.start(name, this.binary, args, {
			env,
			log: join(this.work, `${name}.log`),
		});
		const healthUrl =
			role === 'main'
				? `${this.url}/healthz/readiness`
				: `http://127.0.0.1:${health}/healthz/readiness`;
		const ready = { role, name, userFolder, process: started, healthUrl };
		await this.ready(ready);
		return ready;
	}

	async ready(p: N8nProcess): Promise<void> {
		await waitFor(`${p.name} ready`, 240, async () => {
			if (p.process.child.exitCode !== null) {
				throw new Gone(`${p.name} exited: ${tail(p.process.log)}`);
			}
			return (await fetch(p.healthUrl)).ok;
		});
		// n8n 1.x answers its readiness check seconds before it mounts the REST routes
		if (p.role === 'main')
			await waitFor('REST routes', 60, async () => (await fetch(`${this.url}/rest/settings`)).ok);
	}

	stop(p: N8nProcess): Promise<void> {
		return this.processes.stop(p.process);
	}

	/** `n8n <command>` against the instance's database, e.g. import:workflow. */
	async cli(userFolder: string, args: string[]): Promise<string> {
		const { stdout } = await run(this.binary, args, {
			env: { ...n8nEnvironment(), ...this.env, N8N_USER_FOLDER: userFolder },
			maxBuffer: 64 * 1024 * 1024,
		});
		return stdout;
	}

	/** `n8n <args>` whatever its exit code (`n8n execute` of a failing workflow exits with 1). */
	async run(userFolder: string, args: string[]): Promise<CliResult> {
		const env = {
			...n8nEnvironment(),
			...this.env,
			N8N_USER_FOLDER: userFolder,
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		};
		return await new Promise((resolve) => {
			execFile(this.binary, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
				const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
				resolve({ stdout, stderr, code });
			});
		});
	}
}
