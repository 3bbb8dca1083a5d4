/**
 * Rows of `npm run bench` about Publish > Next Free Slot: requests of one execution queueing 5
 * posts on accounts with 0, 500 and 5,000 posts already scheduled, against the stated cost (the
 * pages of the scheduled list plus one per post), and 10 such executions at once on one account:
 * requests, posts moved, slots left shared. `npx tsx bench/queue.ts` prints them alone.
 */
import './resolve';
import './env';

import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../harness/engine';
import { credentials, fmt, listTotal, printAlone, sandbox, type AddRow } from './kit';

const POSTS = 5;
const DAY = 86_400_000;
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Publish > Next Free Slot at three posting times a day, every day, in UTC. */
export const queueParameters = (horizonDays: number): IDataObject => ({
	resource: 'socialContent',
	operation: 'publish',
	contentId: '={{ $json.id }}',
	timing: 'nextFreeSlot',
	postingTimes: {
		time: DAYS.flatMap((weekday) =>
			['09:00', '13:00', '18:00'].map((timeOfDay) => ({ weekday, timeOfDay })),
		),
	},
	queueOptions: { timeZone: 'UTC', horizonDays },
});
const queue = queueParameters(365);

/** `n` posts scheduled: the first 60 on the posting times, the rest at 10:30 on later days. */
function scheduleOthers(sb: Sandbox, n: number): void {
	const today = Math.floor(sb.control.now().getTime() / DAY) * DAY;
	const hours = [9, 13, 18];
	sb.control.seedSocial(n, {
		status: 'scheduled',
		platforms: ['linkedin', 'twitter'],
		scheduledAt: (i) =>
			i < 60
				? today + (1 + Math.floor(i / 3)) * DAY + hours[i % 3] * 3_600_000
				: today + (21 + (i % 300)) * DAY + 10.5 * 3_600_000 + Math.floor(i / 300) * 1000,
	});
}

async function execution(sb: Sandbox) {
	const input = sb.control
		.seedSocial(POSTS, { status: 'completed', platforms: ['linkedin', 'twitter'] })
		.map((id) => ({ id }));
	return await runWorkflow(singleNodeWorkflow(queue), { credentials: credentials(sb), input });
}

const count = (sb: Sandbox, method: string, path: RegExp) =>
	sb.control.requests().filter((r) => r.method === method && path.test(r.path)).length;

export async function queueRows(row: AddRow, notes: string[]): Promise<void> {
	for (const scheduled of [0, 500, 5000]) {
		const sb = await sandbox(1000, 401, 'created_desc');
		try {
			scheduleOthers(sb, scheduled);
			// The seeded account holds a few scheduled posts of its own: pages by the service's count.
			const listed = await listTotal(sb, '/social/content?status=scheduled');
			sb.control.resetRequests();
			const result = await execution(sb);
			if (result.error) throw new Error(`queue run failed: ${result.error.message}`);
			const used = sb.control.requests().length;
			const pages = Math.max(1, Math.ceil(listed / 100));
			const stated = pages + POSTS;
			const label = `${stated} (${pages} page${pages > 1 ? 's' : ''} + ${POSTS} posts)`;
			row(
				'requests',
				`publish next free slot, ${POSTS} posts, ${scheduled.toLocaleString('en')} already scheduled`,
				String(used),
				label,
				fmt(used / stated),
				'<= 2.00',
			);
			notes.push(
				`queue, ${scheduled.toLocaleString('en')} scheduled: ${count(sb, 'GET', /\/social\/content(\?|$)/)} list pages (read and read back), ${count(sb, 'GET', /\/social\/content\/[0-9a-f-]{36}/)} record reads, ${count(sb, 'POST', /\/social\/publish/)} publishes.`,
			);
		} finally {
			await sb.close();
		}
	}
	// The spec gives the list no order: the same 500 on a list reshuffled on every request.
	const reshuffled = await sandbox(1000, 403, 'shuffled');
	try {
		scheduleOthers(reshuffled, 500);
		const listed = await listTotal(reshuffled, '/social/content?status=scheduled');
		reshuffled.control.resetRequests();
		const result = await execution(reshuffled);
		if (result.error) throw new Error(`queue run failed: ${result.error.message}`);
		const used = reshuffled.control.requests().length;
		const pages = Math.ceil(listed / 100);
		row(
			'requests',
			`publish next free slot, ${POSTS} posts, 500 already scheduled, list reshuffled on every request`,
			String(used),
			`${pages + POSTS} (${pages} pages + ${POSTS} posts)`,
			fmt(used / (pages + POSTS)),
			'',
		);
	} finally {
		await reshuffled.close();
	}
	const sb = await sandbox(1000, 402, 'created_desc');
	try {
		sb.control.resetRequests();
		const runs = await Promise.all(Array.from({ length: 10 }, async () => await execution(sb)));
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
