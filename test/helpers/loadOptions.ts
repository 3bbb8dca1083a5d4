/**
 * A real n8n-core LoadOptionsContext for the ContentGen node, the context n8n's editor uses to
 * call a node's listSearch methods (resource locator lists).
 */
import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	engineAdditionalData,
	packageNode,
	TEST_API_KEY,
	TEST_BASE_URL,
	TestNodeTypes,
	type TestCredentials,
} from './engine';

export function loadOptionsContext(
	parameters: INode['parameters'] = {},
	credentials: TestCredentials = { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL },
): ILoadOptionsFunctions {
	const node = packageNode('contentGen', parameters);
	const workflow = new Workflow({
		id: 'test',
		name: 'load options',
		nodes: [node],
		connections: {},
		nodeTypes: new TestNodeTypes(),
		active: false,
		settings: {},
	});
	const additionalData = engineAdditionalData({ credentials, currentNodeParameters: parameters });
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters.projectId');
}
