/**
 * What the trigger costs a day, against the plan's daily request limit (every workflow and worker
 * using the key draws on it). An idle poll reads 1 request for articles and, for social content,
 * 4 when only Finished/Failed are selected, 7 for any other selection; changes cost more only
 * while they come. Warned about past half the limit, so the rest of the day's work still fits.
 */
import { eventsOfKind, type TriggerEvent } from './events';

const FINISHED_ONLY: readonly TriggerEvent[] = ['socialFinished', 'socialFailed'];

/** Poll Times to suggest, longest last, with their polls a day. */
const CHOICES: Array<[string, number]> = [
	['every minute', 1440],
	['every 2 minutes', 720],
	['every 5 minutes', 288],
	['every 10 minutes', 144],
	['every 15 minutes', 96],
	['every 30 minutes', 48],
	['every hour', 24],
	['every day', 1],
];

export function idleRequests(events: readonly TriggerEvent[]): number {
	const social = eventsOfKind(events, 'social');
	const socialCost =
		social.length === 0 ? 0 : social.every((e) => FINISHED_ONLY.includes(e)) ? 4 : 7;
	return (eventsOfKind(events, 'article').length > 0 ? 1 : 0) + socialCost;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

export interface Cost {
	/** What the trigger expects to spend, in words. */
	expected: string;
	/** Set when that passes half the daily limit: what to change. */
	warning?: string;
}

export function costOf(
	events: readonly TriggerEvent[],
	pollsPerDay: number,
	dailyLimit: number | undefined,
): Cost {
	const perPoll = idleRequests(events);
	const perDay = perPoll * pollsPerDay;
	const expected = `ContentGen Trigger expects ${count(perDay)} requests a day (${perPoll} per idle poll, ${count(pollsPerDay)} polls a day)`;
	if (dailyLimit === undefined || dailyLimit < 0 || perDay <= dailyLimit / 2) return { expected };
	const fitting = CHOICES.find(([, polls]) => perPoll * polls <= dailyLimit / 2);
	const advice = fitting
		? `set 'Poll Times' to ${fitting[0]} (${count(perPoll * fitting[1])} a day) or less often`
		: 'select fewer events';
	return {
		expected,
		warning: `${expected}: over half of the plan's ${count(dailyLimit)} requests a day, which every workflow using this API key shares. To leave room for the rest, ${advice}.`,
	};
}
