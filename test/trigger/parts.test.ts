/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: evaluates the subtitle expression in a separate context, as the editor does */
import { runInNewContext } from 'vm';
import type { INodeProperties } from 'n8n-workflow';

import { ContentGenTrigger } from '../../nodes/ContentGenTrigger/ContentGenTrigger.node';
import {
	EVENT_NAMES,
	EVENTS,
	eventSubtitle,
	followedStatuses,
	matching,
	parseEvents,
} from '../../nodes/ContentGenTrigger/events';
import { pollTiming, shortestPollGapMs } from '../../nodes/ContentGenTrigger/schedule';
import { decode, encode } from '../../nodes/ContentGenTrigger/tracker/state/codec';
import { put, trim, type TrackerMemory } from '../../nodes/ContentGenTrigger/tracker/state/memory';
import { uuidFrom } from '../../harness/trigger/world';

describe('event vocabulary', () => {
	it('gives the Events options, their order and the subtitle', () => {
		const property = new ContentGenTrigger().description.properties.find(
			(p) => p.name === 'events',
		);
		const options = (property?.options ?? []) as Array<{
			value: string;
			name: string;
			description?: string;
		}>;
		// Every event once, by its name and description; the names themselves are held to
		// docs/trigger.md's table (test/guard/docs-tables.ts), their order by test/guard/n8n-rules.ts.
		const listed = options.map((o) => [o.value, o.name, o.description]);
		expect([...listed].sort()).toEqual(
			EVENT_NAMES.map((value) => [value, EVENTS[value].name, EVENTS[value].description]).sort(),
		);
		// The subtitle expression maps each selected value to its name, as n8n evaluates it.
		const subtitle = eventSubtitle.replace(/^=\{\{|\}\}$/g, '');
		const render = (events: string[]) => runInNewContext(subtitle, { $parameter: { events } });
		expect(render(['articleFailed', 'socialFinished'])).toBe(
			'Article Failed, Social Content Finished',
		);
		expect(render(options.map((o) => o.value))).toBe(options.map((o) => o.name).join(', '));
		expect(render([])).toBe('');
	});

	it('refuses an event it does not know, loudly', () => {
		expect(parseEvents(['socialFailed', 'articleCompleted'])).toEqual([
			'articleCompleted',
			'socialFailed',
		]);
		expect(() => parseEvents(['articleCompleted', 'articleDeleted'])).toThrow(
			/Unknown event "articleDeleted": choose from articleCompleted, /,
		);
	});

	it('names every selected event a change matches, the specific ones first', () => {
		const all = [...EVENT_NAMES];
		expect(matching(all, 'article', 'queued', 'cms')).toEqual([
			'articleCompleted',
			'articleStatusChanged',
		]);
		expect(matching(all, 'article', undefined, 'failed')).toEqual([
			'articleFailed',
			'articleCreated',
		]);
		expect(matching(all, 'social', 'generating', 'completed')).toEqual([
			'socialFinished',
			'socialStatusChanged',
		]);
		expect(matching(all, 'social', undefined, 'generating')).toEqual([]);
		expect(matching(['socialPublished'], 'social', 'completed', 'published')).toEqual([
			'socialPublished',
		]);
	});

	it('follows what the selected social events need, nothing more', () => {
		expect(followedStatuses(['socialFinished', 'socialFailed'])).toEqual([
			'draft',
			'queued',
			'generating',
		]);
		expect(followedStatuses(['socialPublished'])).toEqual([
			'draft',
			'queued',
			'generating',
			'ready',
			'completed',
			'scheduled',
		]);
		expect(followedStatuses(['articleCompleted'])).toEqual([]);
	});

	it('shows the Platform filter only when a social event is selected', () => {
		const options = new ContentGenTrigger().description.properties.find(
			(p) => p.name === 'options',
		);
		const platform = (options?.options as INodeProperties[] | undefined)?.find(
			(p) => p.name === 'platform',
		);
		expect(platform?.displayOptions?.show?.['/events']).toEqual([
			'socialFinished',
			'socialFailed',
			'socialScheduled',
			'socialPublished',
			'socialStatusChanged',
		]);
		expect(platform?.options?.map((o) => (o as { name: string }).name)).toContain('X (Twitter)');
	});
});

