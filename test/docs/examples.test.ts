/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: lists the examples folder */
/**
 * Every workflow under examples/ checked as a file: shape, node types, credential, and parameter
 * names the node still knows. (test/e2e/examples.test.ts runs them.)
 */
import { readdirSync } from 'fs';
import {
	NodeConnectionTypes,
	NodeHelpers,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';

import {
	CONTENTGEN_TYPES,
	EXAMPLES_DIR,
	loadExample,
	node,
	SPEND_GATE,
	SPEND_SWITCH,
	withSpendingOn,
	type ExampleWorkflow,
} from '../../harness/examples';
import { TestNodeTypes } from '../helpers/engine';

const CREDENTIAL = { contentGenApi: { id: 'contentgen-sandbox', name: 'ContentGen account' } };
const START_TYPES: Record<string, number> = {
	'n8n-nodes-base.manualTrigger': 1,
	'n8n-nodes-base.scheduleTrigger': 1.2,
};
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';
/** The spend switch's two nodes, at the versions the stand-ins of harness/ behave as. */
const SWITCH_TYPES: Record<string, number> = {
	'n8n-nodes-base.set': 3.4,
	'n8n-nodes-base.if': 2.2,
};
/** Only the AI example may use nodes beyond ours, the start nodes and the spend switch... */
const AI_TYPES = ['@n8n/n8n-nodes-langchain.agent', '@n8n/n8n-nodes-langchain.lmChatOpenAi'];
/**
 * ...and the trigger's example n8n's Remove Duplicates (version 2), whose parameters are named as
 * in n8n 2.41.1's RemoveDuplicatesV2.description: "Remove Items Processed in Previous Executions",
 * "Value Is New" (the default `logic`, so n8n does not save it), on the event id.
 */
const REMOVE_DUPLICATES = 'n8n-nodes-base.removeDuplicates';
const DEDUPE_ON_EVENT_ID = {
	operation: 'removeItemsSeenInPreviousExecutions',
	dedupeValue: '={{ $json.eventId }}',
	options: {},
};
/** Parameters n8n itself adds: to polling nodes (pollTimes) and to nodes used as tools. */
const ADDED_BY_N8N = ['pollTimes', 'descriptionType', 'toolDescription'];

const FILES = readdirSync(EXAMPLES_DIR)
	.filter((file) => file.endsWith('.json'))
	.sort();

const nodeTypes = new TestNodeTypes();

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Nodes a run reaches from its start over main connections (an If's false output included, its
 * true output only when `throughGate`), plus the agents whose tools those are not: a tool node
 * runs when the agent it serves does, so the agent stands for it.
 */
function reached(example: ExampleWorkflow, throughGate: boolean): Set<string> {
	const starts = example.nodes.filter((n) => n.type in START_TYPES).map((n) => n.name);
	const seen = new Set<string>(starts);
	const queue = [...starts];
	while (queue.length > 0) {
		const from = queue.shift()!;
		const outputs = example.connections[from]?.main ?? [];
		outputs.forEach((branch, index) => {
			if (from === SPEND_GATE && index === 0 && !throughGate) return;
			for (const connection of branch ?? []) {
				if (!seen.has(connection.node)) {
					seen.add(connection.node);
					queue.push(connection.node);
				}
			}
		});
	}
	return seen;
}

/** Where a node's spending happens: itself, or for a tool, the agent it is connected to. */
function spendsAt(example: ExampleWorkflow, spender: INode): string {
	const tool = example.connections[spender.name]?.ai_tool?.[0]?.[0];
	return tool ? tool.node : spender.name;
}

function ourType(type: string): INodeType {
	// A node used as a tool is the same node type with "Tool" appended by n8n.
	return nodeTypes.getByNameAndVersion(type.replace(/Tool$/, ''));
}

/** Parameter paths of `given` that the node would drop: unknown names, or not shown for this resource/operation. */
function unknownParameters(
	given: INodeParameters,
	kept: INodeParameters | null,
	path = '',
): string[] {
	const problems: string[] = [];
	for (const [key, value] of Object.entries(given)) {
		const where = `${path}${key}`;
		if (!kept || !(key in kept)) {
			problems.push(where);
		} else if (
			typeof value === 'object' &&
			value !== null &&
			!Array.isArray(value) &&
			!('__rl' in value)
		) {
			problems.push(
				...unknownParameters(value as INodeParameters, kept[key] as INodeParameters, `${where}.`),
			);
		}
	}
	return problems;
}

function checkOurNode(example: ExampleWorkflow, ourNode: INode): void {
	const context = `${example.name} / ${ourNode.name}`;
	expect({ context, credentials: ourNode.credentials }).toEqual({
		context,
		credentials: CREDENTIAL,
	});
	const description = ourType(ourNode.type).description;
	// An example shows a node as the editor adds it today: at its default version.
	const current = description.defaultVersion ?? description.version;
	expect({ context, typeVersion: ourNode.typeVersion }).toEqual({ context, typeVersion: current });
	const given = { ...ourNode.parameters };
	for (const key of ADDED_BY_N8N) delete given[key];
	const kept = NodeHelpers.getNodeParameters(
		description.properties,
		given,
		true,
		false,
		ourNode,
		description,
	);
	expect({ context, unknown: unknownParameters(given, kept) }).toEqual({ context, unknown: [] });
	const issues = NodeHelpers.getNodeParametersIssues(
		description.properties,
		{ ...ourNode, parameters: kept ?? {} },
		description,
	);
	expect({ context, issues: issues?.parameters ?? {} }).toEqual({ context, issues: {} });
}

describe('example workflow files', () => {
	it('the examples folder holds the five documented workflows', () => {
		expect(FILES).toEqual([
			'ai-agent-tool.json',
			'content-pipeline.json',
			'publish-finished-social.json',
			'weekly-article.json',
			'weekly-calendar.json',
		]);
	});

	it.each(FILES)('%s is an importable n8n workflow using our nodes as published', (file) => {
		const example = loadExample(file);
		expect(Object.keys(example).sort()).toEqual(
			['connections', 'id', 'name', 'nodes', 'pinData', 'settings'].sort(),
		);
		// `n8n import:workflow` refuses a workflow without an id (workflow_entity.id is NOT NULL).
		expect(example.id).toMatch(/^[A-Za-z0-9]{1,21}$/);
		expect(example.name).toMatch(/^ContentGen: /);
		expect(example.pinData).toEqual({});
		expect(example.settings).toEqual({ executionOrder: 'v1' });

		const names = example.nodes.map((n) => n.name);
		expect(new Set(names).size).toBe(names.length);
		expect(new Set(example.nodes.map((n) => n.id)).size).toBe(names.length);
		for (const [from, outputs] of Object.entries(example.connections)) {
			expect(names).toContain(from);
			for (const [type, branches] of Object.entries(outputs)) {
				for (const connection of (branches ?? []).flat()) {
					expect(names).toContain(connection?.node);
					expect(connection?.type).toBe(type);
				}
			}
		}

		for (const candidate of example.nodes) {
			if (CONTENTGEN_TYPES.includes(candidate.type)) {
				checkOurNode(example, candidate);
			} else if (candidate.type === STICKY_NOTE) {
				expect(candidate.typeVersion).toBe(1);
				expect(typeof candidate.parameters.content).toBe('string');
			} else if (candidate.type in START_TYPES) {
				expect(candidate.typeVersion).toBe(START_TYPES[candidate.type]);
				expect(candidate.credentials).toBeUndefined();
			} else if (candidate.type in SWITCH_TYPES) {
				expect([candidate.name, candidate.typeVersion]).toEqual([
					expect.stringMatching(new RegExp(`^(${escape(SPEND_SWITCH)}|${escape(SPEND_GATE)})$`)),
					SWITCH_TYPES[candidate.type],
				]);
			} else if (candidate.type === REMOVE_DUPLICATES) {
				expect({ file, typeVersion: candidate.typeVersion }).toEqual({
					file: 'publish-finished-social.json',
					typeVersion: 2,
				});
				expect(candidate.parameters).toEqual(DEDUPE_ON_EVENT_ID);
			} else {
				expect({ file, type: candidate.type }).toEqual({
					file: 'ai-agent-tool.json',
					type: expect.stringMatching(new RegExp(`^(${AI_TYPES.join('|')})$`)),
				});
			}
		}
	});

	it('every example id is its own, so importing one never replaces another', () => {
		const ids = FILES.map((file) => loadExample(file).id);
		expect(new Set(ids).size).toBe(FILES.length);
	});

	/** What a node of ours does when it runs: spends credits, posts to social profiles, or neither. */
	function effect(candidate: INode): 'spends' | 'publishes' | null {
		if (!CONTENTGEN_TYPES.includes(candidate.type)) return null;
		if (candidate.parameters.operation === 'generate') return 'spends';
		if (candidate.parameters.operation === 'publish') return 'publishes';
		return null;
	}

	it.each(FILES)(
		'%s says on a sticky note what it spends or posts, and posts only once switched on',
		(file) => {
			const example = loadExample(file);
			const notes = example.nodes
				.filter((candidate) => candidate.type === STICKY_NOTE)
				.map((candidate) => String(candidate.parameters.content));
			const effects = example.nodes.map((candidate) => [candidate, effect(candidate)] as const);
			if (effects.some(([, what]) => what === 'spends')) {
				expect({ file, notes }).toEqual({
					file,
					notes: expect.arrayContaining([expect.stringMatching(/Spends [\d.]+ credits/)]),
				});
			}
			for (const [publisher] of effects.filter(([, what]) => what === 'publishes')) {
				expect({ file, node: publisher.name, disabled: publisher.disabled }).toEqual({
					file,
					node: publisher.name,
					disabled: true,
				});
				expect({ file, notes }).toEqual({
					file,
					notes: expect.arrayContaining([
						expect.stringMatching(/^## .*[Pp]osts .*only when switched on/m),
					]),
				});
				expect(notes.join('\n')).toContain(`**${publisher.name}**`);
			}
		},
	);

	it.each(FILES)('%s: a run spends credits only once its spend switch is set to true', (file) => {
		const example = loadExample(file);
		const spenders = example.nodes.filter((candidate) => effect(candidate) === 'spends');
		if (spenders.length === 0) {
			expect(example.nodes.map((n) => n.name)).not.toContain(SPEND_SWITCH);
			return;
		}
		const switchNode = node(example, SPEND_SWITCH);
		expect(switchNode.parameters.assignments).toEqual({
			assignments: [
				{ id: expect.any(String), name: 'spend_credits', value: false, type: 'boolean' },
			],
		});
		expect(example.connections[SPEND_SWITCH]?.main).toEqual([
			[{ node: SPEND_GATE, type: 'main', index: 0 }],
		]);
		const gate = node(example, SPEND_GATE);
		expect(
			(gate.parameters.conditions as { conditions: Array<{ leftValue: string }> }).conditions,
		).toEqual([
			expect.objectContaining({
				leftValue: '={{ $json.spend_credits }}',
				operator: { type: 'boolean', operation: 'true', singleValue: true },
			}),
		]);
		const asShipped = reached(example, false);
		const switchedOn = reached(example, true);
		for (const spender of spenders) {
			const where = spendsAt(example, spender);
			expect({ file, spender: spender.name, asShipped: asShipped.has(where) }).toEqual({
				file,
				spender: spender.name,
				asShipped: false,
			});
			expect(switchedOn.has(where)).toBe(true);
		}
		const notes = example.nodes
			.filter((candidate) => candidate.type === STICKY_NOTE)
			.map((candidate) => String(candidate.parameters.content))
			.join('\n');
		expect(notes).toContain(`**${SPEND_SWITCH}**`);
		expect(notes).toContain('`spend_credits` to true');
	});

	it('a spender wired around the switch would be caught', () => {
		const example = loadExample('content-pipeline.json');
		const bypass: ExampleWorkflow = {
			...example,
			connections: {
				...example.connections,
				Start: { main: [[{ node: 'Pick a project', type: NodeConnectionTypes.Main, index: 0 }]] },
			},
		};
		expect(reached(example, false).has('Generate article')).toBe(false);
		expect(reached(bypass, false).has('Generate article')).toBe(true);
	});

	it('withSpendingOn turns the switch to true and nothing else', () => {
		const example = loadExample('content-pipeline.json');
		const on = withSpendingOn(example);
		expect(node(on, SPEND_SWITCH).parameters.assignments).toEqual({
			assignments: [expect.objectContaining({ name: 'spend_credits', value: true })],
		});
		expect(on.nodes.filter((n) => n.name !== SPEND_SWITCH)).toEqual(
			example.nodes.filter((n) => n.name !== SPEND_SWITCH),
		);
	});

	it("the notes name what a user must fill in or allow: the placeholder source URL, the floor's scope", () => {
		const note = (file: string) =>
			loadExample(file)
				.nodes.filter((candidate) => candidate.type === STICKY_NOTE)
				.map((candidate) => String(candidate.parameters.content))
				.join('\n');
		const pipeline = loadExample('content-pipeline.json');
		const source = String(node(pipeline, 'Generate social posts').parameters.sourceUrl);
		expect(source).toMatch(/^=https:\/\/blog\.example\.com\//);
		expect(note('content-pipeline.json')).toContain('`https://blog.example.com/<slug>`');
		expect(note('content-pipeline.json')).toMatch(/\*\*Placeholder\*\*/);
		const weekly = loadExample('weekly-article.json');
		expect(
			(node(weekly, 'Generate weekly article').parameters.options as IDataObject).minimumBalance,
		).toBe(10);
		expect(note('weekly-article.json')).toMatch(/`user` scope/);
	});

	it('a renamed parameter would be caught', () => {
		const example = loadExample('content-pipeline.json');
		const generate = node(example, 'Generate article');
		const broken = {
			...generate,
			parameters: { ...generate.parameters, options: { pollIntervalSeconds: 15 } },
		};
		expect(() => checkOurNode(example, broken)).toThrow(/options\.pollIntervalSeconds/);
	});
});
