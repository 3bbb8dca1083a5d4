/// <reference lib="dom" />
// The node picker and the canvas: what a user sees before running anything.
import type { Page } from 'puppeteer-core';

import { ACTION, docsHref, openWorkflow, screenshot, signedIn, step, TRIGGER } from './browser';
import { docsLinkProblem, sameSet, served, type Served } from './described';
import {
	canvasSubtitles,
	clickText,
	closeNode,
	CREATOR,
	CREATOR_ITEM,
	labels,
	NDV,
	text,
	tid,
	waitForLabels,
} from './ui';

const current = signedIn();
let node: Served;
beforeAll(async () => {
	node = await served(current().page);
});

/** Searches the open picker for "ContentGen" and opens its entry. */
async function openEntry(page: Page) {
	await page.locator(tid('node-creator-search-bar')).fill('ContentGen');
	await clickText(page, CREATOR_ITEM, 'ContentGen');
}

describe('node picker', () => {
	step(
		'first-node search: the ContentGen entry offers the trigger and its events',
		current,
		async (page, state) => {
			await page.goto(`${state.n8nUrl}/workflow/new`, { waitUntil: 'domcontentloaded' });
			await page.locator(tid('canvas-plus-button')).setTimeout(60_000).click();
			await page.locator(tid('node-creator-search-bar')).fill('ContentGen');
			// n8n makes one entry of a node and its "...Trigger" and describes it with the trigger's text.
			const entries = await waitForLabels(page, CREATOR_ITEM, (shown) =>
				shown.includes('ContentGen'),
			);
			const entry = await text(page, CREATOR_ITEM);
			expect(entries).toContain('ContentGen');
			expect(entry).toContain(node.trigger.description);
			await clickText(page, CREATOR_ITEM, 'ContentGen');
			const expected = node.events.map((e) => `On ${e.name.toLowerCase()}`);
			const shown = await waitForLabels(page, tid('node-creator-item-name', CREATOR), (items) =>
				expected.every((e) => items.includes(e)),
			);
			expect(shown.filter((s) => expected.includes(s)).sort()).toEqual([...expected].sort());

			await clickText(page, CREATOR_ITEM, expected[0]);
			await page.waitForSelector(tid('parameter-input-events', NDV), { visible: true });
			expect(await text(page, tid('parameter-input-events', NDV))).toContain(node.events[0].name);
			expect(docsLinkProblem(await docsHref(page))).toBeUndefined();
			await closeNode(page);
		},
	);

	step(
		'"What happens next?": the entry describes its actions and lists them by resource',
		current,
		async (page, state) => {
			await openWorkflow(page, state, 'Picker', [
				{ name: 'ContentGen Trigger', type: TRIGGER, parameters: { events: ['articleCompleted'] } },
			]);
			await page.locator(tid('canvas-handle-plus-wrapper')).click();
			await page.waitForFunction(
				(s) => document.querySelector<HTMLElement>(s)?.innerText.includes('What happens next?'),
				{ timeout: 15_000 },
				tid('nodes-list-header', CREATOR),
			);
			await openEntry(page);
			const total = node.operations.length;
			await waitForLabels(page, tid('node-creator-category-item', CREATOR), (shown) =>
				shown.includes(`Actions (${total})`),
			);
			// Above the actions: the entry's description, the trigger's (n8n's triggers say "Starts the workflow when").
			const panel = await text(page, CREATOR, 5_000);
			const description = panel.indexOf(node.trigger.description);
			expect(description).toBeGreaterThanOrEqual(0);
			expect(description).toBeLessThan(panel.indexOf(`Actions (${total})`));
			expect(node.trigger.description).toMatch(/^Starts the workflow when\b/);

			const groups: Record<string, string[]> = {};
			let group = '';
			for (const row of await labels(page, CREATOR_ITEM)) {
				const header = /^(.*) actions$/i.exec(row);
				if (header) group = header[1].toLowerCase();
				else if (group) (groups[group] ??= []).push(row);
			}
			const expected = Object.fromEntries(
				Object.entries(node.actionsByResource).map(([resource, actions]) => [
					resource.toLowerCase(),
					actions,
				]),
			);
			expect(Object.keys(groups).sort()).toEqual(Object.keys(expected).sort());
			for (const [resource, actions] of Object.entries(expected)) {
				expect([resource, sameSet(groups[resource] ?? [], actions)]).toEqual([resource, true]);
			}
			await screenshot(page, state, 'picker-actions', CREATOR, '[data-test-id="canvas-node"]', 300);

			await clickText(page, CREATOR_ITEM, 'Generate article');
			await page.waitForSelector(tid('parameter-input-operation', NDV), { visible: true });
			const chosen = await page.$$eval(
				`${tid('parameter-input-resource', NDV)} input, ${tid('parameter-input-operation', NDV)} input`,
				(inputs) => inputs.map((i) => (i as HTMLInputElement).value),
			);
			expect(chosen).toEqual(['Article', 'Generate']);
			// The agent-only "let the model define this" buttons belong in an AI agent's tool, not here.
			expect(await page.$$(tid('from-ai-override-button', NDV))).toHaveLength(0);
			expect(docsLinkProblem(await docsHref(page))).toBeUndefined();
			await closeNode(page);
			// Added from the trigger's + handle, the action node is connected to it.
			expect(await page.$$(tid('edge'))).toHaveLength(1);
		},
	);
});

describe('canvas', () => {
	step(
		'every operation is subtitled with its action, the trigger with its events',
		current,
		async (page, state) => {
			const nodes = node.operations.map((o) => ({
				name: `${o.resourceName} ${o.operationName}`,
				type: ACTION,
				parameters: { resource: o.resource, operation: o.operation },
			}));
			const events = node.events.slice(0, 2);
			await openWorkflow(page, state, 'Subtitles', [
				...nodes,
				{
					name: 'ContentGen Trigger',
					type: TRIGGER,
					parameters: { events: events.map((e) => e.value) },
				},
			]);
			await page.waitForFunction(
				(count) => document.querySelectorAll('[data-test-id="canvas-node"]').length === count,
				{ timeout: 30_000 },
				nodes.length + 1,
			);
			const subtitles = await canvasSubtitles(page);
			const expected = Object.fromEntries(node.operations.map((o, i) => [nodes[i].name, o.action]));
			expected['ContentGen Trigger'] = events.map((e) => e.name).join(', ');
			expect(subtitles).toEqual(expected);
			expect(subtitles['Social Content Generate']).toBe('Generate social content');
		},
	);
});
