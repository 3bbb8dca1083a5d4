/**
 * n8n 2.41's durable scheduler with durable poll cursors (N8N_SCHEDULER_ENABLED,
 * N8N_SCHEDULER_POLL_TRIGGERS_ENABLED, N8N_POLLER_DURABLE_CURSORS_ENABLED), as its code does it,
 * around the trigger's real poll (./poll.ts):
 *
 * - The cursor row (`poller_state`) is created once from the workflow's node static data
 *   (PollerStateRepository.getOrCreateCursor); every poll gets a copy of it as its node static
 *   data, and keeps that copy only by committing it (trigger-execution-context.factory.js).
 * - The poll run when a workflow is activated (PollTriggerExecutor, `testingTrigger`) commits its
 *   copy only with the execution of the items it emits: one that emits nothing keeps nothing. Its
 *   workflow's static data (the global part included) is saved after activation
 *   (WorkflowTriggerActivator.activateInternal).
 * - A scheduled poll (PollTriggerTaskHandler: mode 'trigger', activation 'update', a budget of
 *   min(N8N_SCHEDULER_POLL_TIMEOUT 45 s, lease 60 s) less 20 %: 36 s) commits its copy with the
 *   execution row of its items, or alone when it emits nothing; the workflow's static data is saved
 *   only when it emits. The execution committed with the cursor may never start (main stopped:
 *   "Failed to start the execution committed for a poll"): its items are then never delivered.
 * - A failed poll commits nothing. Two polls from the same row both commit: the last one wins.
 */
import type { IDataObject, IHttpRequestOptions, INodeExecutionData } from 'n8n-workflow';

import { pollHarness, type PollHarness } from './poll';

/** The budget n8n 2.41's durable scheduler gives a scheduled poll with its default settings. */
export const DURABLE_POLL_BUDGET_MS = 36_000;

const NODE_KEY = 'node:ContentGen Trigger';

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export interface DurablePoll {
	/** What the poll emitted (null: nothing). */
	output: INodeExecutionData[][] | null;
	/** The items that reached the workflow (none when its execution never started). */
	delivered: IDataObject[];
}

export class DurableCursors {
	readonly harness: PollHarness;
	/** The `poller_state` row; undefined until a poll creates it. */
	row: IDataObject | undefined;
	/** The workflow's static data as saved in its database row. */
	saved: IDataObject = {};
	/** Every item that reached the workflow, in order. */
	readonly delivered: IDataObject[] = [];
	private working: IDataObject = {};

	constructor(
		parameters: IDataObject,
		http: (type: string, options: IHttpRequestOptions) => Promise<unknown>,
	) {
		this.harness = pollHarness(parameters, undefined, {
			http,
			nodeStaticData: () => this.working,
		});
	}

	/** Takes the poll's copy of the cursor, creating the row from the workflow if it has none. */
	private begin(): void {
		this.harness.load(this.saved);
		this.row ??= copy((this.saved[NODE_KEY] as IDataObject | undefined) ?? {});
		this.working = copy(this.row);
	}

	private deliver(output: INodeExecutionData[][] | null, starts: boolean): DurablePoll {
		const delivered = starts && output ? output[0].map((item) => item.json) : [];
		this.delivered.push(...delivered);
		return { output, delivered };
	}

	/** The poll n8n runs when the workflow is activated or published. */
	async activate(): Promise<DurablePoll> {
		this.begin();
		const output = await this.harness.poll('trigger', { activation: 'activate' });
		if (output) this.row = copy(this.working);
		this.saved = this.harness.staticData();
		return this.deliver(output, true);
	}

	/** A scheduled poll; `executionStarts: false` when its execution is committed but never runs. */
	async scheduled(options: { executionStarts?: boolean } = {}): Promise<DurablePoll> {
		this.begin();
		const output = await this.harness.poll('trigger', {
			activation: 'update',
			pollBudgetMs: DURABLE_POLL_BUDGET_MS,
		});
		return this.commit(output, this.working, options.executionStarts ?? true);
	}

	/** Two scheduled polls started from the same row (a lease that expired): both commit. */
	async twice(): Promise<[DurablePoll, DurablePoll]> {
		this.begin();
		const start = copy(this.working);
		const poll = { activation: 'update' as const, pollBudgetMs: DURABLE_POLL_BUDGET_MS };
		const first = await this.harness.poll('trigger', poll);
		const firstCopy = this.working;
		this.working = copy(start);
		const second = await this.harness.poll('trigger', poll);
		const secondCopy = this.working;
		return [this.commit(first, firstCopy, true), this.commit(second, secondCopy, true)];
	}

	private commit(
		output: INodeExecutionData[][] | null,
		cursor: IDataObject,
		starts: boolean,
	): DurablePoll {
		this.row = copy(cursor);
		if (output) this.saved = this.harness.staticData();
		return this.deliver(output, starts);
	}
}
