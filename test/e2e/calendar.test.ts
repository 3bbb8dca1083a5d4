/**
 * Where the nodes read the clock (the queue's slots, the trigger's polls, Wait for Completion's
 * deadline), at the dates that break calendars, each set by the test (harness/clock.ts) rather than
 * read from the host: daylight-saving changes in the queue's zone (Europe and the United States, the
 * skipped and the repeated hour), zones given as a UTC offset, a year's end on both sides of the
 * date line, 29 February, and a slot whose lead time has just begun. Workflows run through n8n's
 * engine against the sandbox over HTTP, n8n's clock and the sandbox's at the same instant.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { at } from '../../harness/clock';
import { pollHarness } from '../../harness/trigger/poll';
import { startSandbox, type Sandbox } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';

/** A sandbox on the set clock; `speed` divides its generations' 1-2 minutes. */
async function withSandbox<T>(speed: number, work: (sandbox: Sandbox) => Promise<T>): Promise<T> {
	const sandbox = await startSandbox({ port: 0, seed: 49, quiet: true, speed });
	try {
		return await work(sandbox);
	} finally {
		await sandbox.close();
	}
}

/** The instant a post is queued at, publishing by Next Free Slot with the clock at `now`. */
async function queuedAt(
	now: string,
	zone: string,
	time: [weekday: string, timeOfDay: string],
	leadMinutes: number,
): Promise<unknown> {
	return await at(now, async () =>
		withSandbox(1000, async (sandbox) => {
			const [id] = sandbox.control.seedSocial(1, { status: 'completed', platforms: ['linkedin'] });
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'publish',
					contentId: { __rl: true, mode: 'id', value: id },
					timing: 'nextFreeSlot',
					postingTimes: { time: [{ weekday: time[0], timeOfDay: time[1] }] },
					queueOptions: { timeZone: zone, leadMinutes, horizonDays: 30 },
				}),
				{ credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
			);
			expect(result.error).toBeUndefined();
			return result.output('ContentGen')[0].json.scheduled_at;
		}),
	);
}

describe('the posting queue at the dates that break calendars', () => {
	it.each([
		// 2026-12-01 is a Tuesday; Lisbon is on UTC in winter
		[
			'a slot whose 20-minute lead began at 10:10',
			'2026-12-01T10:15:00Z',
			'Europe/Lisbon',
			['tuesday', '10:30'],
			20,
			'2026-12-08T10:30:00.000Z',
		],
		[
			'the same slot with a lead that begins at 10:20',
			'2026-12-01T10:15:00Z',
			'Europe/Lisbon',
			['tuesday', '10:30'],
			10,
			'2026-12-01T10:30:00.000Z',
		],
		// Europe springs forward on Sunday 2027-03-28 at 01:00 UTC
		[
			'Berlin: 02:30 is skipped that Sunday',
			'2027-03-28T00:40:00Z',
			'Europe/Berlin',
			['sunday', '02:30'],
			10,
			'2027-04-04T00:30:00.000Z',
		],
		[
			'Berlin: 03:30 comes an hour after the change',
			'2027-03-28T00:40:00Z',
			'Europe/Berlin',
			['sunday', '03:30'],
			10,
			'2027-03-28T01:30:00.000Z',
		],
		[
			'London: 01:30 is skipped that Sunday',
			'2027-03-28T00:40:00Z',
			'Europe/London',
			['sunday', '01:30'],
			10,
			'2027-04-04T00:30:00.000Z',
		],
		[
			'a zone given as an offset has no change (+05:30)',
			'2027-03-28T00:40:00Z',
			'+05:30',
			['sunday', '06:30'],
			10,
			'2027-03-28T01:00:00.000Z',
		],
		// the United States falls back on Sunday 2027-11-07 at 06:00 UTC: 01:30 comes twice
		[
			'New York: only the first 01:30 of the repeated hour is a slot',
			'2027-11-07T05:40:00Z',
			'America/New_York',
			['sunday', '01:30'],
			5,
			'2027-11-14T06:30:00.000Z',
		],
		// and springs forward on Sunday 2028-03-12 at 07:00 UTC
		[
			'New York: 02:30 is skipped that Sunday',
			'2028-03-12T06:40:00Z',
			'America/New_York',
			['sunday', '02:30'],
			10,
			'2028-03-19T06:30:00.000Z',
		],
		// a year's end: Friday 2027-12-31 in UTC, already Saturday 2028-01-01 at +14
		[
			'the last minutes of a year in UTC',
			'2027-12-31T23:45:00Z',
			'UTC',
			['friday', '23:58'],
			10,
			'2027-12-31T23:58:00.000Z',
		],
		[
			'the new year at +14 (Kiritimati)',
			'2027-12-31T23:45:00Z',
			'Pacific/Kiritimati',
			['saturday', '14:00'],
			10,
			'2028-01-01T00:00:00.000Z',
		],
		[
			'the old year at -12 (Etc/GMT+12)',
			'2027-12-31T23:45:00Z',
			'Etc/GMT+12',
			['friday', '12:00'],
			10,
			'2028-01-01T00:00:00.000Z',
		],
		// 29 February 2028 is a Tuesday
		[
			'29 February, later that day',
			'2028-02-29T10:25:00Z',
			'UTC',
			['tuesday', '10:40'],
			10,
			'2028-02-29T10:40:00.000Z',
		],
		[
			'29 February, its slot inside the lead: a week on',
			'2028-02-29T10:25:00Z',
			'UTC',
			['tuesday', '10:30'],
			10,
			'2028-03-07T10:30:00.000Z',
		],
		[
			'29 February, the next day is 1 March (New York)',
			'2028-02-29T10:25:00Z',
			'America/New_York',
			['wednesday', '00:30'],
			10,
			'2028-03-01T05:30:00.000Z',
		],
	] as const)('%s', async (_case, now, zone, time, lead, expected) => {
		expect(await queuedAt(now, zone, [time[0], time[1]], lead)).toBe(expected);
	});
});

