/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test setup runs in Node, not in n8n; it throws what n8n's own engine throws */
/**
 * n8n runs the regular expressions of parameters (a resource locator's format check, display
 * conditions) in a vm with a limit of 250 ms of wall-clock time, against ReDoS. On a 2-core machine
 * that also runs a build of n8n's install, three test workers can each wait longer than that for
 * the CPU, and a match of microseconds fails with "Regular expression execution timed out". The
 * tests keep n8n's guard, the same vm and scripts, with a limit no waiting for the CPU reaches.
 */
import { setSafeRegexEngine, type RegexEngine } from 'n8n-workflow';
import { createContext, Script } from 'vm';

const LIMIT_MS = 10_000;

function patientRegexEngine(): RegexEngine {
	const context: Record<string, unknown> = {};
	const sandbox = createContext(context);
	const scripts = {
		exec: new Script('result = new RegExp(pattern, flags).exec(input)'),
		test: new Script('result = new RegExp(pattern, flags).test(input)'),
		replace: new Script('result = input.replace(new RegExp(pattern, flags), replacement)'),
		matchAll: new Script('result = Array.from(input.matchAll(new RegExp(pattern, flags)))'),
		split: new Script('result = input.split(new RegExp(pattern, flags))'),
	};
	const run = <T>(
		script: Script,
		pattern: string,
		input: string,
		flags = '',
		replacement = '',
	): T => {
		Object.assign(context, { pattern, input, flags, replacement, result: undefined });
		try {
			script.runInContext(sandbox, { timeout: LIMIT_MS });
		} catch (error) {
			if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
				throw new Error('Regular expression execution timed out');
			throw error;
		}
		return context.result as T;
	};
	return {
		exec: (pattern, input, flags) => run(scripts.exec, pattern, input, flags),
		test: (pattern, input, flags) => run(scripts.test, pattern, input, flags),
		replace: (pattern, input, flags, replacement) =>
			run(scripts.replace, pattern, input, flags, replacement),
		matchAll: (pattern, input, flags) =>
			run(scripts.matchAll, pattern, input, flags?.includes('g') ? flags : `${flags ?? ''}g`),
		split: (pattern, input, flags) => run(scripts.split, pattern, input, flags),
	};
}

setSafeRegexEngine(patientRegexEngine());
