/**
 * The social steps of ./lifecycle's histories: records move on along their lifecycle or leave the
 * account. Apart from ./lifecycle so that ./script, which plays every step, and ./lifecycle, which
 * runs scripts, do not import each other.
 */
import type { World } from '../../harness/trigger/world';
import { watchedSocial } from './model';

export type SocialStep =
	/** A record moves on to a later status of its lifecycle (`pick` chooses record and status). */
	| { t: 'advance'; pick: number; count: number }
	/** The account loses a record of a followed list. */
	| { t: 'remove'; pick: number };

/** Where each social status can go next; published and failed are terminal. */
const NEXT: Record<string, readonly string[]> = {
	draft: ['queued', 'generating'],
	queued: ['generating', 'failed'],
	generating: ['ready', 'completed', 'completed', 'failed'],
	ready: ['scheduled', 'publishing', 'published'],
	completed: ['scheduled', 'publishing', 'published'],
	scheduled: ['publishing', 'published', 'published', 'failed'],
	publishing: ['published', 'failed'],
};

/** Plays one step of this file on the world (called by the runner of ./script). */
export function applySocialStep(
	world: World,
	step: SocialStep,
	script: { events: readonly string[] },
): void {
	if (step.t === 'advance') {
		const movable = [...world.social.values()].filter((row) => NEXT[row.status]);
		for (let i = 0; i < step.count && movable.length > 0; i++) {
			const row = movable[(step.pick + i * 7919) % movable.length];
			const next = NEXT[row.status] ?? [];
			if (next.length > 0) world.set('social', row.id, next[(step.pick + i) % next.length]);
		}
		return;
	}
	const watched = watchedSocial(script.events);
	const followed = [...world.social.values()].filter((row) => watched.has(row.status));
	if (followed.length > 0) world.remove(followed[step.pick % followed.length].id);
}
