/**
 * Rows of `npm run bench` about the trigger's requests per poll on accounts of 10,000 records:
 * idle, a few changes, a burst in flight, and social births found by list order.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox, SocialListOrder } from '../sandbox';
import { pollHarness, type PollHarness } from '../harness/trigger/poll';
import {
	credentials,
	fmt,
	listTotal,
	passTime,
	requestRow,
	sandbox,
	wholeSocialList,
	type AddRow,
} from './kit';

/** Polls until `done` says so (at most 20 polls a minute apart); requests and polls it took. */
export async function pollsUntil(
	sb: Sandbox,
	trigger: PollHarness,
	done: (items: IDataObject[]) => boolean,
): Promise<{ requests: number; polls: number; behind: number; items: IDataObject[] }> {
	const items: IDataObject[] = [];
	sb.control.resetRequests();
	// Polls that logged "ContentGen Trigger is behind": summed up in the row, not printed per poll.
	let behind = 0;
	for (let polls = 1; polls <= 20; polls++) {
		const output = await trigger.poll();
		items.push(...(output?.[0] ?? []).map((item) => item.json));
		if (trigger.warnings().some((w) => w.startsWith('ContentGen Trigger is behind'))) behind++;
		if (done(items)) return { requests: sb.control.requests().length, polls, behind, items };
		passTime(60_000);
	}
	throw new Error(`not done after 20 polls: ${items.length} items`);
}

/**
 * A scenario that does not finish within its polls is a row that says so (no ratio), not the end
 * of the run: the other figures are still measured, and the summary names it.
 */
async function unfinishedAsRow(row: AddRow, name: string, scenario: () => Promise<void>) {
	try {
		await scenario();
	} catch (error) {
		row('trigger', name, `did not finish: ${(error as Error).message}`, '-', '-', '-');
	}
}

function pollRow(
	row: AddRow,
	name: string,
	took: { requests: number; polls: number; behind: number },
	min: number,
	minLabel: string,
) {
	const polls = took.polls === 1 ? '1 poll' : `${took.polls} polls`;
	const behind = took.behind ? `, ${took.behind} logged "behind"` : '';
	row(
		'trigger',
		name,
		`${took.requests} in ${polls}${behind}`,
		minLabel,
		fmt(took.requests / min),
		'-',
	);
}

const reported = (items: IDataObject[], event: string) =>
	new Set(items.filter((i) => (i.events as string[]).includes(event)).map((i) => i.id)).size;

export async function triggerArticleRows(row: AddRow): Promise<void> {
	const sb = await sandbox(1000, 103);
	try {
		passTime(86_400_000); // let the seeded generations settle
		// A week of history, one article a minute: the look-back holds a few of them.
		sb.control.seedArticles(10_000 - (await listTotal(sb)), {
			status: 'cms',
			spacingMs: 60_000,
		});
		const trigger = pollHarness(
			{ events: ['articleCompleted', 'articleFailed', 'articleCreated'] },
			credentials(sb),
		);
		await trigger.poll(); // activation
		passTime(60_000);
		// Then the list is read once (5 pages a poll) to remember finished articles, so that their
		// later moves are reported; done once a poll costs its idle 1 request again.
		let seen = 0;
		const learnt = await pollsUntil(sb, trigger, () => {
			const now = sb.control.requests().length;
			const cost = now - seen;
			seen = now;
			return cost === 1;
		});
		requestRow(
			row,
			'article trigger, the list read once after activation (10,000 records, 100 pages)',
			learnt.requests,
			100,
		);
		passTime(60_000);
		const idle = await pollsUntil(sb, trigger, () => true);
		if (idle.items.length > 0) throw new Error('an idle poll emitted events');
		requestRow(row, 'article trigger, idle poll (10,000 records)', idle.requests, 1);

		const queued = sb.control.seedArticles(10, { status: 'queued' });
		await trigger.poll(); // sees the ten arrive (articleCreated)
		passTime(60_000);
		for (const id of queued) sb.control.setArticleStatus(id, 'cms');
		passTime(60_000);
		const ten = await pollsUntil(
			sb,
			trigger,
			(items) => reported(items, 'articleCompleted') === 10,
		);
		requestRow(row, 'article trigger, poll with 10 changes among 10,010', ten.requests, 1);

		const burst = sb.control.seedArticles(2500, { status: 'queued', spacingMs: 100 });
		await trigger.poll(); // sees them arrive
		passTime(60_000);
		for (const id of burst) sb.control.setArticleStatus(id, 'cms');
		const all = await pollsUntil(
			sb,
			trigger,
			(items) => reported(items, 'articleCompleted') === 2500,
		);
		pollRow(row, 'article trigger, 2,500 in flight finish', all, 25, '25 (2,500 / 100)');
	} finally {
		await sb.close();
	}
}

