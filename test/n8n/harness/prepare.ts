/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev-only: reads workflow files next to this one */
// Readies workflow files for `n8n import:workflow` + `n8n execute`: gives each a stable id n8n
// accepts (at most 21 characters), imports it inactive, points every ContentGen node at the test
// credential (or the fixture's meta.contentgenTest.credential), attaches the checks to run on its
// output, and adds a copy of each fixture marked `brokenVariant` that uses the wrong-key credential.
// A schedule trigger is swapped for a manual trigger of the same name, so `n8n execute` runs the
// rest of the workflow unchanged.
//   kind: manual (run with n8n execute), trigger (starts with our trigger: activate it), broken
//   (expected to fail), agent (its OpenAI chat model is pointed at the OpenAI credential, a local
//   OpenAI-compatible double: run it), external (needs a service the test cannot reach: import only)
// Checks come from the fixture's meta.contentgenTest.expect, or for examples from
// test/n8n/expectations.json (keyed by file name): see judge.ts.
import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import { basename, join } from 'path';

import { SPEND_SWITCH, withSpendingOn } from '../../../harness/examples';
import type { WorkflowJson } from '../../../harness/engine';
import { shortestPollGapMs } from '../../../nodes/ContentGenTrigger/schedule';
import type { Credential } from './workflows';

const TRIGGER_TYPE = 'n8n-nodes-contentgen.contentGenTrigger';
const OUR_PREFIX = 'n8n-nodes-contentgen.';
const STARTING_TYPES = ['n8n-nodes-base.manualTrigger'];
const SCHEDULE_TYPES = ['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.cron'];
// Nodes that call a third-party service with credentials of their own.
const EXTERNAL_TYPE = /^@n8n\/n8n-nodes-langchain\.(lmChat|lm|embeddings)/;
// The one of them the test can stand in for: a chat model that speaks OpenAI's API.
const OPENAI_CHAT_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';
// The legs wait about a minute for a trigger to react; an example may poll less often.
const EVERY_MINUTE = { item: [{ mode: 'everyMinute' }] };

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	disabled?: boolean;
}
export interface FileWorkflow {
	id?: string;
	name: string;
	active?: boolean;
	nodes: WorkflowNode[];
	connections?: unknown;
	meta?: {
		contentgenTest?: { expect?: string[]; brokenVariant?: boolean; credential?: Credential };
	} & Record<string, unknown>;
}

export interface Prepared {
	id: string;
	kind: 'manual' | 'trigger' | 'broken' | 'agent' | 'external';
	name: string;
	/** what the test changed, in words */
	note: string;
	/** the judge's expectations */
	expect: string[];
	workflow: FileWorkflow;
}

function stableId(file: string, suffix = ''): string {
	return `cg${createHash('sha256')
		.update(basename(file) + suffix)
		.digest('hex')
		.slice(0, 14)}`;
}

function withCredential(workflow: FileWorkflow, credential: Credential): FileWorkflow {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type.startsWith(OUR_PREFIX)
				? { ...node, credentials: { contentGenApi: credential } }
				: node,
		),
	};
}

