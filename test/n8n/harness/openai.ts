/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only: starts a local model double */
// The scripted OpenAI-compatible model (test/n8n/harness/openai-double.ts) as a child process, so the
// AI-agent example runs without a real model.
import { readFileSync } from 'fs';
import { join } from 'path';

import { REPO } from './n8n';
import { Gone, tail, waitFor, type Processes } from './processes';

export async function startOpenAiDouble(processes: Processes, work: string): Promise<string> {
	return (await openAiDouble(processes, work)).url;
}

/** The double's base URL and the URL of its record of every request (GET). */
export async function openAiDouble(
	processes: Processes,
	work: string,
): Promise<{ url: string; recordUrl: string }> {
	const log = join(work, 'openai-double.log');
	const started = processes.start(
		'openai-double',
		join(REPO, 'node_modules', '.bin', 'tsx'),
		[join(REPO, 'test/n8n/harness/openai-double.ts'), '--port', '0'],
		{ log },
	);
	const line = await waitFor('OpenAI double listens', 60, () => {
		if (started.child.exitCode !== null) throw new Gone(tail(log));
		return readFileSync(log, 'utf8')
			.split('\n')
			.find((l) => l.startsWith('{"url"'));
	});
	return JSON.parse(line) as { url: string; recordUrl: string };
}
