/**
 * Rows of `npm run bench` about Publish > Next Free Slot: requests of one execution queueing 5
 * posts (Posts per Slot 2, a 60-day horizon) on accounts with 0, 500 and 5,000 posts scheduled
 * over the past weeks, on a list served newest first and on one reshuffled on every request (the
 * sandbox's default; the mean of 10 seeds), against the stable-order minimum (the pages of the
 * scheduled list plus one publish per post); and 10 such executions at once on one account:
 * requests, posts moved, slots left shared. `npx tsx bench/queue.ts` prints them alone.
 */
import './resolve';
import './env';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox, SocialListOrder } from '../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../harness/engine';
import {
	credentials,
	fmt,
	listTotal,
	passTime,
	printAlone,
	restoreTime,
	sandbox,
	type AddRow,
} from './kit';

const POSTS = 5;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const SEEDS = 10;

/** Publish > Next Free Slot at three posting times a day, every day, in UTC. */
export const queueParameters = (horizonDays: number, postsPerSlot = 1): IDataObject => ({
	resource: 'socialContent',
	operation: 'publish',
	contentId: '={{ $json.id }}',
	timing: 'nextFreeSlot',
	postingTimes: {
		time: DAYS.flatMap((weekday) =>
			['09:00', '13:00', '18:00'].map((timeOfDay) => ({ weekday, timeOfDay })),
		),
	},
	queueOptions: { timeZone: 'UTC', horizonDays, postsPerSlot },
});

/**
 * `n` posts scheduled on `platforms`, one a minute, the last two hours before the run: the first
 * 60 on the posting times, the rest at 10:30 on later days.
 */
function scheduleOthers(sb: Sandbox, n: number, platforms = ['linkedin', 'twitter']): void {
	const today = Math.floor(sb.control.now().getTime() / DAY) * DAY;
	sb.control.seedSocial(n, {
		status: 'scheduled',
		platforms,
		spacingMs: 60_000,
		scheduledAt: (i) =>
			i < 60
				? today + (1 + Math.floor(i / 3)) * DAY + [9, 13, 18][i % 3] * HOUR
				: today + (21 + (i % 300)) * DAY + 10.5 * HOUR + Math.floor(i / 300) * 1000,
	});
}

async function execution(
	sb: Sandbox,
	parameters: IDataObject,
	platforms = ['linkedin', 'twitter'],
) {
	const input = sb.control
		.seedSocial(POSTS, { status: 'completed', platforms })
		.map((id) => ({ id }));
	return await runWorkflow(singleNodeWorkflow(parameters), { credentials: credentials(sb), input });
}

/** A coupon collector's expected reads of pages of 100 to see all of `n` records. */
export function couponPages(n: number): number {
	if (n <= 100) return 1;
	let expected = 0;
	for (let d = 0; ; d++) {
		const left = 1 - (1 - (1 - 100 / n) ** d) ** n;
		expected += left;
		if (left < 1e-9 && d > 0) return expected;
	}
}

interface Cost {
	requests: number;
	firstRead: number;
	records: number;
	publishes: number;
	readBack: number;
	listed: number;
	hints: string[];
}

/** One execution of 5 posts on an account holding exactly `n` scheduled posts (on `platforms`). */
async function queueCost(
	order: SocialListOrder,
	seed: number,
	n: number,
	spread: { others: string[]; share: number } | undefined,
	platforms: string[],
): Promise<Cost> {
	const sb = await sandbox(1000, seed, order);
	try {
		// The seeded account holds a post of its own scheduled: the list holds exactly `n`.
		const own = await listTotal(sb, '/social/content?status=scheduled');
		const mine = spread ? Math.round(n * spread.share) : n - own;
		if (mine > 0) scheduleOthers(sb, mine, platforms);
		if (spread) scheduleOthers(sb, n - own - mine, spread.others);
		passTime(2 * HOUR);
		const query = `/social/content?status=scheduled${spread ? `&platform=${platforms[0]}` : ''}`;
		const listed = await listTotal(sb, query);
		sb.control.resetRequests();
		const result = await execution(sb, queueParameters(60, 2), platforms);
		if (result.error) throw new Error(`queue run failed: ${result.error.message}`);
		const log = sb.control.requests();
		const firstPost = log.findIndex((r) => r.method === 'POST');
		const isList = (r: (typeof log)[number]) =>
			r.method === 'GET' && r.path === '/api/v1/social/content';
		const task = result.run.data.resultData.runData.ContentGen[0];
		return {
			requests: log.length,
			firstRead: log.slice(0, firstPost).filter(isList).length,
			records: log.filter(
				(r) => r.method === 'GET' && /\/social\/content\/[0-9a-f-]{36}$/.test(r.path),
			).length,
			publishes: log.filter((r) => r.method === 'POST').length,
			readBack: log.slice(firstPost).filter(isList).length,
			listed,
			hints: (task.hints ?? []).map((h) => h.message),
		};
	} finally {
		restoreTime();
		await sb.close();
	}
}

