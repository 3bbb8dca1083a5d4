/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only: reads example workflow files */
// Workflows for the real-n8n tests: the repository's examples pointed at the test's credentials,
// and small ones built here (one ContentGen node after a manual trigger, a trigger, an HTTP Request).
import { readFileSync } from 'fs';
import { basename } from 'path';

import { withPublishingOn, type ExampleWorkflow } from '../../../harness/examples';

export const OUR_PREFIX = 'n8n-nodes-contentgen.';
const SCHEDULE_TYPES = ['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.cron'];

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}
export interface Workflow {
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
}
export interface Credential {
	id: string;
	name: string;
}

/** `nodes` in a line, each feeding the next. */
export function chain(name: string, nodes: WorkflowNode[]): Workflow {
	const connections: Workflow['connections'] = {};
	nodes.forEach((node, i) => {
		if (i > 0)
			connections[nodes[i - 1].name] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
		node.position = [i * 220, 0];
	});
	return { name, nodes, connections };
}

export const manualTrigger = (): WorkflowNode => ({
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
});

export function contentGen(
	name: string,
	credential: Credential,
	parameters: Record<string, unknown>,
): WorkflowNode {
	return {
		name,
		type: `${OUR_PREFIX}contentGen`,
		typeVersion: 2,
		position: [0, 0],
		parameters,
		credentials: { contentGenApi: credential },
	};
}

/** Our trigger, polling every 15 s (n8n's finest poll interval is a cron with seconds). */
export function contentGenTrigger(
	name: string,
	credential: Credential,
	parameters: Record<string, unknown>,
): WorkflowNode {
	const every15s = ['0', '15', '30', '45'].map((s) => ({
		mode: 'custom',
		cronExpression: `${s} * * * * *`,
	}));
	return {
		name,
		type: `${OUR_PREFIX}contentGenTrigger`,
		typeVersion: 1.1,
		position: [0, 0],
		parameters: { pollTimes: { item: every15s }, ...parameters },
		credentials: { contentGenApi: credential },
	};
}

/** n8n's HTTP Request node using our credential as a "Predefined Credential Type". */
export function httpWithOurCredential(
	name: string,
	credential: Credential,
	url: string,
): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		parameters: {
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'contentGenApi',
			options: {},
		},
		credentials: { contentGenApi: credential },
	};
}

/**
 * An example from examples/, its ContentGen nodes pointed at `credential` and its OpenAI model (if
 * any) at `openAi`. A schedule trigger stays: "Execute workflow" starts from it as a person would.
 */
export function example(
	file: string,
	credential: Credential,
	openAi?: Credential,
): Workflow & { file: string } {
	// The sandbox posts nowhere: the nodes an example ships switched off run here too.
	const original = withPublishingOn(JSON.parse(readFileSync(file, 'utf8')) as ExampleWorkflow);
	const nodes = (original.nodes as unknown as WorkflowNode[]).map((node) => {
		if (node.type.startsWith(OUR_PREFIX))
			return { ...node, credentials: { contentGenApi: credential } };
		if (openAi && node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi') {
			return { ...node, credentials: { openAiApi: openAi } };
		}
		return node;
	});
	return { file: basename(file), name: original.name, nodes, connections: original.connections };
}

/** The node an example's run ends at: its last node that is not a sticky note. */
export function lastStep(workflow: Workflow): string {
	const steps = workflow.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote');
	return steps[steps.length - 1].name;
}

export const startsWithSchedule = (w: Workflow) =>
	w.nodes.some((n) => SCHEDULE_TYPES.includes(n.type));