describe('the trigger and Wait for Completion across midnight', () => {
	it.each(['2027-12-31T23:59:00Z', '2028-02-29T23:59:00Z'])(
		'an article generated at %s and finished after midnight is reported once',
		async (now) =>
			at(now, async (clock) =>
				withSandbox(1, async (sandbox) => {
					const trigger = pollHarness(
						{ events: ['articleCreated', 'articleCompleted'] },
						{ apiKey: sandbox.apiKey, baseUrl: sandbox.url },
					);
					expect(await trigger.poll()).toBeNull();
					const generated = await axios.post(
						`${sandbox.url}/api/v1/articles/generate`,
						{ topic: 'A year in review', project_id: sandbox.control.projects()[0].id },
						{ headers: { Authorization: `Bearer ${sandbox.apiKey}` } },
					);
					const id = generated.data.data.article_id as string;
					const events: string[] = [];
					let finishedOn = '';
					for (let minute = 0; minute < 4; minute++) {
						clock.advance(60_000);
						for (const item of (await trigger.poll())?.[0] ?? []) {
							if (item.json.id !== id) continue;
							events.push(...(item.json.events as string[]));
							if ((item.json.events as string[]).includes('articleCompleted'))
								finishedOn = String(item.json.updated_at).slice(0, 10);
						}
					}
					expect(events.sort()).toEqual(['articleCompleted', 'articleCreated']);
					expect(finishedOn).toBe(
						new Date(Date.parse(now) + 86_400_000).toISOString().slice(0, 10),
					);
				}),
			),
	);

	it('Wait for Completion started at 23:59:59 on 29 February waits into 1 March and returns the article', async () =>
		at('2028-02-29T23:59:59Z', async () =>
			withSandbox(30, async (sandbox) => {
				const result = await runWorkflow(
					singleNodeWorkflow({
						resource: 'article',
						operation: 'generate',
						topic: 'Leap days',
						projectId: { __rl: true, mode: 'id', value: sandbox.control.projects()[0].id },
						waitForCompletion: true,
						options: { pollInterval: 1, timeout: 60 },
					}),
					{ credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
				);
				expect(result.error).toBeUndefined();
				const article = result.output('ContentGen')[0].json as IDataObject;
				expect(['cms', 'needs_editing']).toContain(article.status);
				expect(String(article.updated_at).slice(0, 10)).toBe('2028-03-01');
			}),
		));
});
