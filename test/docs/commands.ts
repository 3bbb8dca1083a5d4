/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: reads the docs, probes a port and the sandbox */
/**
 * The shell commands the docs show: every fenced `bash` block of README.md, BENCHMARKS.md and
 * docs/*.md. A block marked `<!-- install:... -->` is one command (the real-n8n legs run it whole);
 * in any other block each line is one, a line whose quote is still open running on to the next.
 * Comments after the command are left out.
 */
import { readFileSync } from 'fs';
import { createServer } from 'net';
import { join } from 'path';

import { documents } from '../../bench/figures';

export interface DocCommand {
	/** file:line of the command's first line */
	where: string;
	/** the command as written (the lines of a marked block joined by newlines) */
	command: string;
	/** the <!-- marker --> right before its block, if any */
	marker?: string;
}

/** The same documents whose figures come from the benchmark run. */
export const docFiles = documents;

/** Whether a quote opened on the line is still open at its end. */
function openQuote(line: string, open: string | null): string | null {
	let quote = open;
	for (let i = 0; i < line.length; i++) {
		const c = line[i];
		if (quote === null && c === '#' && (i === 0 || /\s/.test(line[i - 1]))) break;
		if (c === '\\' && quote !== "'") i++;
		else if (quote === null && (c === "'" || c === '"')) quote = c;
		else if (c === quote) quote = null;
	}
	return quote;
}

/** The line without a trailing `# comment` outside quotes. */
function withoutComment(line: string): string {
	let quote: string | null = null;
	for (let i = 0; i < line.length; i++) {
		const c = line[i];
		if (quote === null && c === '#' && (i === 0 || /\s/.test(line[i - 1])))
			return line.slice(0, i).trimEnd();
		if (c === '\\' && quote !== "'") i++;
		else if (quote === null && (c === "'" || c === '"')) quote = c;
		else if (c === quote) quote = null;
	}
	return line.trimEnd();
}

export function extractCommands(file: string, markdown: string): DocCommand[] {
	const lines = markdown.split('\n');
	const commands: DocCommand[] = [];
	for (let i = 0; i < lines.length; i++) {
		if (!/^```(bash|sh|shell)\s*$/.test(lines[i])) continue;
		const marker = /^<!-- (\S+) -->$/.exec(lines[i - 1] ?? '')?.[1];
		const body: Array<{ text: string; line: number }> = [];
		for (i++; i < lines.length && !lines[i].startsWith('```'); i++)
			body.push({ text: lines[i], line: i + 1 });
		if (marker) {
			commands.push({
				where: `${file}:${body[0]?.line ?? i}`,
				command: body.map((b) => withoutComment(b.text)).join('\n'),
				marker,
			});
			continue;
		}
		let current: { text: string; line: number } | null = null;
		let quote: string | null = null;
		for (const { text, line } of body) {
			if (current === null) {
				if (text.trim() === '' || text.trim().startsWith('#')) continue;
				current = { text: withoutComment(text), line };
			} else current.text += `\n${quote === null ? withoutComment(text) : text}`;
			quote = openQuote(text, quote);
			if (quote === null && !current.text.endsWith('\\')) {
				commands.push({ where: `${file}:${current.line}`, command: current.text });
				current = null;
			}
		}
		if (current) commands.push({ where: `${file}:${current.line}`, command: current.text });
	}
	return commands;
}

export function docCommands(root: string): DocCommand[] {
	return docFiles(root).flatMap((file) =>
		extractCommands(file, readFileSync(join(root, file), 'utf8')),
	);
}

/** Whether nothing listens on `port` of this machine yet. */
export async function portIsFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer()
			.once('error', () => resolve(false))
			.once('listening', () => server.close(() => resolve(true)))
			.listen(port, '127.0.0.1');
	});
}

/** A GET of the API with a key, as the docs' commands leave the sandbox. */
export async function apiGet(baseUrl: string, key: string, path: string) {
	const response = await fetch(`${baseUrl}/api/v1${path}`, {
		headers: { Authorization: `Bearer ${key}` },
	});
	return {
		status: response.status,
		body: (await response.json()) as { data: Record<string, unknown> },
	};
}

/** The demo's output in docs/sandbox.md: the nodes it lists and its credits line must be a real run's. */
export function checkDemoOutput(root: string, output: string): void {
	const documented = readFileSync(join(root, 'docs', 'sandbox.md'), 'utf8');
	const sample = /```\n(Loading n8n's workflow engine[\s\S]*?)```/.exec(documented)?.[1] ?? '';
	const nodes = (text: string) => [...text.matchAll(/^ {2}✓ (.+?) \(/gm)].map((m) => m[1]);
	const credits = (text: string) => /^ {2}credits +(.+)$/m.exec(text)?.[1];
	expect(output).toContain('Demo finished.');
	expect(nodes(sample).length).toBeGreaterThan(3);
	expect(nodes(output)).toEqual(nodes(sample));
	expect(credits(output)).toBe(credits(sample));
}
