/**
 * An in-memory account polled by the tracker itself (no n8n): a poll a minute apart by default,
 * its requests counted from the service's log, the state stored as n8n stores it (JSON) and held
 * under the size n8n's static data allows.
 */
import {
	runPoll,
	type PollOutcome,
	type TriggerEvent,
} from '../../nodes/ContentGenTrigger/tracker';
import { STATE_LIMIT } from '../../harness/trigger/month-run';
import { prng, World, type SocialOrder } from '../../harness/trigger/world';

export const MINUTE = 60_000;

export class TrackerAccount {
	readonly world: World;
	stored: unknown = {};

	constructor(
		readonly events: TriggerEvent[],
		order: SocialOrder = 'id',
		seed = 7,
		ids: 'v4' | 'v7' = 'v4',
	) {
		this.world = new World(prng(seed), { socialOrder: order, ids });
	}

	/** One poll `ms` after the last; its requests and outcome. */
	async poll(ms = MINUTE): Promise<{ outcome: PollOutcome; requests: number }> {
		this.world.tick(ms);
		const before = this.world.log.length;
		const outcome = await runPoll(
			this.stored,
			{ events: this.events, scope: 'all', now: this.world.now },
			(request) => this.world.answer(request),
		);
		const size = JSON.stringify(outcome.state).length;
		if (size > STATE_LIMIT) throw new Error(`state of ${size} characters`);
		this.stored = JSON.parse(JSON.stringify(outcome.state));
		return { outcome, requests: this.world.log.length - before };
	}

	/** Polls until the trigger says it is no longer behind (at most `max`); the ids reported. */
	async settle(max: number): Promise<{ polls: number; reported: string[] }> {
		const reported: string[] = [];
		for (let polls = 1; polls <= max; polls++) {
			const { outcome } = await this.poll();
			for (const item of outcome.items) reported.push(item.record.id);
			if (!outcome.lag.behind) return { polls, reported };
		}
		return { polls: Infinity, reported };
	}
}
