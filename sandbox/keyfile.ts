/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only: the sandbox keeps its key in a file of the user's */
// A key kept in a file, so a credential saved in n8n keeps working when the sandbox restarts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { homedir } from 'os';
import { dirname, join } from 'path';

import { SANDBOX_KEY } from './index';

/** Where `--keep-key` keeps it: in the user's folder, outside any repository. */
export function defaultKeyFile(): string {
	return join(homedir(), '.contentgen-sandbox', 'api-key');
}

/**
 * The key in `file`, or `fresh` written there (owner-only) when the file does not exist yet.
 * A file that holds something else is refused rather than overwritten: it may be someone's.
 */
export function keptKey(file: string, fresh: string): { key: string; created: boolean } {
	if (existsSync(file)) {
		const key = readFileSync(file, 'utf8').trim();
		if (!SANDBOX_KEY.test(key))
			throw new Error(
				`--key-file ${file} holds no sandbox key (svc_ and 64 hexadecimal characters); remove it or name another file`,
			);
		return { key, created: false };
	}
	mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
	writeFileSync(file, `${fresh}\n`, { mode: 0o600 });
	return { key: fresh, created: true };
}
