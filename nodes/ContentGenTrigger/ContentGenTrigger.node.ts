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
import { validatePlatform } from '../shared/validation';
import {
	EVENT_NAMES,
	eventOptions,
	eventsOfKind,
	eventSubtitle,
	parseEvents,
	type TriggerEvent,
} from './events';
import { catchUpNotice } from './catchup';
import { costOf } from './cost';
import { isRateLimited, ranOutOfTime, reader, type Filters, type Reader } from './reads';
import { DELIVERIES, REPEATS, type Delivery } from './replay';
import { pollsPerDay, pollTiming, shortestPollGapMs } from './schedule';
import { lostStart, lostStartNotice, markStart } from './starts';
import { committedAt } from './state';
import { storedNotice } from './stored';
import {
	pickTestEvent,
	pollSteps,
	type EmittedItem,
	type Lag,
	type ListResult,
	type PollOutcome,
} from './tracker';
import { PAGE_SIZE, time } from './types';

const STATE_KEY = 'tracker';
/** When polls began to end unfinished before any completed: how long the trigger stays quiet. */
const LATE_KEY = 'lateSince';

function pollTimes(context: IPollFunctions): unknown {
	return context.getNodeParameter('pollTimes', { item: [{ mode: 'everyMinute' }] });
}

/** What the trigger expects to spend a day, from the Poll Times and the limit the service sent. */
function cost(context: IPollFunctions, events: TriggerEvent[], read: Reader) {
	return costOf(events, pollsPerDay(pollTimes(context)), read.rateLimit()?.dailyLimit);
}

function fail(context: IPollFunctions, error: unknown): NodeOperationError {
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(context.getNode(), message);
}

function readEvents(context: IPollFunctions): TriggerEvent[] {
	let events: TriggerEvent[];
	try {
		events = parseEvents(context.getNodeParameter('events', []));
	} catch (error) {
		throw fail(context, error);
	}
	if (events.length === 0)
		throw new NodeOperationError(context.getNode(), 'Select at least one event to watch');
	return events;
}

function readFilters(context: IPollFunctions, events: TriggerEvent[]): Filters {
	const filters: Filters = {};
	try {
		const project = readProjectId(context.getNodeParameter('projectId', ''), false);
		if (project) filters.projectId = project;
		const platform = String(context.getNodeParameter('platform', '') ?? '');
		if (platform && eventsOfKind(events, 'social').length > 0) {
			filters.platform = validatePlatform('Platform', platform);
		}
	} catch (error) {
		throw fail(context, error);
	}
	return filters;
}

function readDelivery(context: IPollFunctions): Delivery {
	const delivery = context.getNodeParameter('delivery', 'exactlyOnce');
	if (DELIVERIES.includes(delivery as Delivery)) return delivery as Delivery;
	throw new NodeOperationError(
		context.getNode(),
		'Delivery must be Exactly Once or At Least Once',
		{
			description: `Got ${JSON.stringify(delivery)}. Choose one of the two in the Delivery list.`,
		},
	);
}

/** What the trigger has not caught up with yet, in words; undefined when it is up to date. */
function behind(lag: Lag): string | undefined {
	return lag.behind ? lag.notes.join('; ') || 'catching up' : undefined;
}

function toItem(item: EmittedItem, late: string | undefined): INodeExecutionData {
	return {
		json: {
			...(item.record as IDataObject),
			event: item.event,
			events: item.events,
			previousStatus: item.previousStatus,
			eventId: item.eventId,
			...(late ? { behind: late } : {}),
		},
	};
}

