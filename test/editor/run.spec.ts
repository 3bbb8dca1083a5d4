/// <reference lib="dom" />
// Running the nodes from the editor against the sandbox: Execute step on the main operations, the
// project picker, the trigger's Fetch Test Event, and the content pipeline example on the canvas.
import {
	ACTION,
	openWorkflow,
	sandboxCredential,
	screenshot,
	serviceGet,
	signedIn,
	step,
	TRIGGER,
	type WorkflowNode,
} from './browser';
import { loadExample, withSpendingOn } from '../../harness/examples';
import { sameSet, served, type Served } from './described';
import {
	addCollectionOption,
	canvasSubtitles,
	clickText,
	closeNode,
	execute,
	fill,
	labels,
	NDV,
	openNode,
	optionsOf,
	selectMany,
	selectOption,
	setSwitch,
	showSchema,
	tid,
	waitForLabels,
} from './ui';

const TOPIC = 'Pour-over coffee at home';
const PROJECT_SEARCH = 'coffee';
const PLATFORMS = { Instagram: 'instagram', LinkedIn: 'linkedin', 'X (Twitter)': 'twitter' };

const current = signedIn();
let node: Served;
let credentials: WorkflowNode['credentials'];
beforeAll(async () => {
	const { page, state } = current();
	node = await served(page);
	credentials = { contentGenApi: await sandboxCredential(page, state, 'ContentGen sandbox') };
});

/** A workflow with one ContentGen node using the sandbox credential, its panel open. */
async function actionPanel(name: string, parameters: Record<string, unknown>) {
	const { page, state } = current();
	await openWorkflow(page, state, name, [{ name, type: ACTION, parameters, credentials }]);
	await openNode(page, `[data-node-name="${name}"]`);
}

type Project = { id: string; business_name: string };

describe('Execute step', () => {
	step(
		'the Project picker lists and searches the sandbox projects',
		current,
		async (page, state) => {
			const all = (await serviceGet<Project[]>(state, '/projects?limit=100')).map(
				(p) => p.business_name,
			);
			const matching = (
				await serviceGet<Project[]>(state, `/projects?limit=100&search=${PROJECT_SEARCH}`)
			).map((p) => p.business_name);
			expect(matching.length).toBeLessThan(all.length);
			await actionPanel('Project picker', { resource: 'article', operation: 'generate' });
			await page.locator(tid('rlc-input', tid('resource-locator-projectId', NDV))).click();
			await waitForLabels(page, tid('rlc-item'), (shown) => sameSet(shown, all), 20_000);
			await page.locator(tid('rlc-search')).fill(PROJECT_SEARCH);
			await waitForLabels(page, tid('rlc-item'), (shown) => sameSet(shown, matching), 20_000);
			await clickText(page, tid('rlc-item'), matching[0]);
			await page.waitForFunction(
				(rl, name) =>
					[...document.querySelectorAll<HTMLInputElement>(`${rl} input`)].some(
						(i) => i.value === name,
					),
				{ timeout: 10_000 },
				tid('resource-locator-projectId', NDV),
				matching[0],
			);
		},
	);

	step(
		'the Article ID picker lists titles with their status, searches and picks one',
		current,
		async (page, state) => {
			type Article = { id: string; title: string; status: string };
			const all = await serviceGet<Article[]>(state, '/articles?limit=100');
			expect(all.length).toBeGreaterThan(1);
			// A word of the first title that not every title has: the search must narrow the list.
			const word = all[0].title
				.split(/\s+/)
				.find(
					(w) => w.length > 3 && all.some((a) => !a.title.toLowerCase().includes(w.toLowerCase())),
				);
			expect(word).toBeDefined();
			const matching = await serviceGet<Article[]>(
				state,
				`/articles?limit=100&search=${encodeURIComponent(word as string)}`,
			);
			expect(matching.length).toBeLessThan(all.length);
			await openWorkflow(page, state, 'Article picker', [
				{
					name: 'Article picker',
					type: ACTION,
					parameters: { resource: 'article', operation: 'get' },
					credentials,
				},
			]);
			await openNode(page, '[data-node-name="Article picker"]');
			const picker = tid('resource-locator-articleId', NDV);
			await page.locator(tid('rlc-input', picker)).click();
			// Each entry is the title, then its status in brackets: "<title> (CMS)".
			const titled = (articles: Article[]) => (shown: string[]) =>
				shown.length === articles.length &&
				articles.every((a) => shown.some((label) => label.startsWith(`${a.title} (`)));
			await waitForLabels(page, tid('rlc-item'), titled(all), 20_000);
			await page.locator(tid('rlc-search')).fill(word as string);
			await waitForLabels(page, tid('rlc-item'), titled(matching), 20_000);
			await screenshot(page, state, 'article-picker', NDV, tid('node-parameters', NDV));
			const chosen = (await labels(page, tid('rlc-item'))).find((label) =>
				label.startsWith(`${matching[0].title} (`),
			) as string;
			await clickText(page, tid('rlc-item'), chosen);
			await page.waitForFunction(
				(rl, name) =>
					[...document.querySelectorAll<HTMLInputElement>(`${rl} input`)].some(
						(i) => i.value === name,
					),
				{ timeout: 10_000 },
				picker,
				chosen,
			);
			// Output is Simplified by default: the picked article's id and title, among others.
			const [article] = await execute(page);
			expect([article.id, article.title]).toEqual([matching[0].id, matching[0].title]);
			await closeNode(page);
		},
	);

	step(
		'Article -> Generate with Wait for Completion gives the finished article',
		current,
		async (page, state) => {
			const [project] = await serviceGet<Project[]>(
				state,
				`/projects?limit=1&search=${PROJECT_SEARCH}`,
			);
			await actionPanel('Generate article', {
				resource: 'article',
				operation: 'generate',
				projectId: {
					__rl: true,
					mode: 'list',
					value: project.id,
					cachedResultName: project.business_name,
				},
			});
			await fill(page, `${tid('parameter-input-topic', NDV)} input`, TOPIC);
			await setSwitch(page, 'waitForCompletion', true);
			await addCollectionOption(page, 'Options', 'Poll Interval');
			await fill(page, `${tid('parameter-input-pollInterval', NDV)} input`, '1');
			await screenshot(page, state, 'generate-panel', NDV, tid('node-parameters', NDV));
			const [article] = await execute(page);
			expect([article?.title, ['cms', 'needs_editing'].includes(article?.status)]).toEqual([
				TOPIC,
				true,
			]);
			await showSchema(page);
			await screenshot(page, state, 'article-output', NDV, tid('node-parameters', NDV));
		},
	);

	step(
		'Social Content -> Generate for 3 platforms spends 0.6 credits each',
		current,
		async (page) => {
			await actionPanel('Social', { resource: 'article', operation: 'generate' });
			await selectOption(page, 'resource', 'Social Content');
			await selectOption(page, 'operation', 'Generate');
			await fill(
				page,
				`${tid('parameter-input-sourceUrl', NDV)} input`,
				'https://northwind-coffee.example/blog/pour-over',
			);
			await selectMany(page, 'platforms', Object.keys(PLATFORMS));
			const [social] = await execute(page);
			expect(social?.credits_spent).toBe('1.8');
			for (const platform of Object.values(PLATFORMS))
				expect(social?.platforms).toContain(platform);
		},
	);

	step(
		'Account -> Get Credits shows the balance the service reports',
		current,
		async (page, state) => {
			await actionPanel('Credits', { resource: 'article', operation: 'generate' });
			await selectOption(page, 'resource', 'Account');
			await selectOption(page, 'operation', 'Get Credits');
			const [credits] = await execute(page);
			const service = await serviceGet<{ available_credits: number }>(state, '/user/credits');
			expect(credits?.available_credits).toBe(String(service.available_credits));
		},
	);
});

