/**
 * A real n8n-core LoadOptionsContext for the ContentGen node, the context n8n's editor uses to
 * call a node's listSearch methods (resource locator lists).
 */
import { LoadOptionsContext } from 'n8n-core';
import type { ILoadOptionsFunctions, INode, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	PACKAGE,
	TEST_API_KEY,
	TEST_BASE_URL,
	TestCredentialsHelper,
	TestNodeTypes,
} from './engine';

export function loadOptionsContext(
	parameters: INode['parameters'] = {},
	credentials: { apiKey: string; baseUrl: string } = {
		apiKey: TEST_API_KEY,
		baseUrl: TEST_BASE_URL,
	},
): ILoadOptionsFunctions {
	const node: INode = {
		id: 'contentgen',
		name: 'ContentGen',
		type: `${PACKAGE}.contentGen`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { contentGenApi: { id: 'test-credential', name: 'ContentGen account' } },
	};
	const workflow = new Workflow({
		id: 'test',
		name: 'load options',
		nodes: [node],
		connections: {},
		nodeTypes: new TestNodeTypes(),
		active: false,
		settings: {},
	});
	const additionalData = {
		credentialsHelper: new TestCredentialsHelper({ contentGenApi: { ...credentials } }),
		currentNodeParameters: parameters,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		variables: {},
		userId: 'test-user',
	} as unknown as IWorkflowExecuteAdditionalData;
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters.projectId');
}
