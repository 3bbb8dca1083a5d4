import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testContentGenCredential } from '../shared/credentialTest';
import { platformOptions } from '../shared/domain/platforms';
import { projectLocator, searchProjects } from '../shared/domain/projects';
import { EVENT_NAMES, eventOptions, eventsOfKind, eventSubtitle } from './events';
import { pollTimes, readDelivery, readParameters, readShape, scopeOf } from './parameters';
import { reader } from './service-reader';
import { dailyCost, logPoll, pollFailed } from './report';
import { pollTiming, shortestPollGapMs } from './schedule';
import { lostStart, markStart } from './starts';
import { fetchTestEvent } from './test-event';
import { goneNotice, itemJson, readFullRecords } from './tracker/items';
import { runPoll, type PollOutcome } from './tracker/poll';
import { REPEATS } from './tracker/repeats';
import { committedAt } from './tracker/state/formats';

/** Where the node's static data keeps the tracker's state. */
const STATE_KEY = 'tracker';
/** When polls began to end unfinished before any completed: how long the trigger stays quiet. */
const LATE_KEY = 'lateSince';

export class ContentGenTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ContentGen Trigger',
		name: 'contentGenTrigger',
		icon: {
			light: 'file:../ContentGen/contentGen.svg',
			dark: 'file:../ContentGen/contentGen.dark.svg',
		},
		group: ['trigger'],
		// One version since 1.0.0 (AGENTS.md, Versioning): 1.1, the default before it.
		version: 1.1,
		subtitle: eventSubtitle,
		description:
			'Starts the workflow when an article or social content finishes generating, fails, is scheduled or published, or changes status',
		defaults: { name: 'ContentGen Trigger' },
		// The editor appends its tracking query after a codex link's #fragment; this one it keeps as is.
		documentationUrl:
			'https://github.com/n8n-nodes-contentgen/n8n-nodes-contentgen/blob/main/docs/trigger.md',
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'contentGenApi', required: true, testedBy: 'testContentGenCredential' }],
		properties: [
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['articleCompleted'],
				// n8n's design rules give the event selector no tooltip; docs/trigger.md says how a change
				// that matches several selected events is reported (once, naming each).
				options: eventOptions,
			},
			{
				displayName:
					"A few rare changes are not reported, such as an old article moving between two finished statuses: the node's documentation lists them",
				name: 'limitsNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Delivery',
						name: 'delivery',
						type: 'options',
						default: 'exactlyOnce',
						description:
							"How often a change starts the workflow. Every item carries an 'eventId', the same for every report of one change.",
						options: [
							{
								name: 'At Least Once (Repeats Each Change)',
								value: 'atLeastOnce',
								description: `Each change is reported again by the next ${REPEATS} polls, so that none is lost when n8n stops in the middle of a poll. The same change can start the workflow up to ${REPEATS + 1} times: put Remove Duplicates on 'eventId' after this trigger.`,
							},
							{
								name: 'Once (Changes Can Be Missed in a Restart)',
								value: 'exactlyOnce',
								description:
									'Each change starts the workflow once (the default). If n8n is stopped in the middle of a poll, the changes of that poll can be missed.',
							},
						],
					},
					{
						displayName: 'Full Record',
						name: 'fullRecord',
						type: 'boolean',
						default: false,
						// Version 1 gives the record as the poll read it (tracker/items.ts).
						displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
						description:
							'Whether social content items carry every field of the social content, such as the thread items, first comments and carousel plans, instead of the fields of the list. Costs 1 more request for each social content item.',
					},
					{
						displayName: 'Platform',
						name: 'platform',
						type: 'options',
						default: '',
						description: 'Only social content targeting this platform. Default: any platform.',
						displayOptions: { show: { '/events': eventsOfKind(EVENT_NAMES, 'social') } },
						options: [{ name: 'Any Platform', value: '' }, ...platformOptions],
					},
					projectLocator('Only articles and social content of this project. Empty: all projects.'),
				],
			},
		],
	};

	methods = {
		listSearch: { searchProjects },
		credentialTest: { testContentGenCredential },
	};

	/** One poll: ./README.md walks through it. */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const started = Date.now();
		const { events, filters } = readParameters(this);
		if (this.getMode() === 'manual') return await fetchTestEvent(this, events, filters);

		const delivery = readDelivery(this);
		const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
		const timing = pollTiming(started, shortestPollGapMs(pollTimes(this)), budget);
		const staticData = this.getWorkflowStaticData('node');
		const scope = scopeOf(filters);
		const stored = staticData[STATE_KEY];
		const lost = stored === undefined ? lostStart(this, scope) : undefined;
		const config = { events, scope, now: started, delivery, lostStart: lost };
		const read = reader(this, filters, timing);
		const shape = readShape(this);
		let outcome: PollOutcome;
		let gone = 0;
		try {
			outcome = await runPoll(stored, config, read);
			// Read before anything is stored: a poll that cannot read them repeats its window.
			({ items: outcome.items, gone } = await readFullRecords(outcome.items, shape, read));
		} catch (error) {
			// Nothing is stored on failure, so the next poll covers this window too.
			const since = committedAt(stored) ?? Number((staticData[LATE_KEY] ??= started));
			return pollFailed(this, error, started, since, timing);
		}
		const activation = committedAt(stored) === undefined;
		if (LATE_KEY in staticData) delete staticData[LATE_KEY];
		staticData[STATE_KEY] = outcome.state as IDataObject;
		if (outcome.started) markStart(this, scope, started);
		const cost = activation ? dailyCost(events, pollTimes(this), read) : undefined;
		const late = logPoll(this, outcome, lost, cost);
		const goneLine = goneNotice(gone);
		if (goneLine) this.logger.warn(goneLine, { node: this.getNode().name });
		if (outcome.items.length === 0) return null;
		return [outcome.items.map((item) => ({ json: itemJson(item, shape, late) as IDataObject }))];
	}
}