describe('trigger', () => {
	step(
		'Fetch Test Event, the Platform filter for social events, the subtitle',
		current,
		async (page, state) => {
			await openWorkflow(
				page,
				state,
				'Trigger',
				[
					{
						name: 'ContentGen Trigger',
						type: TRIGGER,
						parameters: { events: ['articleCompleted'] },
					},
					{
						name: 'Credits',
						type: ACTION,
						parameters: { resource: 'account', operation: 'getCredits' },
						credentials,
					},
				],
				{ 'ContentGen Trigger': { main: [[{ node: 'Credits', type: 'main', index: 0 }]] } },
			);
			await openNode(page, `[data-node-type="${TRIGGER}"]`);
			// A credential of its type is picked by itself for a node that has none.
			const credential = await page.$eval(
				`${tid('node-credentials-select', NDV)} input`,
				(e) => (e as HTMLInputElement).value,
			);
			expect(credential).not.toBe('');
			const offered = await optionsOf(page, 'events');
			expect(offered.sort()).toEqual(node.events.map((e) => e.name).sort());

			const [item] = await execute(page);
			expect(node.events.map((e) => e.value)).toContain(item?.event);
			await showSchema(page);
			await screenshot(page, state, 'trigger-test-event', NDV, tid('node-parameters', NDV));

			expect(await page.$(tid('parameter-input-platform', NDV))).toBeNull();
			await selectMany(page, 'events', ['Article Finished', 'Social Content Finished']);
			// The Platform filter is an option of the trigger's Options, offered once a social event is on.
			await addCollectionOption(page, 'Options', 'Platform');
			await page.waitForSelector(tid('parameter-input-platform', NDV), {
				visible: true,
				timeout: 5_000,
			});
			const platforms = await optionsOf(page, 'platform');
			for (const label of ['LinkedIn', 'X (Twitter)', 'TikTok']) expect(platforms).toContain(label);
			await closeNode(page);
			expect((await canvasSubtitles(page))['ContentGen Trigger']).toBe(
				'Article Finished, Social Content Finished',
			);
		},
	);
});

describe('content pipeline example', () => {
	step(
		'runs node after node on the canvas to the end',
		current,
		async (page, state) => {
			// Spending on, as every suite runs the examples against the sandbox (it charges nobody).
			const example = withSpendingOn(loadExample('content-pipeline.json')) as unknown as {
				name: string;
				nodes: WorkflowNode[];
				connections: Record<string, unknown>;
			};
			const nodes = example.nodes.map((n) => (n.credentials ? { ...n, credentials } : n));
			await openWorkflow(page, state, example.name, nodes, example.connections);
			await page.locator(tid('execute-workflow-button')).click();
			await page
				.waitForFunction(
					(count) =>
						document.querySelectorAll('[data-test-id="canvas-node-status-success"]').length >=
						count,
					{ timeout: 180_000 },
					// A sticky note never runs; a node shipped switched off may or may not show a status.
					example.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote' && !n.disabled).length,
				)
				.catch(async () => {
					throw new Error(
						`not every node succeeded: ${JSON.stringify(await labels(page, '[data-test-id="canvas-node"]'))}`,
					);
				});
			await screenshot(page, state, 'pipeline-run');
		},
		300_000,
	);
});
