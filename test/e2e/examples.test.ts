/**
 * Every workflow under examples/ run through n8n's engine against the sandbox, so none can rot
 * (test/docs/examples.test.ts checks them as files; the AI agent's tools: examples.agent.test.ts). The examples wait at the service's
 * cadence (15 s / 5 s); the runs here poll every second.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	loadExample,
	node,
	SPEND_GATE,
	SPEND_SWITCH,
	withPollInterval,
	withPublishingOn,
	withSpendingOn,
	type ExampleWorkflow,
} from '../../harness/examples';
import { exampleSandbox } from './example-sandbox';
import { PACKAGE, runWorkflow, TestNodeTypes } from '../helpers/engine';
import { pollHarness } from '../../harness/trigger/poll';

describe('example workflows against the sandbox', () => {
	const world = exampleSandbox();
	const { ledgerSince } = world;

	/** The items a node put on its second output (an If's "false") in its last run. */
	function falseBranch(result: Awaited<ReturnType<typeof runWorkflow>>, name: string) {
		const runs = result.run.data.resultData.runData[name] ?? [];
		return runs[runs.length - 1]?.data?.main?.[1] ?? [];
	}

	it.each(['content-pipeline.json', 'weekly-article.json', 'weekly-calendar.json'])(
		'%s as shipped: a run stops at the spend switch, sending nothing and spending nothing',
		async (file) => {
			const ledgerBefore = world.sandbox.control.ledger().length;
			world.sandbox.control.resetRequests();

			const result = await runWorkflow(withPollInterval(loadExample(file), 1), {
				credentials: world.credentials,
			});

			expect(result.error).toBeUndefined();
			expect(result.executedNodes).toEqual([
				expect.any(String), // the trigger
				SPEND_SWITCH,
				SPEND_GATE,
			]);
			expect(result.output(SPEND_SWITCH).map((item) => item.json)).toEqual([
				{ spend_credits: false },
			]);
			expect(result.output(SPEND_GATE)).toEqual([]);
			expect(falseBranch(result, SPEND_GATE)).toHaveLength(1);
			expect(world.sandbox.control.requests()).toEqual([]);
			expect(ledgerSince(ledgerBefore)).toEqual([]);
		},
	);

	it('content-pipeline with spending on: generates the article and posts, schedules nothing', async () => {
		const ledgerBefore = world.sandbox.control.ledger().length;
		world.sandbox.control.resetRequests();

		const result = await runWorkflow(
			withSpendingOn(withPollInterval(loadExample('content-pipeline.json'), 1)),
			{ credentials: world.credentials },
		);

		expect(result.error).toBeUndefined();
		expect(ledgerSince(ledgerBefore).map((e) => e.kind)).toEqual(['article', 'social']);
		const publishes = world.sandbox.control
			.requests()
			.filter((r) => r.method === 'POST' && r.path === '/api/v1/social/publish');
		expect(publishes).toEqual([]);
		// The switched-off node hands the generated posts on unchanged, and the balance is read.
		const [social] = result.output('Generate social posts').map((item) => item.json);
		expect(result.output('Schedule posts').map((item) => item.json)).toEqual([social]);
		expect(result.output('Credits left')).toHaveLength(1);
	});

	it('content-pipeline switched on: project, article, three social posts scheduled for tomorrow, credits', async () => {
		const ledgerBefore = world.sandbox.control.ledger().length;
		const creditsBefore = world.sandbox.control.credits().available;
		const started = world.sandbox.control.now().getTime();

		const result = await runWorkflow(
			withPublishingOn(withPollInterval(loadExample('content-pipeline.json'), 1)),
			{ credentials: world.credentials },
		);

		expect(result.error).toBeUndefined();
		expect(result.executedNodes).toEqual([
			'Start',
			SPEND_SWITCH,
			SPEND_GATE,
			'Pick a project',
			'Generate article',
			'Generate social posts',
			'Schedule posts',
			'Credits left',
		]);
		const [project] = result.output('Pick a project').map((item) => item.json);
		expect(result.output('Pick a project')).toHaveLength(1);
		expect(world.sandbox.control.projects().map((p) => p.id)).toContain(project.id);

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
		expect(credits.available_credits).toBe(world.sandbox.control.credits().available);
		expect(Math.round((creditsBefore - Number(credits.available_credits)) * 100)).toBe(330);
	});

	it('weekly-calendar switched on: an article, three posts from it, each queued into a distinct posting time of the week', async () => {
		const ledgerBefore = world.sandbox.control.ledger().length;
		const started = world.sandbox.control.now().getTime();
		const posts = ['Post: the practical tip', 'Post: a question', 'Post: one number'];
		const queue = "Queue into this week's posting times";

		const result = await runWorkflow(
			withPublishingOn(withPollInterval(loadExample('weekly-calendar.json'), 1)),
			{ credentials: world.credentials },
		);

		expect(result.error).toBeUndefined();
		const [article] = result.output('Generate weekly article').map((item) => item.json);
		const records = posts.map((name) => result.output(name)[0].json);
		for (const record of records) {
			expect(record.source_url).toBe(`https://blog.example.com/${String(article.slug)}`);
			expect(record.platform_names).toEqual(['linkedin', 'twitter']);
		}
		const runs = result.run.data.resultData.runData[queue];
		expect(runs).toHaveLength(3);
		const queued = runs.map((run) => run.data?.main?.[0]?.[0]?.json as IDataObject);
		expect(queued.map((item) => item.content_id)).toEqual(records.map((r) => r.id));
		const slots = queued.map((item) => item.slot as IDataObject);
		const times = slots.map((slot) => Date.parse(String(slot.scheduled_at)));
		expect(new Set(times).size).toBe(3);
		for (const at of times) {
			expect(at - started).toBeGreaterThan(0);
			expect(at - started).toBeLessThanOrEqual(7 * 86_400_000);
		}
		expect(slots.map((slot) => slot.posting_time).sort()).toEqual([
			'Friday 15:00',
			'Monday 11:00',
			'Wednesday 09:00',
		]);
		expect(queued.map((item) => item.slot_check)).toEqual(['kept', 'kept', 'kept']);
		expect(ledgerSince(ledgerBefore).map((e) => [e.kind, e.hundredths])).toEqual([
			['article', 150],
			['social', 120],
			['social', 120],
			['social', 120],
		]);
	});

	it('weekly-article with spending on: checks the balance floor, then generates one article and waits for it', async () => {
		const ledgerBefore = world.sandbox.control.ledger().length;
		world.sandbox.control.resetRequests();

		const result = await runWorkflow(
			withSpendingOn(withPollInterval(loadExample('weekly-article.json'), 1)),
			{ credentials: world.credentials },
		);

		expect(result.error).toBeUndefined();
		const items = result.output('Generate weekly article');
		expect(items).toHaveLength(1);
		const article = items[0].json;
		expect(['cms', 'needs_editing']).toContain(article.status);
		expect(String(article.title)).toMatch(/^This week in small-business marketing/);
		expect(article.content as string).toMatch(/^<[a-z]/i); // Simplified keeps the body
		expect(ledgerSince(ledgerBefore).map((e) => [e.kind, e.recordId])).toEqual([
			['article', article.id],
		]);
		const calls = world.sandbox.control.requests().map((r) => `${r.method} ${r.path}`);
		expect(calls.indexOf('GET /api/v1/user/credits')).toBeGreaterThanOrEqual(0);
		expect(calls.indexOf('GET /api/v1/user/credits')).toBeLessThan(
			calls.indexOf('POST /api/v1/articles/generate'),
		);
	});

	it('weekly-article with spending on: below the floor it spends nothing and says why', async () => {
		const saved = world.sandbox.control.credits();
		world.sandbox.control.setCredits({ subscription: 11, purchased: 0 });
		const ledgerBefore = world.sandbox.control.ledger().length;
		world.sandbox.control.resetRequests();
		try {
			const result = await runWorkflow(
				withSpendingOn(withPollInterval(loadExample('weekly-article.json'), 1)),
				{ credentials: world.credentials },
			);
			expect(result.error?.node).toBe('Generate weekly article');
			expect(result.error?.message).toMatch(/Minimum Balance to Keep/);
			expect(result.error?.message).toMatch(/11 credits/);
			expect(ledgerSince(ledgerBefore)).toEqual([]);
			expect(world.sandbox.control.requests().map((r) => r.method)).not.toContain('POST');
		} finally {
			world.sandbox.control.setCredits({
				subscription: saved.subscription,
				purchased: saved.purchased,
			});
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
				{ credentials: world.credentials },
			);
			expect(generated.error).toBeUndefined();
			const contentId = generated.output('Generate social posts')[0].json.content_id;
			expect(typeof contentId).toBe('string');
			world.sandbox.control.advance(10 * 60_000);
			return contentId;
		}

		/** The items of `count` polls. */
		async function polls(
			parameters: IDataObject,
			count: number,
			contentId?: () => Promise<unknown>,
		) {
			const trigger = pollHarness(parameters, world.credentials);
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
			world.sandbox.control.resetRequests();
			const asShipped = await runWorkflow(downstream, { credentials: world.credentials, input });
			expect(asShipped.error).toBeUndefined();
			expect(world.sandbox.control.requests()).toEqual([]);
			expect(asShipped.output('Publish now').map((item) => item.json)).toEqual(input);

			const published = await runWorkflow(withPublishingOn(downstream), {
				credentials: world.credentials,
				input,
			});
			expect(published.error).toBeUndefined();
			expect(published.output('Publish now').map((item) => item.json)).toEqual([
				expect.objectContaining({ content_id: id, status: 'publishing', publish_mode: 'now' }),
			]);
		});

		it('with Delivery At Least Once (durable poll cursors): three reports of one eventId, Skip repeats passes one, posted once', async () => {
			const saved = triggerNode.parameters as IDataObject;
			const atLeastOnce = {
				...saved,
				options: { ...(saved.options as IDataObject | undefined), delivery: 'atLeastOnce' },
			};
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
					credentials: world.credentials,
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
});