/** `finished` social records and `inFlight` generating, listed in `order`, the trigger active. */
async function socialAccount(
	order: SocialListOrder,
	finished: number,
	inFlight: number,
	delivery = 'exactlyOnce',
) {
	const sb = await sandbox(1000, 104, order);
	passTime(86_400_000);
	sb.control.seedSocial(finished, { status: 'completed', spacingMs: 60_000 });
	const generating = sb.control.seedSocial(inFlight, { status: 'generating' });
	const trigger = pollHarness(
		{ events: ['socialFinished', 'socialFailed'], options: { delivery } },
		credentials(sb),
	);
	// Activation reads the whole list once (the request budget spreads it over a few polls).
	const learnt = await pollsUntil(sb, trigger, () => !trigger.behind());
	return { sb, trigger, generating, learnt };
}

export async function triggerSocialRows(row: AddRow): Promise<void> {
	const a = await socialAccount('id', 10_000, 100);
	try {
		const read = await wholeSocialList(a.sb);
		pollRow(
			row,
			'social trigger, activation, 10,100 records listed by id',
			a.learnt,
			4 + read,
			`${4 + read} (4 + whole list)`,
		);
		passTime(60_000);
		const idle = await pollsUntil(a.sb, a.trigger, () => true);
		requestRow(row, 'social trigger, idle poll, 100 in flight', idle.requests, 4);
		for (const id of a.generating.slice(0, 10)) a.sb.control.setSocialStatus(id, 'completed');
		passTime(60_000);
		const ten = await pollsUntil(
			a.sb,
			a.trigger,
			(items) => reported(items, 'socialFinished') === 10,
		);
		requestRow(
			row,
			'social trigger, 10 of 100 in flight finish',
			ten.requests,
			14,
			'14 (4 + 10 records)',
		);
	} finally {
		await a.sb.close();
	}
	for (const order of ['created_desc', 'id'] as const) {
		const b = await socialAccount(order, 6000, 0);
		try {
			passTime(60_000);
			b.sb.control.seedSocial(5, { status: 'completed' }); // born and finished between two polls
			const found = await pollsUntil(
				b.sb,
				b.trigger,
				(items) => reported(items, 'socialFinished') === 5,
			);
			// Listed by id, finding them can take a whole read of the list; newest first, page 1.
			const read = await wholeSocialList(b.sb);
			if (order === 'id') {
				pollRow(
					row,
					'social trigger, 5 births among 6,000 finished, listed by id',
					found,
					4 + read,
					`${4 + read} (4 + whole list)`,
				);
			} else {
				pollRow(
					row,
					'social trigger, 5 births among 6,000 finished, newest first',
					found,
					4,
					'4 (idle)',
				);
			}
		} finally {
			await b.sb.close();
		}
	}
	// At least once: the poll that sees the changes, then the two polls that repeat them.
	const d = await socialAccount('id', 10_000, 100, 'atLeastOnce');
	try {
		passTime(60_000);
		await pollsUntil(d.sb, d.trigger, () => true);
		for (const id of d.generating.slice(0, 10)) d.sb.control.setSocialStatus(id, 'completed');
		passTime(60_000);
		const three = await pollsUntil(
			d.sb,
			d.trigger,
			(items) => items.length === 30 && reported(items, 'socialFinished') === 10,
		);
		pollRow(
			row,
			'social trigger, at least once: 10 of 100 in flight finish, reported and repeated twice',
			three,
			42,
			'42 (3 x (4 + 10 records))',
		);
	} finally {
		await d.sb.close();
	}
	await unfinishedAsRow(row, 'social trigger, 2,500 in flight finish, listed by id', async () => {
		const c = await socialAccount('id', 10_000, 2500);
		try {
			passTime(60_000);
			for (const id of c.generating) c.sb.control.setSocialStatus(id, 'completed');
			const all = await pollsUntil(
				c.sb,
				c.trigger,
				(items) => reported(items, 'socialFinished') === 2500,
			);
			const read = await wholeSocialList(c.sb);
			pollRow(
				row,
				'social trigger, 2,500 in flight finish, listed by id',
				all,
				4 + read,
				`${4 + read} (4 + whole list)`,
			);
		} finally {
			await c.sb.close();
		}
	});
}
