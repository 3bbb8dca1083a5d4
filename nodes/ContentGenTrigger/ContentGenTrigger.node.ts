import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { platformOptions } from '../shared/domain/platforms';
import { projectLocator, readProjectId, searchProjects } from '../shared/domain/projects';
import { testContentGenCredential } from '../shared/credentialTest';
import { apiGet, respectRateLimit } from '../shared/transport/request';
import { pathId, validatePlatform, ValidationError } from '../shared/validation';
import {
	ARTICLE_EVENTS,
	LIMITS,
	pickTestEvent,
	pollSteps,
	SOCIAL_EVENTS,
	type EmittedEvent,
	type ListResult,
	type PollOutcome,
	type TrackedRecord,
	type TrackerReply,
	type TrackerRequest,
	type TriggerEvent,
} from './tracker';

/** A poll waits out a 429 this long at most, then gives up and tries again at the next poll. */
const MAX_RATE_LIMIT_WAIT_MS = 20_000;
const STATE_KEY = 'tracker';

interface Filters {
	projectId?: string;
	platform?: string;
}

function isRateLimited(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '429';
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '404';
}

function readFilters(context: IPollFunctions, events: TriggerEvent[]): Filters {
	const filters: Filters = {};
	try {
		const project = readProjectId(context.getNodeParameter('projectId', ''), false);
		if (project) filters.projectId = project;
		const platform = String(context.getNodeParameter('platform', '') ?? '');
		if (platform && events.some((e) => (SOCIAL_EVENTS as readonly string[]).includes(e))) {
			filters.platform = validatePlatform('Platform', platform);
		}
	} catch (error) {
		const message = error instanceof ValidationError ? error.message : (error as Error).message;
		throw new NodeOperationError(context.getNode(), message);
	}
	return filters;
}

function toItem(event: EmittedEvent): INodeExecutionData {
	return {
		json: {
			...(event.record as IDataObject),
			event: event.event,
			previousStatus: event.previousStatus,
		},
	};
}

async function list(
	context: IPollFunctions,
	endpoint: string,
	qs: IDataObject,
	maxWait: number,
): Promise<ListResult> {
	const response = await apiGet<TrackedRecord[]>(context, endpoint, {
		qs,
		maxRateLimitWaitMs: maxWait,
	});
	const items = Array.isArray(response.data) ? response.data : [];
	await respectRateLimit(context, response.rateLimit, maxWait);
	const limit = Number(qs.limit);
	return {
		items,
		total:
			typeof response.pagination?.total === 'number' ? response.pagination.total : items.length,
		hasMore:
			typeof response.pagination?.has_more === 'boolean'
				? response.pagination.has_more
				: items.length === limit,
	};
}

/** Answers one read of the tracker through the shared transport. */
async function answer(
	context: IPollFunctions,
	request: TrackerRequest,
	filters: Filters,
	maxWait: number,
): Promise<TrackerReply> {
	if (request.kind === 'socialRecord') {
		// A record that is gone (or moved to another account) simply stops being followed.
		return await apiGet<TrackedRecord>(
			context,
			`/social/content/${pathId('Content ID', request.id)}`,
			{
				maxRateLimitWaitMs: maxWait,
			},
		).then(
			(response) => response.data ?? null,
			async (error: unknown) => (isNotFound(error) ? null : await Promise.reject(error)),
		);
	}
	const qs: IDataObject = { page: request.page, limit: request.limit };
	if (request.status) qs.status = request.status;
	if (filters.projectId) qs.project_id = filters.projectId;
	if (request.kind === 'articleList') {
		return await list(context, '/articles', { ...qs, sort: 'updated_at', order: 'desc' }, maxWait);
	}
	if (filters.platform) qs.platform = filters.platform;
	return await list(context, '/social/content', qs, maxWait);
}

/** "Fetch Test Event": the newest matching record, without touching the stored state. */
async function testEvent(
	context: IPollFunctions,
	events: TriggerEvent[],
	filters: Filters,
	maxWait: number,
): Promise<INodeExecutionData[][]> {
	const candidates: EmittedEvent[] = [];
	const lists = [
		{ kind: 'articleList', kinds: ARTICLE_EVENTS },
		{ kind: 'socialList', kinds: SOCIAL_EVENTS },
	] as const;
	for (const { kind, kinds } of lists) {
		const wanted = events.filter((e) => (kinds as readonly string[]).includes(e));
		if (wanted.length === 0) continue;
		const request = { kind, page: 1, limit: LIMITS.pageSize };
		const result = (await answer(context, request, filters, maxWait)) as ListResult;
		const picked = pickTestEvent(result.items, wanted);
		if (picked) candidates.push(picked);
	}
	const updated = (c: EmittedEvent) => Date.parse(String(c.record.updated_at)) || 0;
	const chosen = candidates.sort((a, b) => updated(b) - updated(a))[0];
	if (!chosen) {
		throw new NodeOperationError(context.getNode(), 'No record matches the selected events yet', {
			description:
				'Fetch Test Event shows the most recent matching article or social content. Generate some content (or widen the project/platform filter) and try again.',
		});
	}
	return [[toItem(chosen)]];
}