/** "Fetch Test Event": the newest matching record, without touching the stored state. */
async function testEvent(
	context: IPollFunctions,
	events: TriggerEvent[],
	filters: Filters,
): Promise<INodeExecutionData[][]> {
	const read = reader(context, filters);
	const candidates: EmittedItem[] = [];
	for (const kind of ['article', 'social'] as const) {
		const wanted = eventsOfKind(events, kind);
		if (wanted.length === 0) continue;
		const request = {
			kind: kind === 'article' ? 'articleList' : 'socialList',
			page: 1,
			limit: PAGE_SIZE,
		} as const;
		const result = (await read(request)) as ListResult;
		const picked = pickTestEvent(result.items, wanted);
		if (picked) candidates.push(picked);
	}
	const updated = (c: EmittedItem) => time(c.record.updated_at) || 0;
	const chosen = candidates.sort((a, b) => updated(b) - updated(a))[0];
	const { warning } = cost(context, events, read);
	if (warning) context.logger.warn(warning, { node: context.getNode().name });
	if (!chosen) {
		throw new NodeOperationError(context.getNode(), 'No record matches the selected events yet', {
			description:
				'Fetch Test Event shows the most recent matching article or social content. Generate some content (or widen the project/platform filter) and try again.',
		});
	}
	const item = toItem(chosen, undefined);
	if (warning) item.json.warning = warning;
	return [[item]];
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
		subtitle: eventSubtitle,
		// n8n's node picker makes one "ContentGen" entry of both nodes and shows this text for it, above
		// the actions as well as the events, so it says what both do.
		description:
			'Generate articles and social posts, publish or schedule them, read credits and usage, and start a workflow when an article or social content finishes generating, fails, is scheduled or published',
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
					'Each change seen between two polls starts the workflow once, naming every selected event it matches',
				options: eventOptions,
			},
			projectLocator('Only records of this project. Leave empty for all projects.'),
			{
				displayName: 'Delivery',
				name: 'delivery',
				type: 'options',
				default: 'exactlyOnce',
				description:
					'How often a change starts the workflow. Every item carries an eventId: the same for every report of one change.',
				options: [
					{
						name: 'At Least Once (for Durable Poll Cursors)',
						value: 'atLeastOnce',
						description: `With N8N_POLLER_DURABLE_CURSORS_ENABLED: each change is reported again by the next ${REPEATS} polls, so none is lost if n8n stops before a workflow runs. Follow the trigger with Remove Duplicates on the eventId.`,
					},
					{
						name: 'Exactly Once (Classic Poll State)',
						value: 'exactlyOnce',
						description: 'Each change starts the workflow once',
					},
				],
			},
			{
				displayName: 'Platform',
				name: 'platform',
				type: 'options',
				default: '',
				description: 'Only social content targeting this platform',
				displayOptions: { show: { events: eventsOfKind(EVENT_NAMES, 'social') } },
				options: [{ name: 'Any Platform', value: '' }, ...platformOptions],
			},
		],
	};

	methods = {
		listSearch: { searchProjects },
		credentialTest: { testContentGenCredential },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const started = Date.now();
		const events = readEvents(this);
		const filters = readFilters(this, events);
		if (this.getMode() === 'manual') return await testEvent(this, events, filters);

		const delivery = readDelivery(this);
		const gap = shortestPollGapMs(pollTimes(this));
		const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
		const timing = pollTiming(started, gap, budget);
		const staticData = this.getWorkflowStaticData('node');
		const scope = `${filters.projectId ?? ''}|${filters.platform ?? ''}`;
		const stored = staticData[STATE_KEY];
		const lost = stored === undefined ? lostStart(this, scope) : undefined;
		const steps = pollSteps(stored, { events, scope, now: started, delivery, lostStart: lost });
		const read = reader(this, filters, timing);
		let outcome: PollOutcome | undefined;
		let failure: unknown;
		try {
			let next = steps.next();
			while (!next.done) next = steps.next(await read(next.value));
			outcome = next.value;
		} catch (error) {
			failure = error;
		}
		const activation = committedAt(staticData[STATE_KEY]) === undefined;
		if (!outcome) {
			// Nothing is stored on failure, so the next poll covers this window too.
			const since = committedAt(staticData[STATE_KEY]) ?? (staticData[LATE_KEY] ??= started);
			const quiet = started - Number(since) < timing.quietForMs;
			const cause = isRateLimited(failure)
				? 'rate limited'
				: ranOutOfTime(failure)
					? 'the service answered too slowly to finish before the next poll is due'
					: undefined;
			if (cause && quiet) {
				this.logger.warn(`ContentGen Trigger: ${cause}; the next poll covers this window`, {
					node: this.getNode().name,
				});
				return null;
			}
			if (ranOutOfTime(failure)) {
				throw new NodeOperationError(this.getNode(), 'The service is too slow for the Poll Times', {
					description: `No poll has finished for ${Math.round((started - Number(since)) / 60_000)} minutes: each must end within ${Math.round((timing.deadline - started) / 1000)} s (before the next poll, and within n8n's poll budget), and the service's answers took longer. Choose longer Poll Times, or check the service's status.`,
				});
			}
			if (failure instanceof NodeApiError || failure instanceof NodeOperationError) throw failure;
			throw fail(this, failure);
		}
		if (LATE_KEY in staticData) delete staticData[LATE_KEY];
		staticData[STATE_KEY] = outcome.state as IDataObject;
		if (outcome.started) markStart(this, scope, started);
		const log = { node: this.getNode().name };
		const notice = storedNotice(outcome.stored);
		if (notice.warn) this.logger.warn(notice.warn, log);
		if (notice.info) this.logger.info(notice.info, log);
		const caught = outcome.caughtUp;
		if (caught && lost !== undefined) this.logger.info(lostStartNotice(caught.from), log);
		const short = caught && catchUpNotice(caught.from, caught.short);
		if (short) this.logger.warn(short, log);
		if (activation) {
			const { expected, warning } = cost(this, events, read);
			if (warning) this.logger.warn(warning, { node: this.getNode().name });
			else this.logger.info(expected, { node: this.getNode().name });
		}
		const late = behind(outcome.lag);
		if (late)
			this.logger.warn(`ContentGen Trigger is behind: ${late}`, { node: this.getNode().name });
		if (outcome.items.length === 0) return null;
		return [outcome.items.map((item) => toItem(item, late))];
	}
}
