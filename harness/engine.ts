/* eslint-disable @typescript-eslint/no-require-imports -- the node files are required by full name (see below) */
/**
 * Runs a workflow (JSON as n8n exports it) through n8n-core's real WorkflowExecute with this
 * package's node and credential types, the way n8n's own node test harness does.
 * Shared by the tests (through test/helpers/engine.ts), the benchmarks and the demo.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	ITaskData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { TestCredentialsHelper } from './credentials';
import {
	IfCondition,
	PassThroughStart,
	RemoveDuplicates,
	SetFields,
	StickyNote,
} from './stand-ins';
import type { ContentGen as ContentGenClass } from '../nodes/ContentGen/ContentGen.node';
import type { ContentGenTrigger as ContentGenTriggerClass } from '../nodes/ContentGenTrigger/ContentGenTrigger.node';

// Each X.node.ts has its codex X.node.json beside it. Node's resolver (what tsx uses for the demo)
// tries .json before .ts, so the node files are required by their full name.
const { ContentGen } = require('../nodes/ContentGen/ContentGen.node.ts') as {
	ContentGen: typeof ContentGenClass;
};
const { ContentGenTrigger } = require('../nodes/ContentGenTrigger/ContentGenTrigger.node.ts') as {
	ContentGenTrigger: typeof ContentGenTriggerClass;
};

export const PACKAGE = 'n8n-nodes-contentgen';

const STAND_IN_STARTS = [
	'n8n-nodes-base.manualTrigger',
	'n8n-nodes-base.scheduleTrigger',
	'n8n-nodes-base.noOp',
];

export class TestNodeTypes implements INodeTypes {
	readonly types: Record<string, INodeType>;

	constructor(extra: Record<string, INodeType> = {}) {
		this.types = {
			[`${PACKAGE}.contentGen`]: new ContentGen(),
			[`${PACKAGE}.contentGenTrigger`]: new ContentGenTrigger(),
			'n8n-nodes-base.manualTrigger': new PassThroughStart('manualTrigger'),
			'n8n-nodes-base.scheduleTrigger': new PassThroughStart('scheduleTrigger'),
			'n8n-nodes-base.noOp': new PassThroughStart('noOp'),
			'n8n-nodes-base.stickyNote': new StickyNote(),
			'n8n-nodes-base.removeDuplicates': new RemoveDuplicates(),
			'n8n-nodes-base.set': new SetFields(),
			'n8n-nodes-base.if': new IfCondition(),
			...extra,
		};
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string): INodeType {
		const type = this.types[nodeType];
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getKnownTypes() {
		return {};
	}
}

export interface TestCredentials {
	apiKey: string;
	baseUrl: string;
	/** The credential's "Allow Plain HTTP to a Private Address" (off when left out). */
	allowPrivateHttp?: boolean;
}

/**
 * What n8n hands a node besides its parameters: the credential (none: a helper that has none),
 * hooks, URLs; no sub-workflows or runners. Every test context (an execution, a poll, the
 * editor's list search, the Test button) is built on this.
 */
