/**
 * Runs the trigger's poll through n8n-core's own PollContext, the way an active workflow's
 * poll tick does, with static data that survives (or is JSON round-tripped across) polls.
 */
import { PollContext } from 'n8n-core';
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ContentGenTrigger } from '../../nodes/ContentGenTrigger/ContentGenTrigger.node';
import {
	PACKAGE,
	TEST_API_KEY,
	TEST_BASE_URL,
	TestCredentialsHelper,
	TestNodeTypes,
} from '../helpers/engine';

export interface PollHarness {
	poll(mode?: WorkflowExecuteMode): Promise<INodeExecutionData[][] | null>;
	/** The node's static data as n8n would store it (JSON). */
	staticData(): IDataObject;
	/** Simulates an n8n restart: static data goes through JSON and the workflow is rebuilt. */
	restart(): void;
}

export function pollHarness(
	parameters: IDataObject,
	credentials: { apiKey: string; baseUrl: string } = {
		apiKey: TEST_API_KEY,
		baseUrl: TEST_BASE_URL,
	},
): PollHarness {
	// n8n's node loader gives every polling node its Poll Times parameter; so does this harness.
	const trigger = new ContentGenTrigger();
	trigger.description.properties.unshift(...commonPollingParameters);
	const nodeTypes = new TestNodeTypes({ [`${PACKAGE}.contentGenTrigger`]: trigger });
	const node: INode = {
		id: 'trigger',
		name: 'ContentGen Trigger',
		type: `${PACKAGE}.contentGenTrigger`,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INodeParameters,
		credentials: { contentGenApi: { id: 'test-credential', name: 'ContentGen account' } },
	};
	const additionalData = {
		credentialsHelper: new TestCredentialsHelper({ contentGenApi: credentials }),
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		variables: {},
		userId: 'test-user',
	} as unknown as IWorkflowExecuteAdditionalData;
	let staticData: IDataObject = {};
	let workflow = build();

	function build(): Workflow {
		return new Workflow({
			id: 'poll-test',
			name: 'poll test',
			nodes: [node],
			connections: {},
			nodeTypes,
			staticData,
			active: true,
			settings: {},
		});
	}

	return {
		async poll(mode: WorkflowExecuteMode = 'trigger') {
			const context = new PollContext(
				workflow,
				node,
				additionalData,
				mode,
				mode === 'manual' ? 'manual' : 'activate',
			);
			return await trigger.poll.call(context);
		},
		staticData() {
			return JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		},
		restart() {
			staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			workflow = build();
		},
	};
}
