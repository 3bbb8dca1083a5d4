import { costOf, idleRequests } from '../../nodes/ContentGenTrigger/cost';
import { pollsPerDay } from '../../nodes/ContentGenTrigger/schedule';

const custom = (...crons: string[]) => ({
	item: crons.map((cronExpression) => ({ mode: 'custom', cronExpression })),
});

describe("the trigger's daily cost", () => {
	it('counts the polls a day of its Poll Times', () => {
		expect(pollsPerDay(undefined)).toBe(1440);
		expect(pollsPerDay({ item: [{ mode: 'everyX', value: 5, unit: 'minutes' }] })).toBe(288);
		expect(pollsPerDay({ item: [{ mode: 'everyX', value: 2, unit: 'hours' }] })).toBe(12);
		expect(pollsPerDay({ item: [{ mode: 'everyHour' }, { mode: 'everyDay' }] })).toBe(25);
		expect(pollsPerDay(custom('0,15,30,45 * * * * *'))).toBe(4 * 1440);
		expect(pollsPerDay(custom('*/10 9-17 * * 1-5'))).toBe(6 * 9);
	});

	it('costs 1 request an idle poll for articles, 4 for social Finished/Failed, 7 for other social events', () => {
		expect(idleRequests(['articleCompleted', 'articleFailed'])).toBe(1);
		expect(idleRequests(['socialFinished', 'socialFailed'])).toBe(4);
		expect(idleRequests(['socialFinished', 'socialPublished'])).toBe(7);
		expect(idleRequests(['articleCreated', 'socialStatusChanged'])).toBe(8);
	});

	it('warns past half the daily limit and names the most frequent Poll Times that fit', () => {
		expect(costOf(['articleCompleted'], 1440, 5000).warning).toBeUndefined();
		expect(costOf(['socialFinished'], 1440, 5000).warning).toMatch(
			/5,760 requests a day.*5,000.*every 5 minutes \(1,152 a day\)/,
		);
		expect(costOf(['socialScheduled', 'articleCompleted'], 1440, 50_000).warning).toBeUndefined();
		expect(costOf(['socialScheduled'], 1440, 12_000).warning).toMatch(
			/every 2 minutes \(5,040 a day\)/,
		);
		// Unlimited (no header, or -1 from the usage route): only what it expects.
		expect(costOf(['socialScheduled'], 1440, undefined)).toEqual({
			expected:
				'ContentGen Trigger expects 10,080 requests a day (7 per idle poll, 1,440 polls a day)',
		});
		expect(costOf(['socialScheduled'], 1440, -1).warning).toBeUndefined();
	});
});
