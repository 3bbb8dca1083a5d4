/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only: starts a local model double */
// The scripted OpenAI-compatible model (scripts/n8n/openai-double.ts) as a child process, so the
// AI-agent example runs without a real model; returns its base URL.
import { readFileSync } from 'fs';
import { join } from 'path';

import { REPO } from './n8n';
import { Gone, tail, waitFor, type Processes } from './processes';

export async function startOpenAiDouble(processes: Processes, work: string): Promise<string> {
	const log = join(work, 'openai-double.log');
	const started = processes.start(
		'openai-double',
		join(REPO, 'node_modules', '.bin', 'tsx'),
		[join(REPO, 'scripts/n8n/openai-double.ts'), '--port', '0'],
		{ log },
	);
	const line = await waitFor('OpenAI double listens', 60, () => {
		if (started.child.exitCode !== null) throw new Gone(tail(log));
		return readFileSync(log, 'utf8')
			.split('\n')
			.find((l) => l.startsWith('{"url"'));
	});
	return (JSON.parse(line) as { url: string }).url;
}
