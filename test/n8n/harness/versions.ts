/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev-only: reads the environment for the install folder */
// The pinned n8n versions (test/n8n/versions.json) and where each is installed.
import { homedir } from 'os';
import { join } from 'path';

import pins from '../versions.json';

export interface N8nPin {
	/** key in versions.json */
	line: 'latest2' | 'line1';
	version: string;
	node: number;
	overrides: Record<string, string>;
	/**
	 * the install folder: CONTENTGEN_N8N_CACHE (latest2) or CONTENTGEN_N8N_1X_CACHE (line1), else
	 * ~/.cache/n8n-nodes-contentgen/n8n-<version>
	 */
	cache: string;
}

export function pin(line: N8nPin['line']): N8nPin {
	const entry = pins[line];
	const cache =
		process.env[line === 'line1' ? 'CONTENTGEN_N8N_1X_CACHE' : 'CONTENTGEN_N8N_CACHE'] ??
		join(homedir(), '.cache', 'n8n-nodes-contentgen', `n8n-${entry.version}`);
	return { line, ...entry, overrides: { ...entry.overrides }, cache };
}
