/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test teardown: stops what global-setup.ts started */
import { existsSync, readdirSync, readFileSync, rmSync } from 'fs';
import { join } from 'path';

import type { ChildProcess } from 'child_process';
import type { Browser } from 'puppeteer-core';

import type { Sandbox } from '../../sandbox';
import type { EditorState } from './state';

/** What global-setup.ts started. */
export interface Running {
	n8n?: ChildProcess;
	browser?: Browser;
	sandbox?: Sandbox;
	state: EditorState;
}

/** Stops the browser, n8n (its whole process group, politely first) and the sandbox. */
export async function stopAll(running: Running | undefined) {
	await running?.browser?.close().catch(() => undefined);
	const n8n = running?.n8n;
	if (n8n?.pid && n8n.exitCode === null) {
		const exited = new Promise((resolve) => n8n.once('exit', resolve));
		process.kill(-n8n.pid, 'SIGTERM');
		const timer = setTimeout(
			() => n8n.exitCode === null && process.kill(-n8n.pid!, 'SIGKILL'),
			10_000,
		);
		await exited;
		clearTimeout(timer);
	}
	await running?.sandbox?.close();
}

export default async function globalTeardown() {
	const running = globalThis.contentGenEditor;
	await stopAll(running);
	const work = running?.state.work;
	if (!work || !existsSync(work)) return;
	// The key went to n8n only inside the credential: neither n8n's log nor the evidence of a
	// failure may carry it.
	const key = running?.state.apiKey;
	const logs = [
		running?.state.n8nLog ?? '',
		...readdirSync(work)
			.filter((f) => f.endsWith('.txt'))
			.map((f) => join(work, f)),
	];
	const leaked = key
		? logs.filter((f) => existsSync(f) && readFileSync(f, 'utf8').includes(key))
		: [];
	// A failing step leaves failure-* files: the folder stays for them, as it does on request.
	const evidence = readdirSync(work).some((name) => name.startsWith('failure-'));
	if (evidence || leaked.length > 0 || process.env.CONTENTGEN_N8N_KEEP)
		console.log(`(kept ${work} for inspection)`);
	else rmSync(work, { recursive: true, force: true });
	if (leaked.length > 0) throw new Error(`the API key appears in ${leaked.join(', ')}`);
}
