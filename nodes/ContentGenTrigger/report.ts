/**
 * What a poll tells n8n besides its items (./tracker/items builds those): the lines it logs, and
 * the error when it cannot finish.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { costOf, type Cost } from './cost';
import type { TriggerEvent } from './events';
import { isRateLimited, ranOutOfTime, type Reader } from './service-reader';
import { pollsPerDay, type PollTiming } from './schedule';
import { lostStartNotice } from './starts';
import type { PollOutcome } from './tracker/poll';
import { catchUpNotice } from './tracker/catchup';
import { storedNotice } from './tracker/state/formats';

export function asNodeError(context: IPollFunctions, error: unknown): NodeOperationError {
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(context.getNode(), message);
}

/** What the trigger expects to spend a day, from the Poll Times and the limit the service sent. */
export function dailyCost(events: TriggerEvent[], pollTimes: unknown, read: Reader): Cost {
	return costOf(events, pollsPerDay(pollTimes), read.rateLimit()?.dailyLimit);
}

/**
 * Logs what a finished poll has to say: a state of another build, a catch-up (and a start n8n
 * lost), the daily cost at activation, and what is left for later polls. Returns the last in words
 * for the items' `behind` (undefined when it is up to date).
 */
export function logPoll(
	context: IPollFunctions,
	outcome: PollOutcome,
	lostStart: number | undefined,
	activationCost: Cost | undefined,
): string | undefined {
	const log = { node: context.getNode().name };
	const notice = storedNotice(outcome.stored);
	if (notice.warn) context.logger.warn(notice.warn, log);
	if (notice.info) context.logger.info(notice.info, log);
	const caught = outcome.caughtUp;
	if (caught && lostStart !== undefined) context.logger.info(lostStartNotice(caught.from), log);
	const short = caught && catchUpNotice(caught.from, caught.short);
	if (short) context.logger.warn(short, log);
	if (activationCost?.warning) context.logger.warn(activationCost.warning, log);
	else if (activationCost) context.logger.info(activationCost.expected, log);
	const { lag } = outcome;
	const late = lag.behind ? lag.notes.join('; ') || 'catching up' : undefined;
	if (late) context.logger.warn(`ContentGen Trigger is behind: ${late}`, log);
	return late;
}

/**
 * A poll that did not finish (it stored nothing, so the next one covers its window). Rate limited
 * or too slow: quiet (null) while the last complete poll, or the first late one (`since`), is
 * recent; then, and for any other failure, the error.
 */
export function pollFailed(
	context: IPollFunctions,
	failure: unknown,
	started: number,
	since: number,
	timing: PollTiming,
): null {
	const quiet = started - since < timing.quietForMs;
	const cause = isRateLimited(failure)
		? 'rate limited'
		: ranOutOfTime(failure)
			? 'the service answered too slowly to finish before the next poll is due'
			: undefined;
	if (cause && quiet) {
		context.logger.warn(`ContentGen Trigger: ${cause}; the next poll covers this window`, {
			node: context.getNode().name,
		});
		return null;
	}
	if (ranOutOfTime(failure)) {
		throw new NodeOperationError(
			context.getNode(),
			"The service is too slow for the 'Poll Times'",
			{
				description: `No poll has finished for ${Math.round((started - since) / 60_000)} minutes: each must end within ${Math.round((timing.deadline - started) / 1000)} s (before the next poll, and within n8n's poll budget), and the service's answers took longer. Choose longer 'Poll Times', or check the service's status.`,
			},
		);
	}
	if (failure instanceof NodeApiError || failure instanceof NodeOperationError) throw failure;
	throw asNodeError(context, failure);
}
