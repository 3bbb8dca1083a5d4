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
	IHttpRequestOptions,
	INodeParameters,
	INodeType,
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
} from '../engine';

export interface PollHarness {
	poll(mode?: WorkflowExecuteMode): Promise<INodeExecutionData[][] | null>;
	/** What the last poll logged as warnings (n8n shows these in its log). */
	warnings(): string[];
	/** The last poll said it is behind (work left for the next polls). */
	behind(): boolean;
	/** The node's static data as n8n would store it (JSON). */
	staticData(): IDataObject;
	/** Simulates an n8n restart: static data goes through JSON and the workflow is rebuilt. */
	restart(): void;
	/** Puts back static data saved earlier (a poll run again from an older state). */
	load(data: IDataObject): void;
}

export interface HarnessOptions {
	/** What `getPollBudgetMs()` answers (n8n's default: 5 minutes; its durable scheduler: 36 s). */
	pollBudgetMs?: number;
	/** Replaces n8n's authenticated request helper: a service on a virtual clock. */
	http?: (type: string, options: IHttpRequestOptions) => Promise<unknown>;
	/**
	 * What `getWorkflowStaticData('node')` answers instead of the workflow's static data: under
	 * durable cursors n8n hands the poll a copy of the cursor it keeps in its `poller_state` table.
	 */
	nodeStaticData?: () => IDataObject;
	/** Another build's trigger (the compatibility corpus freezes older builds too), at a node version. */
	trigger?: INodeType;
	typeVersion?: number;
}

/** n8n's logger, as the context's memoized getter gives it, without fixing it on the context. */
function loggerOf(context: PollContext): PollContext['logger'] {
	for (let proto = Object.getPrototypeOf(context); proto; proto = Object.getPrototypeOf(proto)) {
		const getter = Object.getOwnPropertyDescriptor(proto, 'logger')?.get;
		if (getter) return getter.call({}) as PollContext['logger'];
	}
	throw new Error('no logger on the poll context');
}

export function pollHarness(
	parameters: IDataObject,
	credentials: { apiKey: string; baseUrl: string } = {
		apiKey: TEST_API_KEY,
		baseUrl: TEST_BASE_URL,
	},
	options: HarnessOptions = {},
): PollHarness {
	// n8n's node loader gives every polling node its Poll Times parameter; so does this harness.
	const trigger = options.trigger ?? new ContentGenTrigger();
	trigger.description.properties.unshift(...commonPollingParameters);
	const nodeTypes = new TestNodeTypes({ [`${PACKAGE}.contentGenTrigger`]: trigger });
	const node: INode = {
		id: 'trigger',
		name: 'ContentGen Trigger',
		type: `${PACKAGE}.contentGenTrigger`,
		typeVersion: options.typeVersion ?? 1,
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
	let warnings: string[] = [];

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
				undefined,
				undefined,
				undefined,
				undefined,
				options.nodeStaticData,
				options.pollBudgetMs === undefined ? undefined : () => options.pollBudgetMs as number,
			);
			if (options.http) context.helpers.httpRequestWithAuthentication = options.http;
			// Keep n8n's logger, and note the warnings the poll gives it. (Reading `context.logger`
			// would fix it on the context for good: it is read through a stand-in instead.)
			const logger = loggerOf(context);
			warnings = [];
			Object.defineProperty(context, 'logger', {
				value: new Proxy(logger, {
					get: (target, name) =>
						name === 'warn'
							? (message: string, meta?: Record<string, unknown>) => {
									warnings.push(message);
									target.warn(message, meta);
								}
							: Reflect.get(target, name),
				}),
			});
			return await trigger.poll!.call(context);
		},
		warnings() {
			return [...warnings];
		},
		behind() {
			return warnings.some((w) => w.startsWith('ContentGen Trigger is behind'));
		},
		staticData() {
			return JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		},
		restart() {
			staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			workflow = build();
		},
		load(data: IDataObject) {
			staticData = JSON.parse(JSON.stringify(data)) as IDataObject;
			workflow = build();
		},
	};
}
