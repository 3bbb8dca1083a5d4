/**
 * What a release's corpus freezes: per operation of both nodes, workflows whose parameters are set
 * away from their defaults (every parameter the operation offers, across its workflows), pointing
 * at the records of the corpus's own account (./records.ts). `scripts/freeze-compat.ts` saves each
 * one as n8n would (without the parameters equal to their defaults) at the node's version, and
 * records what it read, sent and output.
 *
 * Adding a parameter or an operation: add it here (set away from its default) before cutting a
 * version, or the freeze script reports it as not covered. Editing a case changes only the
 * workflows frozen from then on; frozen files are never rewritten.
 */
import type { INodeParameters } from 'n8n-workflow';

import { IDS } from './records';

export interface Case {
	/** file name stem; unique per node */
	name: string;
	node: 'contentGen' | 'contentGenTrigger';
	parameters: INodeParameters;
}

const byList = (value: string) => ({ __rl: true, mode: 'list', value, cachedResultName: 'Bean' });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
/** The options every operation has, away from their defaults (30 s, 60 s, 20 at a time). */
const call = { requestTimeout: 45, maxRateLimitWait: 20, parallelRequests: 3 };
const waits = { pollInterval: 2, timeout: 600, onTimeout: 'fail' };
const images = {
	downloadImages: true,
	maxImageSizeMb: 2,
	splitByPlatform: true,
	binaryPropertyName: 'picture',
};

const action = (
	name: string,
	resource: string,
	operation: string,
	parameters: INodeParameters,
): Case => ({ name, node: 'contentGen', parameters: { resource, operation, ...parameters } });

export const CASES: Case[] = [
	action('article-generate', 'article', 'generate', {
		topic: 'Coffee and focus at work',
		projectId: byList(IDS.project),
		additionalFields: { keywords: 'coffee, focus, office', tone: 'casual', wordCount: 1200 },
		options: { ...call, minimumBalance: 5 },
	}),
	action('article-generate-wait', 'article', 'generate', {
		topic: 'Cold brew in ten minutes',
		projectId: byId(IDS.project),
		waitForCompletion: true,
		output: 'fields',
		fields: ['status', 'title'],
		additionalFields: { tone: 'academic' },
		options: { ...call, ...waits },
	}),
	action('article-get', 'article', 'get', {
		articleId: byId(IDS.article),
		output: 'fields',
		fields: ['slug'],
		options: call,
	}),
	action('article-getMany-limit', 'article', 'getMany', {
		limit: 2,
		output: 'raw',
		sort: { sortBy: 'title', order: 'asc' },
		filters: {
			projectId: byList(IDS.project),
			status: 'cms',
			search: 'coffee',
		},
		options: { ...call, onIncompleteList: 'error' },
	}),
	action('article-getMany-all', 'article', 'getMany', {
		returnAll: true,
		filters: { status: 'failed' },
	}),
	action('article-getStatus', 'article', 'getStatus', {
		articleId: byId(IDS.articleQueued),
		options: call,
	}),
	action('article-waitForCompletion', 'article', 'waitForCompletion', {
		articleId: byId(IDS.article),
		output: 'raw',
		options: { ...call, ...waits },
	}),
	action('social-generate', 'socialContent', 'generate', {
		sourceUrl: 'https://blog.example.com/brew',
		platforms: ['linkedin', 'twitter'],
		additionalFields: {
			angle: 'For people who brew at the office',
			projectId: byList(IDS.project),
			sourceType: 'blog',
			title: 'Brew better',
		},
		options: { ...call, minimumBalance: 3 },
	}),
	action('social-generate-wait', 'socialContent', 'generate', {
		sourceUrl: 'https://blog.example.com/grind',
		platforms: ['instagram', 'linkedin'],
		waitForCompletion: true,
		output: 'raw',
		options: { ...call, ...waits, ...images },
	}),
	action('social-get', 'socialContent', 'get', {
		contentId: byId(IDS.content),
		output: 'fields',
		fields: ['captions'],
		options: { ...call, ...images },
	}),
	action('social-getMany-limit', 'socialContent', 'getMany', {
		limit: 1,
		output: 'fields',
		fields: ['status'],
		filters: {
			articleId: byId(IDS.article),
			platform: 'linkedin',
			projectId: byList(IDS.project),
			status: 'completed',
		},
		options: { ...call, onIncompleteList: 'error' },
	}),
	action('social-getMany-all', 'socialContent', 'getMany', {
		returnAll: true,
		filters: { platform: 'facebook' },
	}),
	action('social-publish-scheduled', 'socialContent', 'publish', {
		contentId: byId(IDS.content),
		additionalFields: { platforms: ['linkedin'], scheduledAt: '2030-01-01T09:00:00.000Z' },
		options: call,
	}),
	action('social-publish-now', 'socialContent', 'publish', { contentId: byId(IDS.content) }),
	action('social-publish-picked', 'socialContent', 'publish', { contentId: byList(IDS.content) }),
	action('social-publish-queued', 'socialContent', 'publish', {
		contentId: byId(IDS.content),
		timing: 'nextFreeSlot',
		postingTimes: { time: [{ weekday: 'tuesday', timeOfDay: '10:30' }] },
		queueOptions: { horizonDays: 14, leadMinutes: 20, postsPerSlot: 2, timeZone: 'Europe/Lisbon' },
	}),
	action('article-getStatus-url', 'article', 'getStatus', {
		articleId: { __rl: true, mode: 'url', value: `/api/v1/articles/${IDS.articleQueued}/status` },
	}),
	action('social-waitForCompletion', 'socialContent', 'waitForCompletion', {
		contentId: byId(IDS.content),
		output: 'raw',
		options: { ...call, ...waits, ...images },
	}),
	action('project-get', 'project', 'get', {
		projectId: byId(IDS.otherProject),
		output: 'fields',
		fields: ['business_name'],
		options: call,
	}),
	action('project-getMany-limit', 'project', 'getMany', {
		limit: 1,
		output: 'raw',
		filters: { search: 'bean', status: 'active' },
		options: { ...call, onIncompleteList: 'error' },
	}),
	action('project-getMany-all', 'project', 'getMany', { returnAll: true }),
	action('account-getCredits', 'account', 'getCredits', { options: call }),
	action('account-getUsage', 'account', 'getUsage', { options: call }),
	{
		name: 'trigger-articles',
		node: 'contentGenTrigger',
		parameters: {
			pollTimes: { item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] },
			events: ['articleCompleted', 'articleCreated', 'articleFailed'],
			options: { projectId: byList(IDS.project) },
		},
	},
	{
		name: 'trigger-social',
		node: 'contentGenTrigger',
		parameters: {
			pollTimes: { item: [{ mode: 'everyHour', minute: 5 }] },
			events: ['socialFinished', 'socialFailed', 'socialScheduled', 'socialPublished'],
			options: { projectId: byId(IDS.project), platform: 'linkedin' },
		},
	},
	{
		name: 'trigger-at-least-once',
		node: 'contentGenTrigger',
		parameters: {
			events: ['articleCompleted', 'socialFinished'],
			options: { delivery: 'atLeastOnce' },
		},
	},
	{
		name: 'trigger-any-change',
		node: 'contentGenTrigger',
		parameters: { events: ['articleStatusChanged', 'socialStatusChanged'] },
	},
	{
		name: 'trigger-full-record',
		node: 'contentGenTrigger',
		parameters: {
			events: ['socialFinished', 'socialPublished'],
			options: { delivery: 'atLeastOnce', fullRecord: true },
		},
	},
];
