/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- reads the source tree from disk */
/** The package's own source files, for the guards and the docs tests that read them. */
import { readdirSync } from 'fs';
import { join } from 'path';

export const ROOT = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** Every .ts file of nodes/ and credentials/, as absolute paths. */
export const packageSources = (): string[] => [
	...sourceFiles(join(ROOT, 'nodes')),
	...sourceFiles(join(ROOT, 'credentials')),
];
