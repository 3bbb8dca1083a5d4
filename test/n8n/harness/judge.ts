// Judges the output of `n8n execute --id=<id> --rawOutput`: the run n8n printed, its exit code and
// stderr, against expectations written as arguments (a fixture's meta.contentgenTest.expect, or
// test/n8n/expectations.json for an example):
//   --expect "<node>:<path>[,<path>...]"   some output item of <node> has every dotted <path>
//   --expect-items "<node>:<n>"            <node> output exactly <n> items
//   --expect-match "<node>:<path>~<regex>" every output item of <node> has <path> matching <regex>
// A verdict lists what failed (empty when the run is good) and notes of what it saw.
import type { CliResult } from './n8n';

interface NodeTask {
	error?: { message?: string; description?: string };
	data?: Record<string, Array<Array<{ json: Record<string, unknown> }> | null>>;
}
export interface RunOutput {
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

export interface Verdict {
	failures: string[];
	notes: string[];
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

/** Every main output item of a node across its runs. */
function outputItems(tasks: NodeTask[] | undefined): Array<Record<string, unknown>> {
	return (tasks ?? []).flatMap((task) =>
		(task.data?.main ?? []).flatMap((branch) => (branch ?? []).map((item) => item.json)),
	);
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

/** Pairs of `--flag value` from an expectation list. */
function specs(args: string[]): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	for (let i = 0; i + 1 < args.length; i += 2)
		pairs.push([args[i].replace(/^--/, ''), args[i + 1]]);
	return pairs;
}

/** A run that must have succeeded with every expectation met, and never shown `secret`. */
export function judgeRun(result: CliResult, expectations: string[], secret: string): Verdict {
	const failures: string[] = [];
	const notes: string[] = [];
	const run = extractRun(result.stdout);
	if (result.stdout.includes(secret) || result.stderr.includes(secret)) {
		failures.push('the API key appears in the output of the run');
	}
	if (result.code !== 0) failures.push(`n8n execute exited with ${result.code}`);
	if (!run) return { failures: [...failures, 'no execution JSON in stdout'], notes };
	if (run.status !== 'success')
		failures.push(`execution status is ${String(run.status)}, not success`);
	if (run.finished === false) failures.push('execution did not finish');
	for (const message of errorsOf(run)) failures.push(`error: ${message}`);
	const runData = run.data?.resultData?.runData ?? {};
	const last = run.data?.resultData?.lastNodeExecuted;
	if (!last || outputItems(runData[last]).length === 0) {
		failures.push(`the last node (${String(last)}) returned no items`);
	}
	for (const [kind, spec] of specs(expectations)) {
		if (kind === 'expect') {
			const node = spec.slice(0, spec.lastIndexOf(':'));
			const wanted = spec
				.slice(spec.lastIndexOf(':') + 1)
				.split(',')
				.filter(Boolean);
			if (!runData[node]) {
				failures.push(`node "${node}" did not run`);
				continue;
			}
			const match = outputItems(runData[node]).find((item) =>
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
		} else if (kind === 'expect-items') {
			const node = spec.slice(0, spec.lastIndexOf(':'));
			const count = Number(spec.slice(spec.lastIndexOf(':') + 1));
			const actual = outputItems(runData[node]).length;
			if (actual !== count) failures.push(`"${node}" returned ${actual} items, expected ${count}`);
		} else if (kind === 'expect-match') {
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
		} else {
			failures.push(`unknown expectation --${kind}`);
		}
	}
	const summary = Object.entries(runData)
		.map(([node, tasks]) => `${node}(${outputItems(tasks).length})`)
		.join(' -> ');
	notes.unshift(`nodes: ${summary}`);
	return { failures, notes };
}

/**
 * A run that must have failed with an error message matching `pattern`, without showing `secret`:
 * the failure n8n reports, and the first line that says why.
 */
export function judgeFailure(result: CliResult, pattern: RegExp, secret: string): Verdict {
	const failures: string[] = [];
	const notes: string[] = [];
	const run = extractRun(result.stdout);
	const errors = errorsOf(run);
	if (result.stdout.includes(secret) || result.stderr.includes(secret)) {
		failures.push('the API key appears in the output of the run');
	}
	const text = `${errors.join('\n')}\n${result.stdout}\n${result.stderr}`;
	if (result.code === 0 && run?.status === 'success' && errors.length === 0) {
		failures.push('the run succeeded, a failure was expected');
	}
	if (!pattern.test(text)) failures.push(`no error message matching ${String(pattern)}`);
	else
		notes.push(
			`error: ${
				errors[0] ??
				text
					.trim()
					.split('\n')
					.find((l) => pattern.test(l))
			}`,
		);
	return { failures, notes };
}
