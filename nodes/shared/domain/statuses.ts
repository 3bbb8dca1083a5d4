/**
 * The lifecycles of the spec (§3): which statuses exist and what each means to a waiting
 * operation or the trigger. Every status set of both nodes comes from here; the status values
 * themselves sit with the other spec values in constants.ts, which validation reads too.
 */
import { ARTICLE_STATUSES, SOCIAL_STATUSES } from '../constants';

export { ARTICLE_STATUSES, SOCIAL_STATUSES };

export const ARTICLE_LIFECYCLE = {
	/** Not finished yet: a generation in these statuses may still complete. */
	pending: ['draft', 'queued'],
	/** Finished successfully (`is_complete`): live, or flagged for review. */
	complete: ['cms', 'needs_editing'],
	failed: ['failed'],
} as const;

export const SOCIAL_LIFECYCLE = {
	pending: ['draft', 'queued', 'generating'],
	/** Finished generating, before any scheduling or publishing. */
	finished: ['completed', 'ready'],
	/** Finished and still movable by publishing: scheduled or published may follow. */
	publishable: ['ready', 'completed', 'scheduled'],
	failed: ['failed'],
} as const;

function member(list: readonly string[], status: unknown): boolean {
	return typeof status === 'string' && list.includes(status);
}

export const isArticleComplete = (status: unknown) => member(ARTICLE_LIFECYCLE.complete, status);
export const isSocialPending = (status: unknown) => member(SOCIAL_LIFECYCLE.pending, status);
/** Whether the social list can be filtered by this status. */
export const isSocialListStatus = (status: unknown) => member(SOCIAL_STATUSES, status);
