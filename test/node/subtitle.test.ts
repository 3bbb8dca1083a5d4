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

/**
 * Every operation the node offers, in the order of its selectors, with the action its option gives
 * (the words the node picker lists): the canvas must show the same under the node. The operations'
 * names are held to the docs' table by test/guard/docs-tables.ts; the actions' wording by
 * test/guard/n8n-rules.ts.
 */
function offered(description: INodeTypeDescription): Array<[string, string, string]> {
	const resources = description.properties.find((p) => p.name === 'resource')?.options ?? [];
	return resources.flatMap((resource) => {
		const value = (resource as INodePropertyOptions).value as string;
		const selector = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(value),
		);
		return ((selector?.options ?? []) as INodePropertyOptions[]).map(
			(operation): [string, string, string] => [
				value,
				operation.value as string,
				operation.action ?? '',
			],
		);
	});
}

describe('the action node on the canvas', () => {
	const description = new ContentGen().description;
	const canvas = offered(description);

	it('offers every resource with its operations, each with an action', () => {
		expect([...new Set(canvas.map(([resource]) => resource))]).toEqual([
			'account',
			'article',
			'project',
			'socialContent',
		]);
		expect(canvas.filter(([, , action]) => action === '')).toEqual([]);
	});

	it.each(canvas)('%s / %s is subtitled "%s"', (resource, operation, subtitle) => {
		expect(canvasSubtitle(description, { resource, operation })).toBe(subtitle);
	});

	it('is subtitled with the default operation when only the resource is set', () => {
		expect(canvasSubtitle(description, { resource: 'socialContent' })).toBe(
			'Generate social content',
		);
		expect(canvasSubtitle(description, {})).toBe('Generate article');
	});

	it("reads the action by resource and operation: another resource's Get is not borrowed", () => {
		expect(canvasSubtitle(description, { resource: 'account', operation: 'get' })).toBe('get');
	});
});
