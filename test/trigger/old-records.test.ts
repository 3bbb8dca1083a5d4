/**
 * Two things only a long-lived account shows: a social record deleted on a list longer than one
 * poll's search reaches, and finished articles last changed long before the look-back that move
 * again. Requests are counted from the in-memory service's log.
 */
import { type PollOutcome, type TriggerEvent } from '../../nodes/ContentGenTrigger/tracker';
import { type SocialOrder } from '../../harness/trigger/world';
import { MINUTE, TrackerAccount } from './tracker-account';

const DAY = 86_400_000;

class Account extends TrackerAccount {
	constructor(events: TriggerEvent[], order: SocialOrder = 'id') {
		super(events, order, 11);
	}

	/** `count` records in `status`, one every 10 minutes, the newest `ageDays` old. */
	seed(kind: 'article' | 'social', status: string, count: number, ageDays = 10): string[] {
		const ids: string[] = [];
		const start = this.world.now - ageDays * DAY - count * 10 * MINUTE;
		for (let i = 0; i < count; i++)
			ids.push(this.world.create(kind, status, { created: start + i * 10 * MINUTE }));
		return ids;
	}

	/** A new record in `status` that the list (in id order) shows past `page`. */
	bornPast(status: string, page: number): string {
		for (;;) {
			const id = this.world.create('social', status);
			const position = [...this.world.social.keys()].sort().indexOf(id);
			if (position >= page * 100) return id;
			this.world.remove(id);
		}
	}
}

const searching = (outcome: PollOutcome) =>
	outcome.lag.notes.some((note) => note.startsWith('social records disappeared'));

describe('a social record deleted on a list longer than one poll searches', () => {
	it.each<[SocialOrder, number]>([
		['id', 3500],
		['id', 6500],
		['newest', 3500],
	])(
		'the search finishes and a poll costs its idle price again (%s order, %i records)',
		async (order, size) => {
			const account = new Account(['socialFinished', 'socialFailed'], order);
			const published = account.seed('social', 'published', size);
			expect((await account.settle(200)).polls).toBeLessThan(200);
			expect((await account.poll()).requests).toBe(4);

			account.world.remove(published[1234]);
			const costs: number[] = [];
			const flags: boolean[] = [];
			// The stored search page after each poll.
			const pages: number[] = [];
			for (let i = 0; i < 40; i++) {
				const { outcome, requests } = await account.poll();
				expect(outcome.items).toEqual([]);
				costs.push(requests);
				flags.push(searching(outcome));
				pages.push((account.stored as { social: { searchPage: number } }).social.searchPage);
			}
			// 30 pages a poll: the pass over pages 2 to the last ends within ceil((pages - 1) / 30) polls.
			const polls = Math.ceil((Math.ceil(size / 100) - 1) / 30);
			expect({
				costs: costs.slice(polls, polls + 5),
				pages: pages.slice(polls, polls + 3),
			}).toEqual({
				costs: [4, 4, 4, 4, 4],
				pages: [2, 2, 2],
			});
			expect(costs.slice(polls)).toEqual(new Array(40 - polls).fill(4));
			expect(flags.slice(polls)).toEqual(new Array(40 - polls).fill(false));
		},
	);

	it('finds a new record a deletion hid, wherever the list puts it', async () => {
		const account = new Account(['socialFinished', 'socialFailed'], 'id');
		const published = account.seed('social', 'published', 3500);
		expect((await account.settle(200)).polls).toBeLessThan(200);
		await account.poll();

		// Two records deleted and one born failed in the same interval: the count falls by one.
		account.world.remove(published[10]);
		account.world.remove(published[3000]);
		const born = account.bornPast('failed', 31);
		const reported: Array<[number, string, string]> = [];
		for (let i = 0; i < 6; i++) {
			const { outcome } = await account.poll();
			for (const item of outcome.items) reported.push([i, item.record.id, item.event]);
		}
		expect(reported.map(([, id, event]) => [id, event])).toEqual([[born, 'socialFailed']]);
		// Pages 2 to 31 at the first poll after the loss, the rest at the next.
		expect(reported[0][0]).toBeLessThan(2);
	});
});

