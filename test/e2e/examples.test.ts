/**
 * Every workflow under examples/ run through n8n's engine against the sandbox, so none can rot
 * (test/docs/examples.test.ts checks them as files). The examples wait at the service's
 * cadence (15 s / 5 s); the runs here poll every second.
 */
import {
	traverseNodeParameters,
	type FromAIArgument,
	type IDataObject,
	type INode,
} from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import {
	loadExample,
	node,
	withPollInterval,
	withPublishingOn,
	type ExampleWorkflow,
} from '../../harness/examples';
import { PACKAGE, runWorkflow, TestNodeTypes } from '../helpers/engine';
import { pollHarness } from '../../harness/trigger/poll';

const CREDENTIAL = { contentGenApi: { id: 'contentgen-sandbox', name: 'ContentGen account' } };

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

	describe('publish-finished-social', () => {
		const example = loadExample('publish-finished-social.json');
		const triggerNode = node(example, 'Social content finished');

		/** Social content generated elsewhere (the ContentGen node), finished before the next poll. */
		async function finishedContent(): Promise<unknown> {
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
			return contentId;
		}

		/** The items of `count` polls. */
		async function polls(
			parameters: IDataObject,
			count: number,
			contentId?: () => Promise<unknown>,
		) {
			const trigger = pollHarness(parameters, credentials);
			expect(await trigger.poll()).toBeNull(); // activation: no backlog of seeded records
			const id = await contentId?.();
			const out: IDataObject[][] = [];
			for (let poll = 0; poll < count; poll++)
				out.push(((await trigger.poll())?.[0] ?? []).map((item) => item.json));
			return { id, out };
		}

		// n8n hands each poll's items to the next node: the trigger's place is taken by a
		// pass-through start node of the same name that emits exactly those items.
		const downstream: ExampleWorkflow = {
			...example,
			nodes: example.nodes.map((candidate) =>
				candidate.name === triggerNode.name
					? { ...candidate, type: 'n8n-nodes-base.manualTrigger', credentials: undefined }
					: candidate,
			),
		};

		it('as shipped: the trigger emits a finished record once; the publish node posts it only when switched on', async () => {
			expect(triggerNode.type).toBe(`${PACKAGE}.contentGenTrigger`);
			const { id, out } = await polls(triggerNode.parameters as IDataObject, 2, finishedContent);
			expect(out.map((items) => items.map((item) => [item.event, item.id]))).toEqual([
				[['socialFinished', id]],
				[],
			]);
			const input = out[0];
			sandbox.control.resetRequests();
			const asShipped = await runWorkflow(downstream, { credentials, input });
			expect(asShipped.error).toBeUndefined();
			expect(sandbox.control.requests()).toEqual([]);
			expect(asShipped.output('Publish now').map((item) => item.json)).toEqual(input);

			const published = await runWorkflow(withPublishingOn(downstream), { credentials, input });
			expect(published.error).toBeUndefined();
			expect(published.output('Publish now').map((item) => item.json)).toEqual([
				expect.objectContaining({ content_id: id, status: 'publishing', publish_mode: 'now' }),
			]);
		});

		it('with Delivery At Least Once (durable poll cursors): three reports of one eventId, Skip repeats passes one, posted once', async () => {
			const atLeastOnce = { ...(triggerNode.parameters as IDataObject), delivery: 'atLeastOnce' };
			const { id, out } = await polls(atLeastOnce, 4, finishedContent);
			expect(out.map((items) => items.map((item) => [item.event, item.id]))).toEqual([
				[['socialFinished', id]],
				[['socialFinished', id]],
				[['socialFinished', id]],
				[],
			]);
			expect(new Set(out.flat().map((item) => item.eventId)).size).toBe(1);

			// One set of node types per deployment: Skip repeats remembers across runs, as n8n's
			// database does for Remove Duplicates.
			const deployment = new TestNodeTypes();
			const ranPublish: boolean[] = [];
			const published: IDataObject[] = [];
			for (const input of out.slice(0, 3)) {
				const run = await runWorkflow(withPublishingOn(downstream), {
					credentials,
					input,
					nodeTypes: deployment,
				});
				expect(run.error).toBeUndefined();
				// For a repeat Skip repeats lets nothing through: Publish now does not run.
				ranPublish.push(run.executedNodes.includes('Publish now'));
				if (ranPublish[ranPublish.length - 1])
					for (const item of run.output('Publish now')) published.push(item.json);
			}
			expect(ranPublish).toEqual([true, false, false]);
			expect(published).toEqual([
				expect.objectContaining({ content_id: id, status: 'publishing', publish_mode: 'now' }),
			]);
		});
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
