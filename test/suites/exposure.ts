/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- captures the process's output streams and n8n's own logger instance */
/**
 * What the security suites look through for the API key: output items, errors, n8n's log, the
 * console and the process's output streams, captured while a suite runs.
 */
import type { IDataObject } from 'n8n-workflow';
import { dirname } from 'path';

import type { RunResult } from '../helpers/engine';

// ---- the detector ------------------------------------------------------------------------

/** Every way a key could show: whole, its secret part alone, or behind a Bearer. */
export function leaksOf(text: string, apiKey: string): string[] {
	const secret = apiKey.replace(/^svc_/, '');
	const found: string[] = [];
	if (text.includes(apiKey)) found.push('the whole key');
	if (secret.length >= 16 && text.toLowerCase().includes(secret.toLowerCase()))
		found.push('the secret part');
	if (/Bearer\s+svc_[0-9a-f]/i.test(text)) found.push('a Bearer header');
	return found;
}

// ---- capture of everything the node and n8n write ------------------------------------------

type Logged = { level: string; text: string };
export const logged: Logged[] = [];

function serialise(value: unknown): string {
	try {
		return typeof value === 'string'
			? value
			: JSON.stringify(value, (_k, v: unknown) =>
					v instanceof Error ? { ...v, message: v.message, stack: v.stack } : v,
				);
	} catch {
		return String(value);
	}
}

/** n8n-core's DI container and Logger token: a node's \`this.logger\` is \`Container.get(Logger)\`. */
function n8nLoggerSlot() {
	const coreDir = dirname(require.resolve('n8n-core'));
	const { Container } = require(require.resolve('@n8n/di', { paths: [coreDir] })) as {
		Container: { get(token: unknown): unknown; set(token: unknown, value: unknown): void };
	};
	const { Logger } = require(require.resolve('@n8n/backend-common', { paths: [coreDir] })) as {
		Logger: unknown;
	};
	return { Container, Logger };
}

const spies: jest.SpyInstance[] = [];

let restoreLogger: () => void = () => undefined;

export function startCapture(): void {
	const { Container, Logger } = n8nLoggerSlot();
	const original = Container.get(Logger);
	const capture: Record<string, unknown> = {};
	for (const level of ['error', 'warn', 'info', 'debug']) {
		capture[level] = (...args: unknown[]) => {
			logged.push({ level: `n8n ${level}`, text: args.map(serialise).join(' ') });
		};
	}
	capture.scoped = () => capture;
	Container.set(Logger, capture);
	restoreLogger = () => Container.set(Logger, original);
	for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
		spies.push(
			jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
				logged.push({ level: `console.${method}`, text: args.map(serialise).join(' ') });
			}),
		);
	}
	for (const stream of [process.stdout, process.stderr]) {
		const original = stream.write.bind(stream);
		spies.push(
			jest.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
				logged.push({
					level: stream === process.stdout ? 'stdout' : 'stderr',
					text: String(chunk),
				});
				return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
			}) as typeof stream.write),
		);
	}
}

/** Everything a run exposed: items, the error (message, description, http code), logs. */
export function exposed(result: RunResult | undefined, extra: unknown[] = []): string[] {
	const texts: string[] = [];
	if (result) {
		const runData = result.run.data.resultData.runData;
		texts.push(serialise(runData));
		const error = result.run.data.resultData.error as unknown as IDataObject | undefined;
		if (error)
			texts.push(
				serialise(error),
				String(error.message),
				String(error.description),
				String(error.stack),
			);
	}
	for (const item of extra) texts.push(serialise(item));
	texts.push(...logged.map((l) => `${l.level}: ${l.text}`));
	return texts;
}

export function expectNoLeak(texts: string[], apiKey: string): void {
	const leaks = texts.flatMap((text) =>
		leaksOf(text, apiKey).map((what) => `${what} in: ${text.slice(0, 200)}`),
	);
	expect(leaks).toEqual([]);
}

/** Puts back the console, the streams and n8n's logger. */
export function stopCapture(): void {
	for (const spy of spies.splice(0)) spy.mockRestore();
	restoreLogger();
}
