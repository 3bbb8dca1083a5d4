/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Checks over every operation's panel, and the README anchors docs links may point at.
import type { Page } from 'puppeteer-core';

import { closeNode, NDV, openNode, pause, tid, visible } from './ui';

interface Option {
	name: string;
	value: string;
	action?: string;
	displayName?: string;
}
interface Property {
	name: string;
	displayName: string;
	type: string;
	default?: unknown;
	options?: Array<Option & Partial<Property>>;
	displayOptions?: { show?: Record<string, unknown[]> };
}
export interface NodeDescription {
	name: string;
	displayName: string;
	description: string;
	properties: Property[];
}

/** GitHub's anchors of the README's headings ("## Trigger" → "trigger"). */
export function readmeAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	for (const [, heading] of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
		anchors.add(
			heading
				.toLowerCase()
				.replace(/[^\p{L}\p{N}\s_-]/gu, '')
				.trim()
				.replace(/\s/g, '-'),
		);
	}
	return anchors;
}

const shownFor = (property: Property, resource: string, operation: string) => {
	const show = property.displayOptions?.show ?? {};
	return (
		(!show.resource || show.resource.includes(resource)) &&
		(!show.operation || show.operation.includes(operation))
	);
};

/**
 * One node per operation with every option of its collections added and its switches on (that is
 * what reveals the most fields), plus the trigger; the workflow is created through the editor's
 * own REST session.
 */
function labelWorkflow(types: NodeDescription[], names: string[]) {
	const nodes = [];
	for (const type of types.filter((t) => names.includes(t.name))) {
		const resources = type.properties.find((p) => p.name === 'resource')?.options ?? [
			{ value: '', name: '' },
		];
		for (const resource of resources) {
			const operations = type.properties.find(
				(p) =>
					p.name === 'operation' &&
					(p.displayOptions?.show?.resource ?? []).includes(resource.value),
			)?.options ?? [{ value: '', name: '' }];
			for (const operation of operations) {
				const parameters: Record<string, unknown> = {};
				if (resource.value) parameters.resource = resource.value;
				if (operation.value) parameters.operation = operation.value;
				for (const property of type.properties) {
					if (!shownFor(property, resource.value, operation.value)) continue;
					if (property.type === 'collection') {
						parameters[property.name] = Object.fromEntries(
							(property.options ?? []).map((o) => [o.name, o.default]),
						);
					}
					if (property.type === 'boolean') parameters[property.name] = true;
				}
				const label = [type.displayName, resource.name, operation.name].filter(Boolean).join(' › ');
				nodes.push({
					id: `labels-${nodes.length}`,
					name: label,
					type: type.name,
					typeVersion: 1,
					position: [nodes.length * 220, 0],
					parameters,
				});
			}
		}
	}
	return { name: 'Label widths', nodes, connections: {}, settings: {} };
}

/** What the label check saw: the labels cut off, and how much it measured. */
export interface LabelReport {
	/** Labels the editor cut off with an ellipsis, with where. */
	cut: string[];
	/** Parameters measured, over all panels. */
	inspected: number;
	/** Panels (node names) in which no parameter was found to measure. */
	empty: string[];
}

/**
 * Opens every operation's panel at the default width and hovers each parameter (hovering shows
 * the Fixed/Expression switch, which takes room from the label). Reports the labels the editor
 * cut off with an ellipsis, with where, and how many parameters each panel offered to measure:
 * a panel with none means the check looked at nothing there.
 */
export async function checkLabels(
	page: Page,
	n8nUrl: string,
	types: NodeDescription[],
	names: string[],
): Promise<LabelReport> {
	const workflow = labelWorkflow(types, names);
	const id = await page.evaluate(async (body) => {
		const response = await fetch('/rest/workflows', {
			method: 'POST',
			credentials: 'include',
			headers: {
				'Content-Type': 'application/json',
				'browser-id': localStorage.getItem('n8n-browserId') ?? '',
			},
			body: JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`creating the workflow: HTTP ${response.status}`);
		return ((await response.json()) as { data: { id: string } }).data.id;
	}, workflow);
	await page.goto(`${n8nUrl}/workflow/${id}`, { waitUntil: 'domcontentloaded' });
	await visible(page, tid('canvas-node'), 60_000);
	await page.evaluate(async () => await document.fonts.ready);
	const cut = new Map<string, string[]>();
	let inspected = 0;
	const empty: string[] = [];
	for (const node of workflow.nodes) {
		await openNode(page, `[data-node-name="${node.name}"]`);
		await pause(300);
		const items = await page.$$(tid('parameter-item', tid('node-parameters', NDV)));
		if (items.length === 0) empty.push(node.name);
		inspected += items.length;
		for (const item of items) {
			await item.hover().catch(() => undefined);
			const clipped = await item.evaluate((e) =>
				[...(e.querySelector('[data-test-id="input-label"]')?.querySelectorAll('span') ?? [])]
					.filter(
						(s) => s.children.length === 0 && s.innerText && s.scrollWidth > s.clientWidth + 1,
					)
					.map((s) => s.innerText.trim()),
			);
			for (const label of clipped) cut.set(label, [...(cut.get(label) ?? []), node.name]);
		}
		await closeNode(page);
	}
	return {
		cut: [...cut].map(([label, where]) => `"${label}" in ${[...new Set(where)].join(', ')}`),
		inspected,
		empty,
	};
}