export function prepareWorkflows(
	files: string[],
	credentials: { account: Credential; wrongKey: Credential; openAi?: Credential },
): Prepared[] {
	const expectations = JSON.parse(
		readFileSync(join(__dirname, '..', 'expectations.json'), 'utf8'),
	) as Record<string, string[]>;
	const seen = new Set<string>();
	const prepared: Prepared[] = [];
	for (const file of files) {
		const original = JSON.parse(readFileSync(file, 'utf8')) as FileWorkflow;
		if (!Array.isArray(original.nodes)) throw new Error(`${file}: not a workflow (no nodes array)`);
		const id =
			original.id && original.id.length <= 21 && !seen.has(original.id)
				? original.id
				: stableId(file);
		seen.add(id);
		const notes: string[] = [];
		let nodes = original.nodes;
		const schedule = nodes.find((n) => SCHEDULE_TYPES.includes(n.type));
		if (
			schedule &&
			!nodes.some((n) => STARTING_TYPES.includes(n.type) || n.type === TRIGGER_TYPE)
		) {
			nodes = nodes.map((n) =>
				n === schedule ? { ...n, type: STARTING_TYPES[0], typeVersion: 1, parameters: {} } : n,
			);
			notes.push(`schedule trigger "${schedule.name}" run as a manual trigger`);
		}
		// Only a trigger that polls less often than every minute: a faster one (the fixtures poll
		// every 15 s) keeps its Poll Times.
		const slow = (n: WorkflowNode) =>
			n.type === TRIGGER_TYPE &&
			shortestPollGapMs(n.parameters?.pollTimes ?? EVERY_MINUTE) > 60_000;
		if (nodes.some(slow)) {
			nodes = nodes.map((n) =>
				slow(n) ? { ...n, parameters: { ...n.parameters, pollTimes: EVERY_MINUTE } } : n,
			);
			notes.push('its trigger polled every minute');
		}
		// The examples ship their publishing nodes switched off; the sandbox posts nowhere.
		const switchedOff = (n: WorkflowNode) => n.type.startsWith(OUR_PREFIX) && n.disabled === true;
		if (nodes.some(switchedOff)) {
			nodes = nodes.map((n) => (switchedOff(n) ? { ...n, disabled: false } : n));
			notes.push('its switched-off ContentGen nodes turned on');
		}
		// They ask before spending credits; the sandbox charges nobody.
		if (nodes.some((n) => n.name === SPEND_SWITCH)) {
			nodes = withSpendingOn({ nodes } as unknown as WorkflowJson)
				.nodes as unknown as WorkflowNode[];
			notes.push(`"${SPEND_SWITCH}" set to true`);
		}
		const openAi = credentials.openAi;
		const standIn = (n: WorkflowNode) => openAi !== undefined && n.type === OPENAI_CHAT_TYPE;
		const external = nodes
			.filter((n) => EXTERNAL_TYPE.test(n.type) && !standIn(n))
			.map((n) => n.name);
		const startsWithTrigger =
			nodes.some((n) => n.type === TRIGGER_TYPE) &&
			!nodes.some((n) => STARTING_TYPES.includes(n.type));
		let kind: Prepared['kind'] = startsWithTrigger ? 'trigger' : 'manual';
		if (openAi && nodes.some(standIn)) {
			nodes = nodes.map((n) => (standIn(n) ? { ...n, credentials: { openAiApi: openAi } } : n));
			kind = 'agent';
			notes.push(
				`model: ${nodes
					.filter(standIn)
					.map((n) => `"${n.name}"`)
					.join(', ')} answered by a scripted OpenAI-compatible double`,
			);
		}
		if (external.length > 0) {
			kind = 'external';
			notes.push(`needs ${external.join(', ')}`);
		}
		const expect = original.meta?.contentgenTest?.expect ?? expectations[basename(file)] ?? [];
		const credential = original.meta?.contentgenTest?.credential ?? credentials.account;
		const meta = { ...original.meta, contentgenTest: { expect } };
		prepared.push({
			id,
			kind,
			name: original.name,
			note: notes.join('; '),
			expect,
			workflow: { ...withCredential({ ...original, nodes }, credential), id, active: false, meta },
		});
		if (original.meta?.contentgenTest?.brokenVariant) {
			const brokenId = stableId(file, 'wrong-key');
			const name = `${original.name} (wrong API key)`;
			prepared.push({
				id: brokenId,
				kind: 'broken',
				name,
				note: 'wrong API key',
				expect,
				workflow: {
					...withCredential({ ...original, nodes }, credentials.wrongKey),
					id: brokenId,
					name,
					active: false,
					meta,
				},
			});
		}
	}
	return prepared;
}