describe('stored state', () => {
	const memory = (): TrackerMemory => ({
		scope: '|',
		committedAt: 1000,
		articles: {
			cursor: 900,
			floor: 600,
			quietSince: 1000,
			pending: { [uuidFrom(1, 1)]: 'queued' },
			finished: { [uuidFrom(2, 1)]: 'archived', [uuidFrom(3, 1)]: 'cms' },
			learn: 0,
		},
	});

	it('is the memory as it is, under its format and time, and reads back the same', () => {
		const stored = JSON.parse(JSON.stringify(encode(memory()))) as Record<string, unknown>;
		expect(stored).toEqual({
			v: 4,
			t: 1000,
			scope: '|',
			articles: {
				cursor: 900,
				floor: 600,
				quietSince: 1000,
				pending: { [uuidFrom(1, 1)]: 'queued' },
				finished: { [uuidFrom(2, 1)]: 'archived', [uuidFrom(3, 1)]: 'cms' },
				learn: 0,
			},
		});
		expect(decode(stored, '|')).toEqual(memory());
		// Read as a copy: what a poll changes is not what n8n holds until the poll is stored.
		delete (decode(stored, '|') as TrackerMemory).articles!.pending[uuidFrom(1, 1)];
		expect(stored.articles).toMatchObject({ pending: { [uuidFrom(1, 1)]: 'queued' } });
		expect(decode(stored, 'p|')).toBeUndefined();
		expect(decode({ ...stored, v: 3 }, '|')).toBeUndefined();
		expect(decode({ ...stored, articles: { pending: 'q' } }, '|')).toBeUndefined();
	});

	it('holds a map to its cap by forgetting its oldest entries, a moved entry being the newest', () => {
		const map: Record<string, string> = {};
		for (let i = 1; i <= 5; i++) put(map, uuidFrom(i, 1), 'cms');
		put(map, uuidFrom(1, 1), 'failed');
		expect(trim(map, 3)).toBe(2);
		expect(Object.entries(map)).toEqual([
			[uuidFrom(4, 1), 'cms'],
			[uuidFrom(5, 1), 'cms'],
			[uuidFrom(1, 1), 'failed'],
		]);
		expect(trim(map, 3)).toBe(0);
	});
});

describe('poll timing', () => {
	it("reads the time to the next poll from the node's Poll Times", () => {
		expect(shortestPollGapMs(undefined)).toBe(60_000);
		expect(shortestPollGapMs({ item: [{ mode: 'everyMinute' }] })).toBe(60_000);
		expect(shortestPollGapMs({ item: [{ mode: 'everyX', unit: 'minutes', value: 5 }] })).toBe(
			300_000,
		);
		// Every 7 minutes fires at :56 and again at :00.
		expect(shortestPollGapMs({ item: [{ mode: 'everyX', unit: 'minutes', value: 7 }] })).toBe(
			240_000,
		);
		expect(shortestPollGapMs({ item: [{ mode: 'everyHour', minute: 5 }] })).toBe(3_600_000);
		const custom = (...crons: string[]) => ({
			item: crons.map((cronExpression) => ({ mode: 'custom', cronExpression })),
		});
		expect(shortestPollGapMs(custom('0 * * * * *', '15 * * * * *', '30 * * * * *'))).toBe(15_000);
		expect(shortestPollGapMs(custom('*/10 * * * *'))).toBe(600_000);
		expect(shortestPollGapMs(custom('0 0-10/2,30 * * * *'))).toBe(120_000);
		// Two presets each fire at a random second: they may come one second apart.
		expect(shortestPollGapMs({ item: [{ mode: 'everyMinute' }, { mode: 'everyHour' }] })).toBe(
			1000,
		);
		expect(shortestPollGapMs(custom('@hourly'))).toBe(1000);
	});

	it('leaves a margin before the next poll and caps it by the poll budget', () => {
		expect(pollTiming(0, 15_000, 300_000)).toEqual({
			deadline: 11_250,
			softDeadline: 7_500,
			quietForMs: 300_000,
		});
		expect(pollTiming(0, 60_000, 36_000).deadline).toBe(31_000);
		expect(pollTiming(0, 600_000, undefined).quietForMs).toBe(3_000_000);
	});
});
