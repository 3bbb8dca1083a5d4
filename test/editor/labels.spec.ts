/// <reference lib="dom" />
// Every operation's panel at n8n's default width: no parameter label is cut off.
import { ACTION, signedIn, openWorkflow, step, TRIGGER, type WorkflowNode } from './browser';
import { served, type NodeDescription, type Property } from './described';
import { closeNode, NDV, openNode, tid } from './ui';

const current = signedIn();
let types: NodeDescription[];
beforeAll(async () => {
	types = (await served(current().page)).types;
});

const shownFor = (property: Property, resource: string, operation: string) => {
	const show = property.displayOptions?.show ?? {};
	return (
		(!show.resource || show.resource.includes(resource)) &&
		(!show.operation || show.operation.includes(operation))
	);
};

/**
 * One node per operation with every option of its collections added and its switches on (that is
 * what reveals the most fields), plus the trigger.
 */
function everyPanel(): WorkflowNode[] {
	const nodes: WorkflowNode[] = [];
	for (const type of types.filter((t) => [ACTION, TRIGGER].includes(t.name))) {
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
				const name = [type.displayName, resource.name, operation.name].filter(Boolean).join(' › ');
				nodes.push({ name, type: type.name, parameters, position: [nodes.length * 220, 0] });
			}
		}
	}
	return nodes;
}

describe('labels', () => {
	step(
		"no parameter label is cut off at the default panel width, in any operation's panel",
		current,
		async (page, state) => {
			const nodes = everyPanel();
			await openWorkflow(page, state, 'Label widths', nodes);
			const cut = new Map<string, string[]>();
			const measured: Record<string, number> = {};
			for (const { name } of nodes) {
				await openNode(page, `[data-node-name="${name}"]`);
				const items = await page.$$(tid('parameter-item', tid('node-parameters', NDV)));
				measured[name] = items.length;
				for (const item of items) {
					// Hovering shows the Fixed/Expression switch, which takes room from the label.
					await item.hover().catch(() => undefined);
					const clipped = await item.evaluate((e) =>
						[...(e.querySelector('[data-test-id="input-label"]')?.querySelectorAll('span') ?? [])]
							.filter(
								(s) => s.children.length === 0 && s.innerText && s.scrollWidth > s.clientWidth + 1,
							)
							.map((s) => s.innerText.trim()),
					);
					for (const label of clipped) cut.set(label, [...(cut.get(label) ?? []), name]);
				}
				await closeNode(page);
			}
			// A panel with nothing to measure means the check looked at nothing there.
			expect(Object.entries(measured).filter(([, count]) => count === 0)).toEqual([]);
			expect(
				[...cut].map(([label, where]) => `"${label}" in ${[...new Set(where)].join(', ')}`),
			).toEqual([]);
		},
		600_000,
	);
});
