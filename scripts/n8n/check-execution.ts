/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only CLI: reads files and argv, prints verdicts, sets the exit code */
// Judges the output of `n8n execute --id=<id> --rawOutput` (stdout and stderr captured to files).
//
// Usage:
//   tsx scripts/n8n/check-execution.ts --stdout out.json --stderr err.txt --exit <code> [options]
// Options:
//   --secret <text>            the run's output must never contain this text (the API key)
//   --expect "<node>:<path>[,<path>...]"
//                              some output item of <node> has every dotted <path> (repeatable)
//   --expect-items "<node>:<n>" <node> output exactly <n> items (repeatable)
//   --expect-match "<node>:<path>~<regex>"
//                              every output item of <node> has <path>, and String(value) matches <regex>
//   --expect-error <regex>     invert: the run must have FAILED with an error message matching <regex>
// Exit code 0 = the expectations hold; 1 = they do not (reasons on stderr).
import { readFileSync } from 'fs';

interface NodeTask {
	executionStatus?: string;
	error?: { message?: string; description?: string; httpCode?: string };
	data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
}
interface RunOutput {
	status?: string;
	finished?: boolean;
	data?: {
		resultData?: {
			runData?: Record<string, NodeTask[]>;
			lastNodeExecuted?: string;
			error?: { message?: string; description?: string; node?: { name?: string } };
		};
	};
}

function args(): { one: Map<string, string>; many: Map<string, string[]> } {
	const one = new Map<string, string>();
	const many = new Map<string, string[]>();
	const argv = process.argv.slice(2);
	for (let i = 0; i < argv.length; i += 1) {
		const key = argv[i].replace(/^--/, '');
		const value = argv[i + 1] ?? '';
		i += 1;
		one.set(key, value);
		many.set(key, [...(many.get(key) ?? []), value]);
	}
	return { one, many };
}

/** The JSON document n8n printed: everything from the first line that opens an object to the end. */
export function extractRun(stdout: string): RunOutput | undefined {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line === '{');
	if (start < 0) return undefined;
	const end = lines.lastIndexOf('}');
	if (end < start) return undefined;
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n')) as RunOutput;
	} catch {
		return undefined;
	}
}

function get(value: unknown, path: string): unknown {
	let current: unknown = value;
	for (const part of path.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string, unknown>)[part];
	}
	return current;
}

function outputItems(tasks: NodeTask[] | undefined): Array<Record<string, unknown>> {
	const items: Array<Record<string, unknown>> = [];
	for (const task of tasks ?? []) {
		for (const branch of task.data?.main ?? []) {
			for (const item of branch ?? []) items.push(item.json);
		}
	}
	return items;
}

function errorsOf(run: RunOutput | undefined): string[] {
	const messages: string[] = [];
	const resultData = run?.data?.resultData;
	if (resultData?.error) {
		messages.push(
			[resultData.error.node?.name, resultData.error.message, resultData.error.description]
				.filter(Boolean)
				.join(': '),
		);
	}
	for (const [node, tasks] of Object.entries(resultData?.runData ?? {})) {
		for (const task of tasks) {
			if (task.error) {
				messages.push(
					`${node}: ${[task.error.message, task.error.description].filter(Boolean).join(' - ')}`,
				);
			}
		}
	}
	return messages;
}

function main(): number {
	const { one, many } = args();
	const stdout = readFileSync(one.get('stdout') ?? '/dev/null', 'utf8');
	const stderr = one.has('stderr') ? readFileSync(one.get('stderr') as string, 'utf8') : '';
	const exitCode = Number(one.get('exit') ?? 'NaN');
	const secret = one.get('secret');
	const expectError = one.get('expect-error');

	const failures: string[] = [];
	const notes: string[] = [];
	const run = extractRun(stdout);
	const errors = errorsOf(run);

	if (secret && (stdout.includes(secret) || stderr.includes(secret))) {
		failures.push('the API key appears in the output of the run');
	}

	if (expectError !== undefined) {
		// Failure is expected: the CLI must say so, and say why.
		const text = `${errors.join('\n')}\n${stdout}\n${stderr}`;
		if (exitCode === 0 && run?.status === 'success' && errors.length === 0) {
			failures.push('the run succeeded, a failure was expected');
		}
		if (!new RegExp(expectError, 'i').test(text)) {
			failures.push(`no error message matching /${expectError}/i`);
		} else {
			notes.push(
				`error: ${
					errors[0] ??
					text
						.trim()
						.split('\n')
						.find((l) => new RegExp(expectError, 'i').test(l))
				}`,
			);
		}
	} else {
		if (exitCode !== 0) failures.push(`n8n execute exited with ${exitCode}`);
		if (!run) {
			failures.push('no execution JSON in stdout');
		} else {
			if (run.status !== 'success')
				failures.push(`execution status is ${String(run.status)}, not success`);
			if (run.finished === false) failures.push('execution did not finish');
			for (const message of errors) failures.push(`error: ${message}`);
			const runData = run.data?.resultData?.runData ?? {};
			const last = run.data?.resultData?.lastNodeExecuted;
			if (!last || outputItems(runData[last]).length === 0) {
				failures.push(`the last node (${String(last)}) returned no items`);
			}
			for (const spec of many.get('expect') ?? []) {
				const [node, paths] = [
					spec.slice(0, spec.lastIndexOf(':')),
					spec.slice(spec.lastIndexOf(':') + 1),
				];
				const items = outputItems(runData[node]);
				if (!runData[node]) {
					failures.push(`node "${node}" did not run`);
					continue;
				}
				const wanted = paths.split(',').filter(Boolean);
				const match = items.find((item) =>
					wanted.every((p) => get(item, p) !== undefined && get(item, p) !== null),
				);
				if (!match) failures.push(`no item of "${node}" has ${wanted.join(', ')}`);
				else
					notes.push(
						`${node}: ${wanted.map((p) => `${p}=${JSON.stringify(get(match, p))}`).join(' ')}`.slice(
							0,
							200,
						),
					);
			}
			for (const spec of many.get('expect-items') ?? []) {
				const node = spec.slice(0, spec.lastIndexOf(':'));
				const count = Number(spec.slice(spec.lastIndexOf(':') + 1));
				const actual = outputItems(runData[node]).length;
				if (actual !== count)
					failures.push(`"${node}" returned ${actual} items, expected ${count}`);
			}
			for (const spec of many.get('expect-match') ?? []) {
				const node = spec.slice(0, spec.indexOf(':'));
				const rest = spec.slice(spec.indexOf(':') + 1);
				const path = rest.slice(0, rest.indexOf('~'));
				const pattern = new RegExp(rest.slice(rest.indexOf('~') + 1));
				const items = outputItems(runData[node]);
				if (items.length === 0) failures.push(`"${node}" returned no items to match ${path}`);
				for (const item of items) {
					const value = get(item, path);
					const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
					if (value === undefined || !pattern.test(text)) {
						failures.push(
							`"${node}" ${path}=${text.slice(0, 80)} does not match /${pattern.source}/`,
						);
					}
				}
			}
			const summary = Object.entries(runData)
				.map(([node, tasks]) => `${node}(${outputItems(tasks).length})`)
				.join(' -> ');
			notes.unshift(`nodes: ${summary}`);
		}
	}

	for (const note of notes) console.log(`  ${note}`);
	for (const failure of failures) console.error(`  FAIL: ${failure}`);
	return failures.length === 0 ? 0 : 1;
}

if (require.main === module) {
	process.exit(main());
}
