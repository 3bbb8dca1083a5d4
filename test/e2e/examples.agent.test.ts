/**
 * The AI-agent example (examples/ai-agent-tool.json) against the sandbox through n8n's engine: its
 * wiring, and each ContentGen tool run with the arguments a model would send (no model runs here;
 * the real-n8n legs run the agent against a scripted one).
 */
import {
	traverseNodeParameters,
	type FromAIArgument,
	type IDataObject,
	type INode,
} from 'n8n-workflow';

import { loadExample, node, withPollInterval, type ExampleWorkflow } from '../../harness/examples';
import { exampleSandbox } from './example-sandbox';
import { PACKAGE, runWorkflow } from '../helpers/engine';

const CREDENTIAL = { contentGenApi: { id: 'contentgen-sandbox', name: 'ContentGen account' } };

const world = exampleSandbox();
const { ledgerSince } = world;

describe('ai-agent-tool against the sandbox', () => {
	const example = loadExample('ai-agent-tool.json');
	const tools = example.nodes.filter((n) => n.type === `${PACKAGE}.contentGenTool`);

	function fromAiKeys(toolNode: INode): Array<[string, string | undefined]> {
		const collected: FromAIArgument[] = [];
		traverseNodeParameters(toolNode.parameters, collected);
		return collected.map((argument) => [argument.key, argument.type]);
	}

	it('wires an agent, an OpenAI chat model and three ContentGen tools', () => {
		const agent = node(example, 'AI Agent');
		expect(agent.type).toBe('@n8n/n8n-nodes-langchain.agent');
		expect(example.connections['OpenAI Chat Model']).toEqual({
			ai_languageModel: [[{ node: agent.name, type: 'ai_languageModel', index: 0 }]],
		});
		expect(tools.map((tool) => tool.name)).toEqual([
			'List projects',
			'Generate article',
			'Check credits',
		]);
		for (const tool of tools) {
			expect(tool.credentials).toEqual(CREDENTIAL);
			expect(example.connections[tool.name]).toEqual({
				ai_tool: [[{ node: agent.name, type: 'ai_tool', index: 0 }]],
			});
		}
		expect(fromAiKeys(node(example, 'List projects'))).toEqual([
			['limit', 'number'],
			['search', 'string'],
		]);
		expect(fromAiKeys(node(example, 'Generate article'))).toEqual([
			['topic', 'string'],
			['projectId', 'string'],
			['tone', 'string'],
		]);
		expect(fromAiKeys(node(example, 'Check credits'))).toEqual([]);
	});

	/**
	 * No LLM runs here. n8n runs a tool node with the model's arguments as its input item and
	 * resolves each `$fromAI(key)` from that item; the harness does the same: each tool node runs
	 * as the ContentGen node it wraps, fed one item holding the arguments a model would send.
	 */
	async function callTool(name: string, args: IDataObject) {
		const tool = node(example, name);
		const workflow: ExampleWorkflow = {
			name: `${example.name} / ${name}`,
			nodes: [
				node(example, 'Start'),
				{ ...tool, type: `${PACKAGE}.contentGen`, position: [200, 0] },
			],
			connections: { Start: { main: [[{ node: name, type: 'main', index: 0 }]] } },
		};
		const result = await runWorkflow(withPollInterval(workflow, 1), {
			credentials: world.credentials,
			input: [args],
		});
		expect(result.error).toBeUndefined();
		return result.output(name).map((item) => item.json);
	}

	it('the tools run with the arguments a model would give them', async () => {
		const [first] = world.sandbox.control.projects();
		const projects = await callTool('List projects', {
			limit: 5,
			search: first.business_name.slice(0, 6).toLowerCase(),
		});
		expect(projects.map((p) => p.id)).toContain(first.id);
		expect(projects.length).toBeLessThanOrEqual(5);

		const ledgerBefore = world.sandbox.control.ledger().length;
		const [article] = await callTool('Generate article', {
			topic: 'Pricing a website redesign for a small business',
			projectId: first.id,
			tone: 'casual',
		});
		expect(['cms', 'needs_editing']).toContain(article.status);
		expect(article.title).toBe('Pricing a website redesign for a small business');
		expect(ledgerSince(ledgerBefore).map((e) => [e.kind, e.recordId])).toEqual([
			['article', article.id],
		]);

		const [credits] = await callTool('Check credits', {});
		expect(credits.available_credits).toBe(world.sandbox.control.credits().available);
	});

	it('a model that leaves out an optional argument gets the default', async () => {
		const all = await callTool('List projects', { limit: 100 });
		expect(all.map((p) => p.id).sort()).toEqual(
			world.sandbox.control
				.projects()
				.map((p) => p.id)
				.sort(),
		);
	});

	it('a model that sends a bad argument gets a clear error and spends nothing', async () => {
		const ledgerBefore = world.sandbox.control.ledger().length;
		const tool = node(example, 'Generate article');
		const result = await runWorkflow(
			{
				name: 'bad tool call',
				nodes: [node(example, 'Start'), { ...tool, type: `${PACKAGE}.contentGen` }],
				connections: { Start: { main: [[{ node: tool.name, type: 'main', index: 0 }]] } },
			},
			{
				credentials: world.credentials,
				input: [{ topic: 'Hi', projectId: world.sandbox.control.projects()[0].id }],
			},
		);
		expect(result.error?.message).toMatch(/Topic/);
		expect(ledgerSince(ledgerBefore)).toEqual([]);
	});
});
