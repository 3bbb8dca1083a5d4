/**
 * Shared by the fault, bad-input and security suites: a sandbox with room to work, and one
 * ContentGen node run through n8n's engine against it.
 */
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow, type RunResult } from '../helpers/engine';

/** Rate limits and the balance out of the way unless a test sets them. */
export async function suiteSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const sb = await startSandbox({ speed: 1000, quiet: true, ...options });
	sb.control.setRateLimit({ perMinute: 1_000_000, perDay: -1 });
	sb.control.setCredits({ subscription: 10_000, purchased: 0 });
	return sb;
}

/** The records every suite's cases read and write: a project, a finished article and post. */
export interface Records {
	sb: Sandbox;
	projectId: string;
	articleId: string;
	contentId: string;
}

/** A suite sandbox a day into its life, with one finished article and one finished post. */
export async function seededRecords(seed: number, options: SandboxOptions = {}): Promise<Records> {
	const sb = await suiteSandbox({ seed, ...options });
	sb.control.advance(86_400_000);
	const [articleId] = sb.control.seedArticles(1, { status: 'cms' });
	const [contentId] = sb.control.seedSocial(1, {
		status: 'completed',
		platforms: ['instagram', 'linkedin'],
	});
	return { sb, projectId: sb.control.projects()[0].id, articleId, contentId };
}

export function credentialsOf(sb: Sandbox, apiKey = sb.apiKey) {
	return { apiKey, baseUrl: sb.url };
}

export async function runNode(
	sb: Sandbox,
	parameters: IDataObject,
	options: {
		input?: IDataObject[];
		apiKey?: string;
		continueOnFail?: boolean;
	} = {},
): Promise<RunResult> {
	return await runWorkflow(
		singleNodeWorkflow(parameters, {
			...(options.continueOnFail ? { continueOnFail: true } : {}),
		}),
		{ credentials: credentialsOf(sb, options.apiKey), input: options.input },
	);
}

/** The class name of the error that stopped the run (NodeOperationError, NodeApiError, ...). */
export function errorName(result: RunResult): string | undefined {
	return (result.run.data.resultData.error as { name?: string } | undefined)?.name;
}

export { byId, fromList, UUID_PATTERN } from './cases/locators';