/** The rows of one account size and list order. */
async function costRow(
	row: AddRow,
	notes: string[],
	order: SocialListOrder,
	n: number,
	target: string,
	spread?: { others: string[]; share: number },
	platforms = ['linkedin', 'twitter'],
): Promise<void> {
	const reshuffled = order === 'shuffled';
	const costs: Cost[] = [];
	for (let s = 0; s < (reshuffled ? SEEDS : 1); s++) {
		costs.push(await queueCost(order, 411 + s, n, spread, platforms));
	}
	const mean = (f: (c: Cost) => number) => costs.reduce((sum, c) => sum + f(c), 0) / costs.length;
	const listed = costs[0].listed;
	const pages = Math.max(1, Math.ceil(listed / 100));
	const minimum = pages + POSTS;
	const requests = mean((c) => c.requests);
	const range = (f: (c: Cost) => number) =>
		costs.length > 1
			? ` (mean of ${costs.length} seeds, ${Math.min(...costs.map(f))}-${Math.max(...costs.map(f))})`
			: '';
	const name = `publish next free slot, ${POSTS} posts${spread ? ` for ${platforms.join(' + ')}` : ''}, 2 a slot, ${n.toLocaleString('en')} already scheduled${spread ? `, ${listed.toLocaleString('en')} of them on ${platforms.join(' + ')}` : ''}, ${reshuffled ? 'list reshuffled on every request' : 'list newest first'}`;
	row(
		'requests',
		name,
		`${fmt(requests, costs.length > 1 ? 1 : 0)}${range((c) => c.requests)}`,
		`${minimum} (${pages} page${pages > 1 ? 's' : ''} + ${POSTS} posts, stable order)`,
		fmt(requests / minimum),
		target,
	);
	const coupon = reshuffled ? couponPages(listed) : pages;
	notes.push(
		`queue, ${n.toLocaleString('en')} scheduled, ${reshuffled ? 'reshuffled' : 'newest first'}${spread ? `, ${listed} on ${platforms.join(' + ')}` : ''}: first read ${fmt(
			mean((c) => c.firstRead),
			1,
		)} list pages (${reshuffled ? `a coupon collector's expected ${fmt(coupon, 1)}: ${fmt(mean((c) => c.firstRead) / coupon)}x` : `${pages} pages`}), ${fmt(
			mean((c) => c.records),
			1,
		)} record reads, ${fmt(
			mean((c) => c.publishes),
			1,
		)} publishes, read back ${fmt(
			mean((c) => c.readBack),
			1,
		)} list pages.${costs[0].hints.length ? ` Hint: ${costs[0].hints.join(' | ')}` : ''}`,
	);
}

export async function queueRows(row: AddRow, notes: string[]): Promise<void> {
	for (const [n, newest, reshuffled] of [
		[0, '<= 12', '<= 12'],
		[500, '<= 21', '<= 50'],
		[5000, '<= 111', '<= 530'],
	] as const) {
		await costRow(row, notes, 'created_desc', n, newest);
		await costRow(row, notes, 'shuffled', n, reshuffled);
	}
	// The platform filter: 5 posts for LinkedIn alone, a fifth of the account's posts on LinkedIn.
	await costRow(
		row,
		notes,
		'shuffled',
		5000,
		'',
		{ others: ['instagram', 'facebook'], share: 0.2 },
		['linkedin'],
	);
	const sb = await sandbox(1000, 402, 'created_desc');
	try {
		sb.control.resetRequests();
		const runs = await Promise.all(
			Array.from({ length: 10 }, async () => await execution(sb, queueParameters(365))),
		);
		const items = runs.flatMap((r) => r.output('ContentGen').map((i) => i.json));
		const used = sb.control.requests().length;
		const moved = items.filter((i) => i.slot_check === 'moved').length;
		const conflicts = items.filter((i) => i.slot_check === 'conflict').length;
		const slots = new Map<string, number>();
		for (const i of items) {
			const at = String((i.slot as IDataObject | null)?.scheduled_at);
			slots.set(at, (slots.get(at) ?? 0) + 1);
		}
		const shared = [...slots.values()].filter((n) => n > 1).length;
		row(
			'requests',
			'publish next free slot, 10 executions x 5 posts at once',
			String(used),
			'60 (1 page + 5 posts, x 10)',
			fmt(used / 60),
			'<= 4.00',
		);
		notes.push(
			`queue, 10 executions x 5 posts at once on one account: ${moved} of 50 posts moved after reading back, ${conflicts} reported as conflicts, ${shared} slots shared, ${runs.filter((r) => r.error).length} executions failed.`,
		);
	} finally {
		await sb.close();
	}
}

if (require.main === module) printAlone(queueRows);
