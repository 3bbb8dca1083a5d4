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
		typeVersion: 2,
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

/** Every operation the node offers, in the order of its selectors. */
function offered(description: INodeTypeDescription) {
	const resources = description.properties.find((p) => p.name === 'resource')?.options ?? [];
	return resources.flatMap((resource) => {
		const value = (resource as INodePropertyOptions).value as string;
		const selector = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(value),
		);
		return ((selector?.options ?? []) as INodePropertyOptions[]).map((operation) => [
			value,
			operation.value as string,
		]);
	});
}

/** What the editor shows under the node for each operation: the action the node picker lists. */
const CANVAS: Array<[string, string, string]> = [
	['account', 'getCredits', 'Get credit balance'],
	['account', 'getUsage', 'Get API usage'],
	['article', 'generate', 'Generate article'],
	['article', 'get', 'Get article'],
	['article', 'getMany', 'Get many articles'],
	['article', 'getStatus', 'Get article status'],
	['article', 'waitForCompletion', 'Wait for article completion'],
	['project', 'get', 'Get project'],
	['project', 'getMany', 'Get many projects'],
	['socialContent', 'generate', 'Generate social content'],
	['socialContent', 'get', 'Get social content'],
	['socialContent', 'getMany', 'Get many social content'],
	['socialContent', 'publish', 'Publish social content'],
	['socialContent', 'waitForCompletion', 'Wait for social content completion'],
];

describe('the action node on the canvas', () => {
	const description = new ContentGen().description;

	it('offers exactly the operations of the list, in its order', () => {
		expect(offered(description)).toEqual(
			CANVAS.map(([resource, operation]) => [resource, operation]),
		);
	});

	it.each(CANVAS)('%s / %s is subtitled "%s"', (resource, operation, subtitle) => {
		expect(canvasSubtitle(description, { resource, operation })).toBe(subtitle);
	});

	it('is subtitled with the default operation when only the resource is set', () => {
		expect(canvasSubtitle(description, { resource: 'socialContent' })).toBe(
			'Generate social content',
		);
		expect(canvasSubtitle(description, {})).toBe('Generate article');
	});
});
