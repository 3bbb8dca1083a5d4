/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads the source tree from disk */
/**
 * No call in nodes/ or credentials/ spreads an array into its arguments (`Math.max(...list)`,
 * `push(...list)`) or passes one through `.apply`: past about 100,000 elements that throws a
 * RangeError, and the lists here come from the service or the user. A loop or a reduce does the
 * same without a bound. Array and object literals may spread: they have no such limit.
 */
import { readFileSync } from 'fs';
import { relative } from 'path';

import { packageSources, ROOT } from '../helpers/sources';

/** Comments and quoted strings blanked out (same length, so positions and lines stay). */
function codeOnly(text: string): string {
	return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, (m) =>
		m.replace(/[^\n]/g, ' '),
	);
}

/** Each spread straight inside a call's parentheses, and each `.apply(`, as "line: code". */
function spreadCalls(text: string): string[] {
	const code = codeOnly(text);
	const lines = text.split('\n');
	const lineOf = (index: number) => code.slice(0, index).split('\n').length;
	const found: string[] = [];
	const stack: Array<{ bracket: string; call: boolean }> = [];
	for (let i = 0; i < code.length; i++) {
		const c = code[i];
		if (c === '(' || c === '[' || c === '{') {
			const before = code.slice(0, i).trimEnd();
			const call =
				c === '(' &&
				/[\w$)\]]$/.test(before) &&
				!/\b(if|for|while|switch|catch|function)$/.test(before);
			stack.push({ bracket: c, call });
		} else if (c === ')' || c === ']' || c === '}') stack.pop();
		else if (code.startsWith('...', i) && stack[stack.length - 1]?.call) {
			found.push(`${lineOf(i)}: ${lines[lineOf(i) - 1].trim()}`);
			i += 2;
		} else if (code.startsWith('.apply(', i))
			found.push(`${lineOf(i)}: ${lines[lineOf(i) - 1].trim()}`);
	}
	return found;
}

const files = packageSources();
const spreads = files
	.map((file) => [relative(ROOT, file), spreadCalls(readFileSync(file, 'utf8'))] as const)
	.filter(([, found]) => found.length > 0);

describe('no call spreads an array into its arguments', () => {
	it('in nodes/ and credentials/', () => {
		expect(spreads.flatMap(([file, found]) => found.map((f) => `${file}:${f}`))).toEqual([]);
	});
});

describe('the scanner can fail', () => {
	it('flags spreads in calls and .apply, not in literals, strings or comments', () => {
		const text = [
			'const a = Math.max(...list.map((x) => x.n));',
			'items.push(first, ...rest);',
			'const b = fn.apply(null, list);',
			'const c = [...list, ...other];',
			'const d = { ...record, id };',
			"const e = 'push(...x)'; // Math.min(...y)",
			'call([...list]);',
			'if (x) { y.push(...z); }',
		].join('\n');
		expect(spreadCalls(text)).toEqual([
			'1: const a = Math.max(...list.map((x) => x.n));',
			'2: items.push(first, ...rest);',
			'3: const b = fn.apply(null, list);',
			'8: if (x) { y.push(...z); }',
		]);
	});
});