describe('a social list oldest first (by a time-ordered id, as a table by its key gives it)', () => {
	it('a birth on the last page is found at the next poll, before a loss can hide it', async () => {
		const account = new Account(['socialFinished', 'socialFailed'], 'oldest');
		const published = account.seed('social', 'published', 3500);
		expect((await account.settle(200)).polls).toBeLessThan(200);
		await account.poll();

		const born = account.world.create('social', 'failed');
		const first = await account.poll();
		// One interval later a record not followed is lost: the count no longer shows the birth.
		account.world.remove(published[100]);
		const reported = first.outcome.items.map((item) => [item.record.id, item.event]);
		for (let i = 0; i < 5; i++) {
			const { outcome } = await account.poll();
			for (const item of outcome.items) reported.push([item.record.id, item.event]);
		}
		expect({ reported, requests: first.requests }).toEqual({
			reported: [[born, 'socialFailed']],
			// The idle 4, and the list's last page.
			requests: 5,
		});
	});
});

describe('finished articles last changed long before the look-back', () => {
	const ALL: TriggerEvent[] = [
		'articleCompleted',
		'articleFailed',
		'articleCreated',
		'articleStatusChanged',
	];

	it('a move between finished statuses is reported once, with the status it left', async () => {
		const account = new Account(ALL);
		const archived = account.seed('article', 'archived', 300);
		const cms = account.seed('article', 'cms', 300);
		expect((await account.settle(20)).polls).toBeLessThan(20);
		for (let i = 0; i < 10; i++) await account.poll();

		account.world.set('article', archived[7], 'cms');
		account.world.tick(1000);
		account.world.set('article', cms[250], 'failed');
		const first = await account.poll();
		const second = await account.poll();
		expect(
			first.outcome.items.map((item) => [item.record.id, item.event, item.previousStatus]),
		).toEqual([
			[archived[7], 'articleCompleted', 'archived'],
			[cms[250], 'articleFailed', 'cms'],
		]);
		expect(second.outcome.items).toEqual([]);
	});

	it('on an account of 8,000 finished articles, the one changed longest ago is not forgotten: its move is reported', async () => {
		const account = new Account(ALL);
		const archived = account.seed('article', 'archived', 4000);
		const cms = account.seed('article', 'cms', 4000);
		expect((await account.settle(30)).polls).toBeLessThan(30);
		// 80 pages to learn, 5 a poll.
		for (let i = 0; i < 20; i++) await account.poll();

		account.world.set('article', archived[0], 'cms');
		account.world.tick(1000);
		account.world.set('article', cms[0], 'failed');
		const { outcome, requests } = await account.poll();
		expect({
			items: outcome.items.map((item) => [item.record.id, item.event, item.previousStatus]),
			requests,
		}).toEqual({
			items: [
				[archived[0], 'articleCompleted', 'archived'],
				[cms[0], 'articleFailed', 'cms'],
			],
			requests: 1,
		});
	}, 60_000);

	it('a quick regeneration through queued within one interval is one move', async () => {
		const account = new Account(ALL);
		const cms = account.seed('article', 'cms', 250);
		expect((await account.settle(20)).polls).toBeLessThan(20);
		await account.poll();

		account.world.set('article', cms[3], 'queued');
		account.world.tick(20_000);
		account.world.set('article', cms[3], 'needs_editing');
		const { outcome } = await account.poll();
		expect(outcome.items.map((item) => [item.record.id, item.event, item.previousStatus])).toEqual([
			[cms[3], 'articleStatusChanged', 'cms'],
		]);
	});

	it('a change stamped a minute behind, after minutes of edits only, is still reported', async () => {
		const account = new Account(ALL);
		const cms = account.seed('article', 'cms', 50);
		expect((await account.settle(20)).polls).toBeLessThan(20);
		// Edits only, for longer than the look-back: the newest stamp is an edit's.
		for (let i = 0; i < 7; i++) {
			account.world.tick(50_000);
			account.world.set('article', cms[i], 'cms');
			expect((await account.poll(10_000)).outcome.items).toEqual([]);
		}
		// 30 s after that poll, by a writer whose clock is a minute behind: stamped before the edit.
		account.world.tick(30_000);
		account.world.set('article', cms[40], 'archived', -60_000);
		const { outcome } = await account.poll(30_000);
		expect(outcome.items.map((item) => [item.record.id, item.previousStatus])).toEqual([
			[cms[40], 'cms'],
		]);
	});

	it('an edit that keeps the status is no change', async () => {
		const account = new Account(ALL);
		const cms = account.seed('article', 'cms', 250);
		expect((await account.settle(20)).polls).toBeLessThan(20);
		await account.poll();

		account.world.set('article', cms[100], 'cms');
		account.world.set('article', cms[5], 'cms');
		const { outcome } = await account.poll();
		expect(outcome.items).toEqual([]);
	});
});
