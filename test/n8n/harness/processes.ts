/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- dev-only process supervisor: spawns, signals and waits for child processes */
// Child processes of a real-n8n test: each in its own process group with its output in a log
// file, all stopped (politely, then SIGKILL) when the test ends, whatever happened.
import { spawn, type ChildProcess } from 'child_process';
import { createWriteStream, readFileSync } from 'fs';
import { createServer, type AddressInfo } from 'net';

export interface Started {
	name: string;
	child: ChildProcess;
	log: string;
	/** resolves when the process has exited */
	exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An error `waitFor` does not retry: the thing waited for can no longer happen. */
export class Gone extends Error {}

/** Retries `check` every half second until it returns a value other than false/undefined. */
export async function waitFor<T>(
	label: string,
	seconds: number,
	check: () => Promise<T | false | undefined> | T | false | undefined,
): Promise<T> {
	const deadline = Date.now() + seconds * 1000;
	let last: unknown;
	for (;;) {
		try {
			const value = await check();
			if (value !== false && value !== undefined) return value;
		} catch (error) {
			last = error;
		}
		if (last instanceof Gone) throw new Gone(`${label}: ${last.message}`);
		if (Date.now() > deadline) {
			throw new Error(`${label}: not within ${seconds} s${last ? ` (${String(last)})` : ''}`);
		}
		await pause(500);
	}
}

export class Processes {
	private readonly running = new Set<Started>();

	start(
		name: string,
		command: string,
		args: string[],
		options: { env?: NodeJS.ProcessEnv; cwd?: string; log: string },
	): Started {
		const out = createWriteStream(options.log, { flags: 'a' });
		const child = spawn(command, args, {
			env: options.env ?? process.env,
			cwd: options.cwd,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		child.stdout?.pipe(out);
		child.stderr?.pipe(out);
		const exited = new Promise<number | null>((resolve) => {
			child.once('exit', (code) => resolve(code));
			child.once('error', () => resolve(-1));
		});
		const started: Started = { name, child, log: options.log, exited };
		this.running.add(started);
		void exited.then(() => this.running.delete(started));
		return started;
	}

	/** SIGTERM to the process group, SIGKILL after `graceSeconds`. */
	async stop(started: Started, graceSeconds = 20): Promise<void> {
		if (!this.running.has(started)) return;
		signalGroup(started, 'SIGTERM');
		const timer = setTimeout(() => signalGroup(started, 'SIGKILL'), graceSeconds * 1000);
		await started.exited;
		clearTimeout(timer);
		// children of the group (task runners) may outlive their parent
		signalGroup(started, 'SIGKILL');
	}

	kill(started: Started): Promise<number | null> {
		signalGroup(started, 'SIGKILL');
		return started.exited;
	}

	async stopAll(): Promise<void> {
		await Promise.all([...this.running].reverse().map((p) => this.stop(p)));
	}
}

function signalGroup(started: Started, signal: NodeJS.Signals): void {
	const pid = started.child.pid;
	if (pid === undefined) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// the group is gone already
	}
}

/** The log of a process, for a failure message. */
export function tail(file: string, lines = 30): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}
