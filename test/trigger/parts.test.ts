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
import {
	RecordMap,
	FULL_KEY,
	packId,
	unpackId,
} from '../../nodes/ContentGenTrigger/tracker/state/keys';
import { pollTiming, shortestPollGapMs } from '../../nodes/ContentGenTrigger/schedule';
import { decode, encode } from '../../nodes/ContentGenTrigger/tracker/state/codec';
import type { TrackerMemory } from '../../nodes/ContentGenTrigger/tracker/state/memory';
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
	it('packs ids to 22 characters and back', () => {
		const id = '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
		expect(packId(id)).toHaveLength(FULL_KEY);
		expect(unpackId(packId(id) as string)).toBe(id);
		expect(unpackId(packId(id.toUpperCase()) as string)).toBe(id);
		expect(packId('not-a-uuid')).toBeUndefined();
	});

	it('decodes into named fields, and what it narrowed widens again as entries are replaced', () => {
		const keys = Array.from({ length: 3 }, (_, i) => packId(uuidFrom(i + 1, 1)) as string);
		const memory: TrackerMemory = {
			scope: 'p|',
			committedAt: 1000,
			articles: {
				cursor: 5000,
				floor: 4000,
				quietSince: 900,
				pending: new RecordMap(),
				seen: new RecordMap(),
				unread: { position: 200, floor: 3000 },
			},
		};
		memory.articles!.pending.set(keys[0], 'q');
		memory.articles!.seen.set(keys[1], { code: 'c', bound: 4500 });
		const narrow = encode(memory, 10);
		expect(narrow).toMatchObject({ v: 3, k: 'p|', w: 10, t: 1000 });
		expect(narrow.a).toEqual({
			c: 5000,
			f: 4000,
			q: 900,
			i: { q: keys[0].slice(0, 10) },
			s: [[4500, `${keys[1].slice(0, 10)}c`]],
			r: [200, 3000],
		});
		const back = decode(JSON.parse(JSON.stringify(narrow)), 'p|')!;
		expect(back.articles).toMatchObject({ cursor: 5000, floor: 4000, unread: { position: 200 } });
		expect(back.articles!.pending.get(keys[0])).toBe('q');
		expect(back.articles!.seen.get(keys[1])).toEqual({ code: 'c', bound: 4500 });
		expect(back.articles!.pending.idOf(keys[0])).toBeUndefined(); // only a prefix is known
		// Seen again whole: the key is whole again.
		back.articles!.pending.set(keys[0], 'd');
		expect(back.articles!.pending.idOf(keys[0])).toBe(uuidFrom(1, 1));
		expect(decode(narrow, 'other|')).toBeUndefined(); // other filters: start over
		expect(decode({ v: 1, k: 'p|', a: { c: 1 } }, 'p|')).toBeUndefined();
	});

	it('keeps what it knows of social records, births it follows counted but not keyed twice', () => {
		const keys = Array.from({ length: 4 }, (_, i) => packId(uuidFrom(i + 1, 2)) as string);
		const map = <V>(entries: Array<[string, V]>) => {
			const out = new RecordMap<V>();
			for (const [key, value] of entries) out.set(key, value);
			return out;
		};
		const memory: TrackerMemory = {
			scope: '|',
			committedAt: 1000,
			social: {
				followedLists: 'dqg',
				completeLists: 'dq',
				listCounts: { d: 3, q: 140 },
				followed: map([[keys[0], 'g']]),
				byId: map([[keys[1], 'u']]),
				missing: map([[keys[2], 'q']]),
				newRecords: {
					count: 40,
					newestCreated: 7000,
					recent: map([[keys[3], 6500]]),
					reported: new RecordMap(),
					reportedFollowed: { count: 3, newest: 6900 },
					uncertain: 1,
					learning: { page: 4, newest: 6800, count: 39, since: 6900 },
					hiddenByLoss: true,
				},
				searchPage: 5,
				passes: 1,
				notNewestFirst: true,
				reorders: false,
			},
		};
		const back = decode(JSON.parse(JSON.stringify(encode(memory, 12))), '|')!.social!;
		expect(back).toMatchObject({
			followedLists: 'dqg',
			completeLists: 'dq',
			newRecords: {
				count: 40,
				newestCreated: 7000,
				reportedFollowed: { count: 3, newest: 6900 },
				uncertain: 1,
				learning: { page: 4, newest: 6800, count: 39 },
			},
			searchPage: 5,
			passes: 1,
			notNewestFirst: true,
			reorders: false,
		});
		expect([...back.followed]).toEqual([[keys[0].slice(0, 12), 'g']]);
		expect(back.byId.idOf(keys[1])).toBe(uuidFrom(2, 2)); // fetched one by one: whole ids
		expect(back.missing.get(keys[2])).toBe('q');
		expect(back.newRecords.recent.get(keys[3])).toBe(6500);
		expect(back.newRecords.reported.size).toBe(0);
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
