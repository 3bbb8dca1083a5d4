/**
 * Scheduled At in every ISO 8601 form a person may type (nodes/shared/validation/dates.ts and
 * iso8601.ts), and a clear refusal of anything else, before any request.
 */
import nock from 'nock';

import { toIsoDate } from '../../nodes/shared/validation';
import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import { setupNock, withoutStrayRequests } from '../helpers/nock';
import { CONTENT_ID, envelope } from './fixtures';

const api = () => nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });

describe('Scheduled At', () => {
	setupNock();

	it.each([
		['extended, UTC', '2026-12-01T09:00:00Z', '2026-12-01T09:00:00.000Z'],
		['basic, UTC', '20261201T090000Z', '2026-12-01T09:00:00.000Z'],
		['basic, minutes only', '20261201T0900Z', '2026-12-01T09:00:00.000Z'],
		['week date', '2026-W49-2T09:00Z', '2026-12-01T09:00:00.000Z'],
		['week date, basic', '2026W492T0900Z', '2026-12-01T09:00:00.000Z'],
		['ordinal date', '2026-335T09:00Z', '2026-12-01T09:00:00.000Z'],
		['ordinal date, basic', '2026335T090000Z', '2026-12-01T09:00:00.000Z'],
		['offset +hh:mm', '2026-12-01T10:00:00+01:00', '2026-12-01T09:00:00.000Z'],
		['offset +hhmm', '20261201T103000+0130', '2026-12-01T09:00:00.000Z'],
		['offset -hh', '2026-335T04:00-05', '2026-12-01T09:00:00.000Z'],
		['fraction with a comma', '2026-12-01T09:00:00,25Z', '2026-12-01T09:00:00.250Z'],
		['hour only', '2026-12-01T09Z', '2026-12-01T09:00:00.000Z'],
		['end of day 24:00', '2026-11-30T24:00Z', '2026-12-01T00:00:00.000Z'],
		['week 53 of a long year', '2026-W53-7T00:00Z', '2027-01-03T00:00:00.000Z'],
		['lowercase t and z', '2026-12-01t09:00z', '2026-12-01T09:00:00.000Z'],
	])('%s: %s', (_form, text, utc) => {
		expect(toIsoDate('Scheduled At', text, 'Europe/Athens')).toBe(utc);
	});

	it.each([
		['extended', '2026-12-01T11:00', '2026-12-01T09:00:00.000Z'],
		['basic', '20261201T1100', '2026-12-01T09:00:00.000Z'],
		['week date', '2026-W49-2 11:00', '2026-12-01T09:00:00.000Z'],
		['ordinal date', '2026-335', '2026-11-30T22:00:00.000Z'],
	])('without an offset (%s) it is read in the workflow time zone', (_form, text, utc) => {
		expect(toIsoDate('Scheduled At', text, 'Europe/Athens')).toBe(utc);
	});

	it.each([
		['a month 13', '2026-13-01T09:00Z'],
		['30 February', '2026-02-30T09:00Z'],
		['day 366 of a common year', '2026-366T09:00Z'],
		['week 53 of a short year', '2025-W53-1T09:00Z'],
		['weekday 8', '2026-W49-8'],
		['25 o\u2019clock', '2026-12-01T25:00Z'],
		['an offset of 24 hours', '2026-12-01T09:00+24:00'],
		['slashes', '2026/12/01 09:00'],
		['a bare number as text', '1'],
		['words', 'next tuesday'],
	])('%s (%s) is refused, naming ISO 8601 and its forms', (_what, text) => {
		expect(() => toIsoDate('Scheduled At', text, 'UTC')).toThrow(
			`'Scheduled At' must be an ISO 8601 date and time such as 2026-12-01T09:00:00Z (or 20261201T090000Z, 2026-W49-2T09:00, 2026-335T09:00+01:00), got "${text}"`,
		);
	});

	it('the written dates JavaScript produces are still read (toUTCString), as earlier builds did', () => {
		expect(toIsoDate('Scheduled At', 'Tue, 01 Dec 2026 09:00:00 GMT', 'UTC')).toBe(
			'2026-12-01T09:00:00.000Z',
		);
	});

	it('a basic-form date from an expression is sent as UTC through the engine', async () => {
		const scope = api()
			.post('/api/v1/social/publish', {
				content_id: CONTENT_ID,
				scheduled_at: '2026-12-01T09:00:00.000Z',
			})
			.reply(
				200,
				envelope({
					content_id: CONTENT_ID,
					status: 'scheduled',
					scheduled_at: '2026-12-01T09:00:00Z',
				}),
			);
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'socialContent',
				operation: 'publish',
				contentId: { __rl: true, mode: 'id', value: CONTENT_ID },
				additionalFields: { scheduledAt: '={{ $json.at }}' },
			}),
			{ input: [{ at: '2026-W49-2T10:00+01:00' }] },
		);
		expect(result.error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	it('a date that is not ISO 8601 is refused for its item before any request', async () => {
		await withoutStrayRequests(async () => {
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'publish',
					contentId: CONTENT_ID,
					additionalFields: { scheduledAt: '2026/12/01 09:00' },
				}),
			);
			expect(result.error?.message).toBe(
				`'Scheduled At' must be an ISO 8601 date and time such as 2026-12-01T09:00:00Z (or 20261201T090000Z, 2026-W49-2T09:00, 2026-335T09:00+01:00), got "2026/12/01 09:00" [item 0]`,
			);
		});
	});
});
