import type { INode, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { ContentGen } from '../../nodes/ContentGen/ContentGen.node';
import { TestNodeTypes } from '../helpers/engine';

const TYPE = 'n8n-nodes-contentgen.contentGen';

/** The subtitle as the editor computes it under a node on the canvas. */
function canvasSubtitle(description: INodeTypeDescription, parameters: Record<string, string>) {
	const node: INode = {
		id: 'subtitle',
		name: 'ContentGen',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	// The editor fills in the defaults before it evaluates the subtitle.
	node.parameters =
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes(),
	});
	return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
}

/** Every operation the node offers, by resource, with the action the node picker lists it as. */
function offered(description: INodeTypeDescription) {
	const resources = description.properties.find((p) => p.name === 'resource')?.options ?? [];
	return resources.flatMap((resource) => {
		const value = (resource as INodePropertyOptions).value as string;
		const selector = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(value),
		);
		return ((selector?.options ?? []) as INodePropertyOptions[]).map((operation) => ({
			resource: value,
			operation: operation.value as string,
			action: operation.action,
		}));
	});
}

describe('the action node on the canvas', () => {
	const description = new ContentGen().description;
	const operations = offered(description);

	it('offers operations, each with the action the node picker shows', () => {
		expect(operations.length).toBeGreaterThan(10);
		for (const { action, resource, operation } of operations) {
			expect([resource, operation, typeof action]).toEqual([resource, operation, 'string']);
		}
	});

	it.each(operations)(
		'is subtitled "$action" for $resource / $operation',
		({ resource, operation, action }) => {
			expect(canvasSubtitle(description, { resource, operation })).toBe(action);
		},
	);

	it('is subtitled with the default operation when only the resource is set', () => {
		expect(canvasSubtitle(description, { resource: 'socialContent' })).toBe(
			'Generate social content',
		);
		expect(canvasSubtitle(description, {})).toBe('Generate an article');
	});
});
