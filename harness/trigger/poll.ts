/**
 * Runs the trigger's poll through n8n-core's own PollContext, the way an active workflow's
 * poll tick does, with static data that survives (or is JSON round-tripped across) polls.
 */
import { PollContext } from 'n8n-core';
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';
import type {
	IDataObject,
	INodeExecutionData,
	IHttpRequestOptions,
	INodeParameters,
	INodeType,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ContentGenTrigger } from '../../nodes/ContentGenTrigger/ContentGenTrigger.node';
import {
	engineAdditionalData,
	PACKAGE,
	packageNode,
	TEST_API_KEY,
	TEST_BASE_URL,
	TestNodeTypes,
	type TestCredentials,
} from '../engine';

/** What n8n tells one poll about itself: how the workflow was activated, the poll's budget. */
export interface PollOptions {
	/** `getActivationMode()`: 'activate' by default ('manual' for a manual poll). */
	activation?: WorkflowActivateMode;
	/** `getPollBudgetMs()` of this poll, instead of the harness's. */
	pollBudgetMs?: number;
}

export interface PollHarness {
	poll(mode?: WorkflowExecuteMode, options?: PollOptions): Promise<INodeExecutionData[][] | null>;
	/** What the last poll logged as warnings (n8n shows these in its log). */
	warnings(): string[];
	/** What the last poll logged at info level. */
	infos(): string[];
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
	credentials: TestCredentials = {
		apiKey: TEST_API_KEY,
		baseUrl: TEST_BASE_URL,
	},
	options: HarnessOptions = {},
): PollHarness {
	// n8n's node loader gives every polling node its Poll Times parameter; so does this harness.
	const trigger = options.trigger ?? new ContentGenTrigger();
	trigger.description.properties.unshift(...commonPollingParameters);
	const nodeTypes = new TestNodeTypes({ [`${PACKAGE}.contentGenTrigger`]: trigger });
	const node = packageNode(
		'contentGenTrigger',
		parameters as INodeParameters,
		options.typeVersion === undefined ? {} : { typeVersion: options.typeVersion },
	);
	const additionalData = engineAdditionalData({ credentials });
	let staticData: IDataObject = {};
	let workflow = build();
	let warnings: string[] = [];
	let infos: string[] = [];

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
		async poll(mode: WorkflowExecuteMode = 'trigger', own: PollOptions = {}) {
			const budget = own.pollBudgetMs ?? options.pollBudgetMs;
			const context = new PollContext(
				workflow,
				node,
				additionalData,
				mode,
				own.activation ?? (mode === 'manual' ? 'manual' : 'activate'),
				undefined,
				undefined,
				undefined,
				undefined,
				options.nodeStaticData,
				budget === undefined ? undefined : () => budget,
			);
			if (options.http) context.helpers.httpRequestWithAuthentication = options.http;
			// Keep n8n's logger, and note the warnings and infos the poll gives it. (Reading
			// `context.logger` would fix it on the context for good: it is read through a stand-in.)
			const logger = loggerOf(context);
			warnings = [];
			infos = [];
			const noted = { warn: warnings, info: infos } as Record<string | symbol, string[]>;
			Object.defineProperty(context, 'logger', {
				value: new Proxy(logger, {
					get: (target, name) =>
						name in noted
							? (message: string, meta?: Record<string, unknown>) => {
									noted[name].push(message);
									(Reflect.get(target, name) as (m: string, x?: unknown) => void).call(
										target,
										message,
										meta,
									);
								}
							: Reflect.get(target, name),
				}),
			});
			return await trigger.poll!.call(context);
		},
		warnings() {
			return [...warnings];
		},
		infos() {
			return [...infos];
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
