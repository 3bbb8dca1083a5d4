/* eslint-disable @typescript-eslint/no-require-imports -- the node files are required by full name (see below) */
/**
 * Runs a workflow (JSON as n8n exports it) through n8n-core's real WorkflowExecute with this
 * package's node and credential types, the way n8n's own node test harness does.
 * Shared by the tests (through test/helpers/engine.ts), the benchmarks and the demo.
 */
import { Credentials, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeProperties,
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
import { ICredentialsHelper, Workflow } from 'n8n-workflow';

import { ContentGenApi } from '../credentials/ContentGenApi.credentials';
import { IfCondition, PassThroughStart, SetFields, StickyNote } from './stand-ins';
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

const CREDENTIAL_TYPES: Record<string, ICredentialType> = { contentGenApi: new ContentGenApi() };

/** Applies a credential's generic `authenticate` block with n8n's own expression resolution. */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly credentials: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = CREDENTIAL_TYPES[typeName]?.authenticate;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const resolve = (value: string) =>
			workflow && node && value.startsWith('=')
				? String(
						workflow.expression.getSimpleParameterValue(
							node,
							value,
							'internal',
							{ $credentials: credentials },
							undefined,
							'',
						),
					)
				: value;
		const properties = authenticate.properties as {
			headers?: Record<string, string>;
			qs?: Record<string, string>;
		};
		const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
		for (const [key, value] of Object.entries(properties.headers ?? {}))
			headers[resolve(key)] = resolve(value);
		const qs: IDataObject = { ...(requestOptions.qs ?? {}) };
		for (const [key, value] of Object.entries(properties.qs ?? {}))
			qs[resolve(key)] = resolve(value);
		return { ...requestOptions, headers, ...(properties.qs ? { qs } : {}) };
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(_details: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		return new Credentials({ id: null, name: type }, type, '');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_details: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.credentials[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return CREDENTIAL_TYPES[type]?.properties ?? [];
	}
}

/** What n8n hands a node besides its parameters: credentials, hooks, URLs; no sub-workflows or runners. */
export function engineAdditionalData(
	credentialsHelper: ICredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		credentialsHelper,
		currentNodeParameters: undefined,
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

export interface WorkflowJson {
	name?: string;
	nodes: INode[];
	connections: IWorkflowBase['connections'];
	settings?: IWorkflowBase['settings'];
	pinData?: unknown;
}

export interface RunOptions {
	credentials?: { apiKey: string; baseUrl: string; allowPrivateHttp?: boolean };
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
	const credentialsHelper = new TestCredentialsHelper({
		contentGenApi: { ...(options.credentials ?? { apiKey: TEST_API_KEY, baseUrl: TEST_BASE_URL }) },
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

	const additionalData = engineAdditionalData(credentialsHelper, hooks);

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
			{
				id: 'contentgen',
				name: 'ContentGen',
				type: `${PACKAGE}.contentGen`,
				typeVersion: 1,
				position: [200, 0],
				parameters,
				credentials: { contentGenApi: { id: 'test-credential', name: 'ContentGen account' } },
				...extra,
			} as INode,
		],
		connections: { Start: { main: [[{ node: 'ContentGen', type: 'main', index: 0 }]] } },
	};
}