export class ContentGenTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ContentGen Trigger',
		name: 'contentGenTrigger',
		icon: {
			light: 'file:../ContentGen/contentGen.svg',
			dark: 'file:../ContentGen/contentGen.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when an article or social content finishes generating, fails, is scheduled or published, or changes status',
		defaults: { name: 'ContentGen Trigger' },
		// The editor appends its tracking query after a codex link's #fragment; this one it keeps as is.
		documentationUrl: 'https://github.com/contentgen/n8n-nodes-contentgen#trigger',
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'contentGenApi', required: true, testedBy: 'testContentGenCredential' }],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['articleCompleted'],
				description:
					'Each change seen between two polls starts the workflow once per selected event it matches',
				options: [
					{
						name: 'Article Completed',
						value: 'articleCompleted',
						description: 'An article finished generating (status cms or needs_editing)',
					},
					{
						name: 'Article Created',
						value: 'articleCreated',
						description: 'A new article appeared',
					},
					{
						name: 'Article Failed',
						value: 'articleFailed',
						description: 'An article generation failed',
					},
					{
						name: 'Article Status Changed',
						value: 'articleStatusChanged',
						description: 'An existing article changed status (any status)',
					},
					{
						name: 'Social Content Failed',
						value: 'socialFailed',
						description: 'A social content generation failed',
					},
					{
						name: 'Social Content Finished',
						value: 'socialFinished',
						description: 'Social content finished generating (status completed or ready)',
					},
					{
						name: 'Social Content Published',
						value: 'socialPublished',
						description: 'Social content was published',
					},
					{
						name: 'Social Content Scheduled',
						value: 'socialScheduled',
						description: 'Social content was scheduled for publishing',
					},
					{
						name: 'Social Content Status Changed',
						value: 'socialStatusChanged',
						description: 'Existing social content changed status (any status)',
					},
				],
			},
			projectLocator('Only records of this project. Leave empty for all projects.'),
			{
				displayName: 'Platform',
				name: 'platform',
				type: 'options',
				default: '',
				description: 'Only social content targeting this platform (social events only)',
				options: [{ name: 'Any Platform', value: '' }, ...platformOptions],
			},
		],
	};

	methods = {
		listSearch: { searchProjects },
		credentialTest: { testContentGenCredential },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const events = (this.getNodeParameter('events', []) as string[]).filter(
			(e): e is TriggerEvent => [...ARTICLE_EVENTS, ...SOCIAL_EVENTS].includes(e as TriggerEvent),
		);
		if (events.length === 0) {
			throw new NodeOperationError(this.getNode(), 'Select at least one event to watch');
		}
		const filters = readFilters(this, events);
		const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
		const maxWait =
			budget === undefined
				? MAX_RATE_LIMIT_WAIT_MS
				: Math.min(MAX_RATE_LIMIT_WAIT_MS, Math.floor(budget / 4));

		if (this.getMode() === 'manual') return await testEvent(this, events, filters, maxWait);

		const staticData = this.getWorkflowStaticData('node');
		const scope = `${filters.projectId ?? ''}|${filters.platform ?? ''}`;
		const steps = pollSteps(staticData[STATE_KEY], { events, scope });
		let outcome: PollOutcome | undefined;
		let failure: unknown;
		try {
			let next = steps.next();
			while (!next.done) next = steps.next(await answer(this, next.value, filters, maxWait));
			outcome = next.value;
		} catch (error) {
			failure = error;
		}
		if (!outcome) {
			// Nothing is stored on failure, so the next poll covers this window too.
			if (isRateLimited(failure)) {
				this.logger.warn('ContentGen Trigger: still rate limited, skipping this poll', {
					node: this.getNode().name,
				});
				return null;
			}
			if (failure instanceof NodeApiError || failure instanceof NodeOperationError) throw failure;
			throw new NodeOperationError(this.getNode(), failure as Error);
		}
		staticData[STATE_KEY] = outcome.state as unknown as IDataObject;
		if (outcome.events.length === 0) return null;
		return [outcome.events.map(toItem)];
	}
}