export function engineAdditionalData(
	options: {
		credentials?: TestCredentials;
		hooks?: ExecutionLifecycleHooks;
		currentNodeParameters?: INodeParameters;
	} = {},
): IWorkflowExecuteAdditionalData {
	const { credentials, hooks, currentNodeParameters } = options;
	return {
		hooks,
		credentialsHelper: new TestCredentialsHelper(
			credentials ? { contentGenApi: { ...credentials } } : {},
		),
		currentNodeParameters,
		currentNodeExecutionIndex: 0,
		executionId: 'test-execution',
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: '',
		formWaitingBaseUrl: '',
		formTestBaseUrl: '',
		webhookBaseUrl: '',
		webhookWaitingBaseUrl: '',
		webhookTestBaseUrl: '',
		mcpBaseUrl: '',
		mcpTestBaseUrl: '',
		variables: {},
		userId: 'test-user',
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not available in tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => undefined,
		startRunnerTask: async () => {
			throw new Error('Task runners are not available in tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** The node's one version, the one the editor saves a node at. */
export function nodeVersion(type: 'contentGen' | 'contentGenTrigger'): number {
	const node = type === 'contentGen' ? new ContentGen() : new ContentGenTrigger();
	return node.description.version as number;
}

/** A node of this package as a workflow holds it, naming the test credential. */
export function packageNode(
	type: 'contentGen' | 'contentGenTrigger',
	parameters: INodeParameters,
	extra: Partial<INode> = {},
): INode {
	const action = type === 'contentGen';
	return {
		id: action ? 'contentgen' : 'trigger',
		name: action ? 'ContentGen' : 'ContentGen Trigger',
		type: `${PACKAGE}.${type}`,
		typeVersion: nodeVersion(type),
		position: [0, 0],
		parameters,
		credentials: { contentGenApi: { id: 'test-credential', name: 'ContentGen account' } },
		...extra,
	};
}

export interface WorkflowJson {
	name?: string;
	nodes: INode[];
	connections: IWorkflowBase['connections'];
	settings?: IWorkflowBase['settings'];
	pinData?: unknown;
}

export interface RunOptions {
	credentials?: TestCredentials;
	/** Items the start node emits. */
	input?: IDataObject[];
	mode?: WorkflowExecuteMode;
	nodeTypes?: TestNodeTypes;
	/** Lets a test cancel the execution as the user's Stop button does. */
	onStart?: (cancel: () => void) => void;
	/** n8n's nodeExecuteBefore hook: a node is about to run. */
	onNodeStart?: (nodeName: string) => void;
	/** n8n's nodeExecuteAfter hook: a node finished (its task data carries output or error). */
	onNodeFinish?: (nodeName: string, task: ITaskData) => void;
}

export interface RunResult {
	run: IRun;
	/** Items of a node's first output in its last run. */
	output(nodeName: string): INodeExecutionData[];
	/** The error that stopped the workflow, if any. */
	error?: { message: string; description?: string | null; node?: string; httpCode?: string | null };
	executedNodes: string[];
}

export const TEST_API_KEY = `svc_${'0123456789abcdef'.repeat(4)}`;
export const TEST_BASE_URL = 'https://contentgen.test';

export async function runWorkflow(
	workflowJson: WorkflowJson,
	options: RunOptions = {},
): Promise<RunResult> {
	const nodeTypes = options.nodeTypes ?? new TestNodeTypes();
	const workflow = new Workflow({
		id: 'test',
		name: workflowJson.name ?? 'test',
		nodes: workflowJson.nodes,
		connections: workflowJson.connections,
		nodeTypes,
		settings: workflowJson.settings ?? {},
		active: false,
	});

	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: 'test',
		name: workflowJson.name ?? 'test',
		nodes: workflowJson.nodes,
		connections: workflowJson.connections,
		active: false,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase);
	const executedNodes: string[] = [];
	hooks.addHandler('nodeExecuteBefore', (nodeName: string) => {
		options.onNodeStart?.(nodeName);
	});
	hooks.addHandler('nodeExecuteAfter', (nodeName: string, task: ITaskData) => {
		executedNodes.push(nodeName);
		options.onNodeFinish?.(nodeName, task);
	});
	let resolveFinished: (run: IRun) => void = () => undefined;
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData: IRun) => resolveFinished(fullRunData));

	const additionalData = engineAdditionalData({
		credentials: options.credentials ?? { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL },
		hooks,
	});

	// n8n starts a Schedule Trigger through its own trigger machinery; its stand-in here is a plain
	// node, so a stand-in without parents is taken as the start when n8n finds no other.
	const startNode =
		workflow.getStartNode() ??
		Object.values(workflow.nodes).find(
			(candidate) =>
				STAND_IN_STARTS.includes(candidate.type) &&
				!candidate.disabled &&
				workflow.getParentNodes(candidate.name).length === 0,
		);
	if (!startNode) throw new Error('The workflow has no start node');
	const runExecutionData: IRunExecutionData = {
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [
				{
					node: startNode,
					data: { main: [(options.input ?? [{}]).map((json) => ({ json }))] },
					source: null,
				},
			],
		},
	} as unknown as IRunExecutionData;

	const execute = new WorkflowExecute(additionalData, options.mode ?? 'manual', runExecutionData);
	const running = execute.processRunExecutionData(workflow);
	options.onStart?.(() => running.cancel());
	await running;
	const run = await finished;

	const runData = run.data.resultData.runData;
	const error = run.data.resultData.error as
		| {
				message: string;
				description?: string | null;
				node?: { name: string };
				httpCode?: string | null;
		  }
		| undefined;
	return {
		run,
		executedNodes,
		error: error
			? {
					message: error.message,
					description: error.description,
					node: error.node?.name,
					httpCode: error.httpCode,
				}
			: undefined,
		output(nodeName: string) {
			const tasks = runData[nodeName];
			if (!tasks || tasks.length === 0) throw new Error(`Node "${nodeName}" did not run`);
			return tasks[tasks.length - 1].data?.main?.[0] ?? [];
		},
	};
}

/** A Manual Trigger followed by one ContentGen node with the given parameters. */
export function singleNodeWorkflow(
	parameters: IDataObject,
	extra: Partial<INode> = {},
): WorkflowJson {
	return {
		name: 'single node',
		nodes: [
			{
				id: 'trigger',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			packageNode('contentGen', parameters as INodeParameters, { position: [200, 0], ...extra }),
		],
		connections: { Start: { main: [[{ node: 'ContentGen', type: 'main', index: 0 }]] } },
	};
}
