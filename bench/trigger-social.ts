/**
 * Rows of `npm run bench` for the social trigger on agency accounts: requests of an idle poll at
 * 10,000 records in every status, and content born while the trigger learns an account of
 * 10,000 + 10,000 finished records (on the sandbox, listing by id: a stable order unrelated to
 * dates). Each row is requests / minimum; the minimum says how it was derived.
 */

import type { Sandbox } from '../sandbox';
import { fmt, passTime, sandbox, wholeSocialList, type AddRow } from './kit';
import { pollsUntil } from './trigger-rows';
import { SOCIAL_STATUSES } from '../sandbox/constants';
import type { TriggerEvent } from '../nodes/ContentGenTrigger/events';
import { runPoll } from '../nodes/ContentGenTrigger/tracker';
import { pollHarness, type PollHarness } from '../harness/trigger/poll';
import { prng, World } from '../harness/trigger/world';

const MINUTE = 60_000;
const BIRTHS_ROW = 'social trigger, 5 of 5 births while learning 10,000 ready + 10,000 completed';
const MAX_POLLS = 60;

function triggerOn(sb: Sandbox, events: TriggerEvent[]): PollHarness {
	return pollHarness({ events }, { apiKey: sb.apiKey, baseUrl: sb.url });
}

/**
 * An idle poll once the account is learnt, counted from the in-memory service of the tests
 * (harness/trigger/world.ts): the sandbox answers 80,000 records too slowly for a bench run, and
 * the reads an idle poll asks for do not depend on who answers them.
 */
async function idleRow(
	row: AddRow,
	events: TriggerEvent[],
	lists: string,
	followed: number,
	order: 'id' | 'shuffled' = 'id',
) {
	const world = new World(prng(12), { socialOrder: order });
	for (const status of SOCIAL_STATUSES)
		for (let i = 0; i < 10_000; i++) world.create('social', status, { created: world.now - i });
	let stored: unknown = {};
	const poll = async () => {
		world.tick(MINUTE);
		const before = world.log.length;
		const config = { events, scope: 'all', now: world.now };
		const outcome = await runPoll(stored, config, (r) => world.answer(r));
		stored = JSON.parse(JSON.stringify(outcome.state));
		return { requests: world.log.length - before, learning: outcome.lag.learning };
	};
	for (let polls = 0; (await poll()).learning; polls++)
		if (polls > MAX_POLLS) throw new Error('still learning the account');
	await poll();
	const idle = (await poll()).requests;
	const min = followed + 1;
	row(
		'trigger',
		`social trigger, idle poll, ${events.join(' + ')}, 10,000 records in every status${order === 'shuffled' ? ', list reshuffled on every request' : ''}`,
		String(idle),
		`${min} (page 1 of ${lists} and of the whole list)`,
		fmt(idle / min),
		'1.00',
	);
}

async function birthsRow(row: AddRow) {
	const sb = await sandbox(1000, 106, 'id');
	try {
		sb.control.seedSocial(10_000, { status: 'ready', spacingMs: 1000 });
		sb.control.seedSocial(10_000, { status: 'completed', spacingMs: 1000 });
		const trigger = triggerOn(sb, ['socialFinished', 'socialFailed']);
		sb.control.resetRequests();
		await trigger.poll();
		const activation = sb.control.requests().length;
		// Past the minute a reset header may run ahead of the service's clock at activation.
		passTime(2 * MINUTE);
		const born = new Set(sb.control.seedSocial(5, { status: 'completed' }));
		let rest;
		try {
			rest = await pollsUntil(sb, trigger, (items) => {
				const found = items.filter((item) => born.has(item.id as string));
				return found.length === 5 && !trigger.behind();
			});
		} catch (error) {
			// Not all found within the polls allowed: the row says so, and the bench goes on.
			row('trigger', BIRTHS_ROW, `not all 5 reported: ${String(error)}`, '-', '-', '-');
			return;
		}
		const pages = await wholeSocialList(sb);
		const polls = rest.polls + 1;
		const requests = activation + rest.requests;
		// Each poll: page 1 of the 3 followed lists and of the whole list; once: its other pages.
		const min = 4 * polls + pages - 1;
		row(
			'trigger',
			BIRTHS_ROW,
			`${requests} in ${polls} polls`,
			`${min} (4 a poll + the whole list once: ${pages} pages)`,
			fmt(requests / min),
			'-',
		);
	} finally {
		await sb.close();
	}
}

export async function triggerSocialRows(row: AddRow): Promise<void> {
	await idleRow(row, ['socialFinished', 'socialFailed'], 'draft, queued, generating', 3);
	const published: TriggerEvent[] = ['socialScheduled', 'socialPublished'];
	const lists = 'draft, queued, generating, ready, completed, scheduled';
	await idleRow(row, published, lists, 6);
	await idleRow(row, published, lists, 6, 'shuffled');
	await birthsRow(row);
}
