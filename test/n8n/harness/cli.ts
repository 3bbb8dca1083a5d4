/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only: writes the files n8n's CLI imports */
// n8n's own CLI on a deployment's database, before its processes start: credentials and workflows
// imported with fixed ids (`import:credentials`, `import:workflow`), workflows run with `n8n execute`.
import { mkdirSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';

import type { Deployment } from './deployment';
import type { CliResult } from './n8n';
import type { FileWorkflow } from './prepare';

export interface CredentialFile {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

async function must(deployment: Deployment, args: string[]): Promise<CliResult> {
	const result = await deployment.cli(args);
	if (result.code !== 0) {
		throw new Error(
			`n8n ${args.join(' ')} exited with ${result.code}: ${result.stdout.slice(-2000)} ${result.stderr.slice(-2000)}`,
		);
	}
	return result;
}

/** The credentials, secrets included, go through a file that is deleted right after the import. */
export async function importCredentials(
	deployment: Deployment,
	credentials: CredentialFile[],
): Promise<void> {
	const file = join(deployment.work, `credentials-${Date.now()}.json`);
	writeFileSync(file, JSON.stringify(credentials));
	try {
		await must(deployment, ['import:credentials', `--input=${file}`]);
	} finally {
		rmSync(file, { force: true });
	}
}

/** Imports the workflows (one file each) and returns `n8n list:workflow`'s lines (`id|name`). */
export async function importWorkflows(
	deployment: Deployment,
	workflows: Array<FileWorkflow & { id: string }>,
): Promise<string[]> {
	const folder = join(deployment.work, `workflows-${Date.now()}`);
	mkdirSync(folder, { recursive: true });
	for (const workflow of workflows)
		writeFileSync(join(folder, `${workflow.id}.json`), JSON.stringify(workflow, null, 2));
	await must(deployment, ['import:workflow', '--separate', `--input=${folder}`]);
	return (await must(deployment, ['list:workflow'])).stdout.split('\n');
}

/** `n8n execute --id=<id> --rawOutput`, whatever its exit code. */
export async function execute(deployment: Deployment, id: string): Promise<CliResult> {
	const result = await deployment.cli(['execute', `--id=${id}`, '--rawOutput']);
	writeFileSync(join(deployment.work, `run-${id}.out`), result.stdout);
	writeFileSync(join(deployment.work, `run-${id}.err`), result.stderr);
	return result;
}
