/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev-only: reads the example workflow files from disk */
// The example workflows under examples/, loaded for the tests and the demo.
import { readFileSync } from 'fs';
import { join } from 'path';

import type { INode } from 'n8n-workflow';

import type { WorkflowJson } from './engine';

export const EXAMPLES_DIR = join(__dirname, '..', 'examples');
export const CONTENTGEN_TYPES = [
	'n8n-nodes-contentgen.contentGen',
	'n8n-nodes-contentgen.contentGenTool',
	'n8n-nodes-contentgen.contentGenTrigger',
];

export interface ExampleWorkflow extends WorkflowJson {
	/** n8n import:workflow needs it (workflow_entity.id is NOT NULL). */
	id?: string;
	name: string;
	nodes: INode[];
}

export function loadExample(file: string): ExampleWorkflow {
	return JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow;
}

export function node(workflow: WorkflowJson, name: string): INode {
	const found = workflow.nodes.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`The workflow "${workflow.name}" has no node "${name}"`);
	return found;
}

/**
 * The examples wait at the service's cadence (articles 15 s, social 5 s). Runs against the
 * sandbox shorten that: every ContentGen node that waits polls at `pollInterval` seconds.
 * Returns a copy; the example itself is untouched.
 */
export function withPollInterval<T extends WorkflowJson>(workflow: T, pollInterval: number): T {
	const copy = JSON.parse(JSON.stringify(workflow)) as T;
	for (const candidate of copy.nodes) {
		if (!CONTENTGEN_TYPES.includes(candidate.type)) continue;
		const parameters = candidate.parameters;
		const waits =
			parameters.waitForCompletion === true || parameters.operation === 'waitForCompletion';
		if (!waits) continue;
		const options = (parameters.options ?? {}) as Record<string, unknown>;
		parameters.options = { ...options, pollInterval };
	}
	return copy;
}

/**
 * The switch an example that spends credits asks through: a Set node whose `spend_credits` field
 * ships false, then an If that lets the run on only when it is true.
 */
export const SPEND_SWITCH = 'Spend credits? (set to true to generate)';
export const SPEND_GATE = 'Only if spending is on';

/** The example with its spend switch set to true (a run generates). Returns a copy. */
export function withSpendingOn<T extends WorkflowJson>(workflow: T): T {
	const copy = JSON.parse(JSON.stringify(workflow)) as T;
	for (const candidate of copy.nodes) {
		if (candidate.name !== SPEND_SWITCH) continue;
		const fields = (
			candidate.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }
		).assignments;
		for (const field of fields) if (field.name === 'spend_credits') field.value = true;
	}
	return copy;
}

/**
 * The examples ship with every node that posts to social profiles turned off (disabled) and their
 * spend switch at false, so a manual run neither posts nor spends by surprise. Runs against the
 * sandbox, which posts nowhere and charges nobody, turn both on. Returns a copy; the example
 * itself is untouched.
 */
export function withPublishingOn<T extends WorkflowJson>(workflow: T): T {
	const copy = withSpendingOn(workflow);
	for (const candidate of copy.nodes) {
		if (CONTENTGEN_TYPES.includes(candidate.type) && candidate.disabled) candidate.disabled = false;
	}
	return copy;
}
