/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: lists the examples folder */
/**
 * Every workflow under examples/ is checked as a file (shape, node types, credential, parameter
 * names the node still knows) and run through n8n's engine against the sandbox, so none can rot.
 * The examples wait at the service's cadence (15 s / 5 s); the runs here poll every second.
 */
import { readdirSync } from 'fs';
import {
	NodeHelpers,
	traverseNodeParameters,
	type FromAIArgument,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import {
	CONTENTGEN_TYPES,
	EXAMPLES_DIR,
	loadExample,
	node,
	withPollInterval,
	withPublishingOn,
	type ExampleWorkflow,
} from '../scripts/lib/examples';
import { PACKAGE, runWorkflow, TestNodeTypes } from './helpers/engine';
import { pollHarness } from './trigger/poll';

const CREDENTIAL = { contentGenApi: { id: 'contentgen-sandbox', name: 'ContentGen account' } };
const START_TYPES: Record<string, number> = {
	'n8n-nodes-base.manualTrigger': 1,
	'n8n-nodes-base.scheduleTrigger': 1.2,
};
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';
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
function unknownParameters(given: INodeParameters, kept: INodeParameters | null, path = ''): string[] {
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
	expect({ context, credentials: ourNode.credentials }).toEqual({ context, credentials: CREDENTIAL });
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

describe('example workflows against the sandbox', () => {
	let sandbox: Sandbox;
	let credentials: { apiKey: string; baseUrl: string };

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, speed: 5000, seed: 11 });
		credentials = { apiKey: sandbox.apiKey, baseUrl: sandbox.url };
	});
	afterAll(async () => {
		await sandbox.close();
	});

	function ledgerSince(count: number) {
		return sandbox.control.ledger().slice(count);
	}

	it('content-pipeline as shipped: generates the article and posts, schedules nothing', async () => {
		const ledgerBefore = sandbox.control.ledger().length;
		sandbox.control.resetRequests();

		const result = await runWorkflow(withPollInterval(loadExample('content-pipeline.json'), 1), {
			credentials,
		});

		expect(result.error).toBeUndefined();
		expect(ledgerSince(ledgerBefore).map((e) => e.kind)).toEqual(['article', 'social']);
		const publishes = sandbox.control
			.requests()
			.filter((r) => r.method === 'POST' && r.path === '/api/v1/social/publish');
		expect(publishes).toEqual([]);
		// The switched-off node hands the generated posts on unchanged, and the balance is read.
		const [social] = result.output('Generate social posts').map((item) => item.json);
		expect(result.output('Schedule posts').map((item) => item.json)).toEqual([social]);
		expect(result.output('Credits left')).toHaveLength(1);
	});

	it('content-pipeline switched on: project, article, three social posts scheduled for tomorrow, credits', async () => {
		const ledgerBefore = sandbox.control.ledger().length;
		const creditsBefore = sandbox.control.credits().available;
		const started = sandbox.control.now().getTime();

		const result = await runWorkflow(
			withPublishingOn(withPollInterval(loadExample('content-pipeline.json'), 1)),
			{ credentials },
		);

		expect(result.error).toBeUndefined();
		expect(result.executedNodes).toEqual([
			'Start',
			'Pick a project',
			'Generate article',
			'Generate social posts',
			'Schedule posts',
			'Credits left',
		]);
		const [project] = result.output('Pick a project').map((item) => item.json);
		expect(result.output('Pick a project')).toHaveLength(1);
		expect(sandbox.control.projects().map((p) => p.id)).toContain(project.id);

		const [article] = result.output('Generate article').map((item) => item.json);
		expect(['cms', 'needs_editing']).toContain(article.status);
		expect(article.project_id).toBe(project.id);
		expect(typeof article.slug).toBe('string');
		expect(String(article.content)).toContain('<');

		const [social] = result.output('Generate social posts').map((item) => item.json);
		expect(['completed', 'ready']).toContain(social.status);
		expect(social.source_url).toBe(`https://blog.example.com/${String(article.slug)}`);
		expect(social.project_id).toBe(project.id);
		expect(Object.keys(social.captions as IDataObject).sort()).toEqual([
			'instagram',
			'linkedin',
			'twitter',
		]);

		const [scheduled] = result.output('Schedule posts').map((item) => item.json);
		expect(scheduled).toMatchObject({ content_id: social.id, status: 'scheduled' });
		const inADay = Date.parse(String(scheduled.scheduled_at)) - started;
		expect(inADay).toBeGreaterThan(23 * 3_600_000);
		expect(inADay).toBeLessThan(25 * 3_600_000);

		expect(ledgerSince(ledgerBefore).map((e) => [e.kind, e.recordId, e.hundredths])).toEqual([
			['article', article.id, 150],
			['social', social.id, 180],
		]);
		const [credits] = result.output('Credits left').map((item) => item.json);
		expect(credits.available_credits).toBe(sandbox.control.credits().available);
		expect(Math.round((creditsBefore - Number(credits.available_credits)) * 100)).toBe(330);
	});

	it('weekly-article: checks the balance floor, then generates one article and waits for it', async () => {
		const ledgerBefore = sandbox.control.ledger().length;
		sandbox.control.resetRequests();

		const result = await runWorkflow(withPollInterval(loadExample('weekly-article.json'), 1), {
			credentials,
		});

		expect(result.error).toBeUndefined();
		const items = result.output('Generate weekly article');
		expect(items).toHaveLength(1);
		const article = items[0].json;
		expect(['cms', 'needs_editing']).toContain(article.status);
		expect(String(article.title)).toMatch(/^This week in small-business marketing/);
		expect(typeof article.content_text).toBe('string'); // simplified output
		expect(article.content).toBeUndefined();
		expect(ledgerSince(ledgerBefore).map((e) => [e.kind, e.recordId])).toEqual([
			['article', article.id],
		]);
		const calls = sandbox.control.requests().map((r) => `${r.method} ${r.path}`);
		expect(calls.indexOf('GET /api/v1/user/credits')).toBeGreaterThanOrEqual(0);
		expect(calls.indexOf('GET /api/v1/user/credits')).toBeLessThan(
			calls.indexOf('POST /api/v1/articles/generate'),
		);
	});

	it('weekly-article: below the floor it spends nothing and says why', async () => {
		const saved = sandbox.control.credits();
		sandbox.control.setCredits({ subscription: 11, purchased: 0 });
		const ledgerBefore = sandbox.control.ledger().length;
		sandbox.control.resetRequests();
		try {
			const result = await runWorkflow(withPollInterval(loadExample('weekly-article.json'), 1), {
				credentials,
			});
			expect(result.error?.node).toBe('Generate weekly article');
			expect(result.error?.message).toMatch(/Minimum Balance to Keep/);
			expect(result.error?.message).toMatch(/11 credits/);
			expect(ledgerSince(ledgerBefore)).toEqual([]);
			expect(sandbox.control.requests().map((r) => r.method)).not.toContain('POST');
		} finally {
			sandbox.control.setCredits({ subscription: saved.subscription, purchased: saved.purchased });
		}
	});

	it('publish-finished-social: the trigger emits a finished record once; the publish node posts it only when switched on', async () => {
		const example = loadExample('publish-finished-social.json');
		const triggerNode = node(example, 'Social content finished');
		expect(triggerNode.type).toBe(`${PACKAGE}.contentGenTrigger`);
		const trigger = pollHarness(triggerNode.parameters as IDataObject, credentials);
		expect(await trigger.poll()).toBeNull(); // activation: no backlog of seeded records

		// Social content generated elsewhere (the ContentGen node), finished before the next poll.
		const generated = await runWorkflow(
			{
				name: 'make social content',
				nodes: [
					{ ...node(loadExample('content-pipeline.json'), 'Start') },
					{
						...node(loadExample('content-pipeline.json'), 'Generate social posts'),
						parameters: {
							resource: 'socialContent',
							operation: 'generate',
							sourceUrl: 'https://blog.example.com/launch',
							platforms: ['linkedin', 'bluesky'],
						},
					},
				],
				connections: {
					Start: { main: [[{ node: 'Generate social posts', type: 'main', index: 0 }]] },
				},
			},
			{ credentials },
		);
		expect(generated.error).toBeUndefined();
		const contentId = generated.output('Generate social posts')[0].json.content_id;
		expect(typeof contentId).toBe('string');
		sandbox.control.advance(10 * 60_000);

		const emitted = await trigger.poll();
		expect(emitted?.[0].map((item) => [item.json.event, item.json.id])).toEqual([
			['socialFinished', contentId],
		]);
		expect(await trigger.poll()).toBeNull(); // exactly once

		// n8n hands the poll's items to the next node: the trigger's place is taken by a
		// pass-through start node of the same name that emits exactly those items.
		const downstream: ExampleWorkflow = {
			...example,
			nodes: example.nodes.map((candidate) =>
				candidate.name === triggerNode.name
					? { ...candidate, type: 'n8n-nodes-base.manualTrigger', credentials: undefined }
					: candidate,
			),
		};
		const input = emitted?.[0].map((item) => item.json);
		sandbox.control.resetRequests();
		const asShipped = await runWorkflow(downstream, { credentials, input });
		expect(asShipped.error).toBeUndefined();
		expect(sandbox.control.requests()).toEqual([]);
		expect(asShipped.output('Publish now').map((item) => item.json)).toEqual(input);

		const published = await runWorkflow(withPublishingOn(downstream), { credentials, input });
		expect(published.error).toBeUndefined();
		expect(published.output('Publish now').map((item) => item.json)).toEqual([
			expect.objectContaining({
				content_id: contentId,
				status: 'publishing',
				publish_mode: 'now',
			}),
		]);
	});

	describe('ai-agent-tool', () => {
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
				credentials,
				input: [args],
			});
			expect(result.error).toBeUndefined();
			return result.output(name).map((item) => item.json);
		}

		it('the tools run with the arguments a model would give them', async () => {
			const [first] = sandbox.control.projects();
			const projects = await callTool('List projects', {
				limit: 5,
				search: first.business_name.slice(0, 6).toLowerCase(),
			});
			expect(projects.map((p) => p.id)).toContain(first.id);
			expect(projects.length).toBeLessThanOrEqual(5);

			const ledgerBefore = sandbox.control.ledger().length;
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
			expect(credits.available_credits).toBe(sandbox.control.credits().available);
		});

		it('a model that leaves out an optional argument gets the default', async () => {
			const all = await callTool('List projects', { limit: 100 });
			expect(all.map((p) => p.id).sort()).toEqual(
				sandbox.control
					.projects()
					.map((p) => p.id)
					.sort(),
			);
		});

		it('a model that sends a bad argument gets a clear error and spends nothing', async () => {
			const ledgerBefore = sandbox.control.ledger().length;
			const tool = node(example, 'Generate article');
			const result = await runWorkflow(
				{
					name: 'bad tool call',
					nodes: [node(example, 'Start'), { ...tool, type: `${PACKAGE}.contentGen` }],
					connections: { Start: { main: [[{ node: tool.name, type: 'main', index: 0 }]] } },
				},
				{
					credentials,
					input: [{ topic: 'Hi', projectId: sandbox.control.projects()[0].id }],
				},
			);
			expect(result.error?.message).toMatch(/Topic/);
			expect(ledgerSince(ledgerBefore)).toEqual([]);
		});
	});
});
