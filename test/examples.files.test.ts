/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: lists the examples folder */
/**
 * Every workflow under examples/ checked as a file: shape, node types, credential, and parameter
 * names the node still knows. (test/examples.test.ts runs them.)
 */
import { readdirSync } from 'fs';
import { NodeHelpers, type INode, type INodeParameters, type INodeType } from 'n8n-workflow';

import {
	CONTENTGEN_TYPES,
	EXAMPLES_DIR,
	loadExample,
	node,
	type ExampleWorkflow,
} from '../harness/examples';
import { TestNodeTypes } from './helpers/engine';

const CREDENTIAL = { contentGenApi: { id: 'contentgen-sandbox', name: 'ContentGen account' } };
const START_TYPES: Record<string, number> = {
	'n8n-nodes-base.manualTrigger': 1,
	'n8n-nodes-base.scheduleTrigger': 1.2,
};
/** Only the AI example may use nodes beyond ours and the start nodes. */
const AI_TYPES = ['@n8n/n8n-nodes-langchain.agent', '@n8n/n8n-nodes-langchain.lmChatOpenAi'];
/** Parameters n8n itself adds: to polling nodes (pollTimes) and to nodes used as tools. */
const ADDED_BY_N8N = ['pollTimes', 'descriptionType', 'toolDescription'];

const FILES = readdirSync(EXAMPLES_DIR)
	.filter((file) => file.endsWith('.json'))
	.sort();

const nodeTypes = new TestNodeTypes();

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
	expect({ context, typeVersion: ourNode.typeVersion }).toEqual({ context, typeVersion: 1 });
	const description = ourType(ourNode.type).description;
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
	it('the examples folder holds the four documented workflows', () => {
		expect(FILES).toEqual([
			'ai-agent-tool.json',
			'content-pipeline.json',
			'publish-finished-social.json',
			'weekly-article.json',
		]);
	});

	it.each(FILES)('%s is an importable n8n workflow using our nodes as published', (file) => {
		const example = loadExample(file);
		expect(Object.keys(example).sort()).toEqual(
			['connections', 'name', 'nodes', 'pinData', 'settings'].sort(),
		);
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
			} else if (candidate.type in START_TYPES) {
				expect(candidate.typeVersion).toBe(START_TYPES[candidate.type]);
				expect(candidate.credentials).toBeUndefined();
			} else {
				expect({ file, type: candidate.type }).toEqual({
					file: 'ai-agent-tool.json',
					type: expect.stringMatching(new RegExp(`^(${AI_TYPES.join('|')})$`)),
				});
			}
		}
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
