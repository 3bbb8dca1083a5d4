/**
 * The social trigger on accounts of agency size: what an idle poll costs as the lists grow, births
 * while the trigger learns a big account, and records the account loses. Requests are counted
 * from the in-memory service's log; the stored state is measured as n8n stores it (JSON).
 */
import { type TriggerEvent } from '../../nodes/ContentGenTrigger/tracker';
import { type SocialOrder } from '../../harness/trigger/world';
import { TrackerAccount } from './tracker-account';

const FINISHED: TriggerEvent[] = ['socialFinished', 'socialFailed'];
const PUBLISHED: TriggerEvent[] = ['socialScheduled', 'socialPublished'];
const SPEC_STATUSES = [
	'draft',
	'queued',
	'generating',
	'ready',
	'completed',
	'scheduled',
	'published',
	'failed',
];

class Account extends TrackerAccount {
	/** `count` records in `status`, created over the last months. */
	seed(status: string, count: number): string[] {
		const ids: string[] = [];
		const start = this.world.now - 180 * 86_400_000;
		for (let i = 0; i < count; i++)
			ids.push(this.world.create('social', status, { created: start + i * 1000 }));
		return ids;
	}
}

describe('an idle social poll does not grow with the account', () => {
	it.each([
		[FINISHED, 500, 4],
		[FINISHED, 3000, 4],
		[FINISHED, 10_000, 4],
		[PUBLISHED, 500, 7],
		[PUBLISHED, 3000, 7],
		[PUBLISHED, 10_000, 7],
	])('%s with %d records in every status: at most %d requests', async (events, size, most) => {
		const account = new Account(events);
		for (const status of SPEC_STATUSES) account.seed(status, size);
		await account.settle(40);
		const idle = [await account.poll(), await account.poll(), await account.poll()].map(
			(p) => p.requests,
		);
		expect(Math.max(...idle)).toBeLessThanOrEqual(most);
	});

	it('stays idle-cheap while published grows, and reports each publish (3,000 records a status)', async () => {
		const account = new Account(PUBLISHED);
		for (const status of ['ready', 'completed', 'published']) account.seed(status, 3000);
		const scheduled = account.seed('scheduled', 3000);
		await account.settle(40);
		const idleBefore = (await account.poll()).requests;
		for (const id of scheduled.slice(0, 5)) account.world.set('social', id, 'published');
		const published = await account.settle(10);
		expect(published.reported.sort()).toEqual(scheduled.slice(0, 5).sort());
		const idleAfter = (await account.poll()).requests;
		expect(idleBefore).toBeLessThanOrEqual(7);
		expect(idleAfter).toBeLessThanOrEqual(7);
	});
});

describe('content born while the trigger learns a big account', () => {
	it.each([
		[5000, 'id'],
		[10_000, 'id'],
		[5000, 'newest'],
		[10_000, 'oldest'],
	] as Array<[number, SocialOrder]>)(
		'reports 5 of 5 births at %d ready + as many completed (%s order), within the learning polls and 3 more',
		async (size, order) => {
			const account = new Account(FINISHED, order);
			account.seed('ready', size);
			account.seed('completed', size);
			const first = await account.poll();
			expect(first.outcome.lag.learning).toBe(true);
			account.world.tick(1000);
			const born = [0, 1, 2, 3, 4].map(() => account.world.create('social', 'completed'));
			// The whole list at 30 requests a poll, then the polls the search may take.
			const learningPolls = Math.ceil((2 * size) / 100 / 30);
			const { reported, polls } = await account.settle(learningPolls + 3);
			expect(reported.sort()).toEqual(born.sort());
			expect(polls).toBeLessThanOrEqual(learningPolls + 3);
		},
	);
});

describe('records the account loses', () => {
	it('a birth hidden by two deletions in the same interval is still reported', async () => {
		const account = new Account(FINISHED);
		const old = account.seed('completed', 3000);
		await account.settle(10);
		account.world.remove(old[10]);
		account.world.remove(old[2000]);
		const born = account.world.create('social', 'completed');
		const { reported } = await account.settle(10);
		expect(reported).toEqual([born]);
	});

	it('a followed record deleted while another is born into its list: both are told apart', async () => {
		const account = new Account(['socialFinished', 'socialScheduled']);
		account.seed('published', 3000);
		const ready = account.seed('ready', 300);
		await account.settle(10);
		account.world.remove(ready[5]);
		account.world.set('social', ready[6], 'scheduled');
		const born = account.world.create('social', 'ready');
		const { reported } = await account.settle(10);
		expect(reported.sort()).toEqual([born, ready[6]].sort());
	});
});

describe('a list the service reorders on every request, too long to read in one poll', () => {
	it('costs an idle poll no more than a stable list, and still finds what is born, by sampling', async () => {
		const account = new Account(PUBLISHED, 'shuffled');
		for (const status of ['ready', 'completed', 'published']) account.seed(status, 1000);
		const activation = await account.poll();
		const idle = [await account.poll(), await account.poll(), await account.poll()];
		expect(idle.map((p) => p.requests)).toEqual([7, 7, 7]);
		// An idle poll that only samples is not behind: no warning every poll.
		expect(idle.every((p) => !p.outcome.lag.behind)).toBe(true);
		expect(activation.outcome.lag.notes.join(' ')).toMatch(/reorders its social list/);

		const born = [
			account.world.create('social', 'published'),
			account.world.create('social', 'scheduled'),
		];
		const reported: string[] = [];
		let requests = 0;
		for (let poll = 0; poll < 12 && reported.length < born.length; poll++) {
			const { outcome, requests: spent } = await account.poll();
			requests += spent;
			reported.push(...outcome.items.map((item) => item.record.id));
		}
		expect(reported.sort()).toEqual(born.sort());
		// Sampling stops once they are found.
		expect((await account.poll()).requests).toBeLessThanOrEqual(7);
		expect(requests).toBeGreaterThan(0);
	});
});
