/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals -- a command: prints and sets the exit code */
/**
 * Installs the pinned n8n of each line named (latest2, line1; both when none is named) into its
 * cache folder (test/n8n/versions.json), each with the Node it runs on, exactly as the real-n8n legs
 * would on their first use; a version already installed is reused. CI installs the 2.x line in the
 * background while the checks and the tests run, and the 1.x line while the 2.x legs run.
 */
import { installN8n, nodeDirectory } from '../../test/n8n/harness/n8n';
import { pin } from '../../test/n8n/harness/versions';

async function install(line: 'latest2' | 'line1'): Promise<void> {
	const started = Date.now();
	const pinned = pin(line);
	await installN8n(pinned, await nodeDirectory(pinned.node));
	console.log(
		`n8n ${pinned.version} (${line}) in ${pinned.cache}: ${Math.round((Date.now() - started) / 1000)} s`,
	);
}

const LINES = ['latest2', 'line1'] as const;

// Side by side: each install mostly waits for the registry, into its own folder.
async function main(): Promise<void> {
	const named = process.argv.slice(2);
	const unknown = named.filter((line) => !(LINES as readonly string[]).includes(line));
	if (unknown.length > 0)
		throw new Error(`unknown line ${unknown.join(', ')}: ${LINES.join(' or ')}`);
	const lines = named.length > 0 ? LINES.filter((line) => named.includes(line)) : LINES;
	await Promise.all(lines.map(install));
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
