/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test: reads the docs */
/**
 * What the docs' commands and links must get right without running them (./commands.test.ts
 * runs them): an install never leaves an old tarball beside the new one, and every link leads to
 * a file of the repository.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

import { docCommands, docFiles } from './commands';

const ROOT = join(__dirname, '..', '..');
const COMMANDS = docCommands(ROOT);
const oneLine = (command: string) => command.replace(/\s*\n\s*/g, ' ⏎ ');

describe('install commands in the docs', () => {
	it('every one that copies the tarball into a nodes folder removes the old tarball first', () => {
		const copies = COMMANDS.filter((doc) => /cp n8n-nodes-contentgen-\*\.tgz/.test(doc.command));
		expect(copies.length).toBeGreaterThan(2);
		const unsafe = copies
			.filter(
				(doc) =>
					!/rm -f [^\s]*nodes\/n8n-nodes-contentgen-\*\.tgz && cp n8n-nodes-contentgen-\*\.tgz/.test(
						doc.command,
					),
			)
			.map((doc) => `${doc.where}: ${oneLine(doc.command)}`);
		expect(unsafe).toEqual([]);
	});
});

describe('links in the docs', () => {
	it.each(docFiles(ROOT))('%s links only files that exist', (file) => {
		const text = readFileSync(join(ROOT, file), 'utf8');
		const base = join(ROOT, file, '..');
		const missing = [...text.matchAll(/\]\(([^)#\s]+)(#[^)\s]*)?\)/g)]
			.map((m) => m[1])
			.filter((target) => !/^[a-z]+:/.test(target))
			.filter((target) => !existsSync(join(base, target)));
		expect({ file, missing }).toEqual({ file, missing: [] });
	});
});
