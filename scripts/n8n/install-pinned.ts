/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals -- a command: prints and sets the exit code */
/**
 * Installs every pinned n8n (test/n8n/versions.json) into its cache folder, each with the Node it
 * runs on, exactly as the real-n8n legs would on their first use; a version already installed is
 * reused. CI starts it in the background while the unit tests run, so the legs find n8n installed.
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

// Side by side: each install mostly waits for the registry, into its own folder.
async function main(): Promise<void> {
	await Promise.all([install('latest2'), install('line1')]);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
