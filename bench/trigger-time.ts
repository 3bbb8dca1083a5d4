/**
 * Poll time against a slow service, on the virtual clock of harness/trigger/virtual (answers of
 * 12-15 s, or one that never comes), as a share of the time the poll has: the interval, or n8n's
 * poll budget under its durable scheduler. Then the daily cost of an idle trigger polling every
 * minute against each plan's daily limit, as a share of half that limit (where the trigger warns).
 */
import { costOf, idleRequests } from '../nodes/ContentGenTrigger/cost';
import type { TriggerEvent } from '../nodes/ContentGenTrigger/events';
import { pollHarness } from '../harness/trigger/poll';
import { useVirtualClock, VirtualService } from '../harness/trigger/virtual';
import { prng, World } from '../harness/trigger/world';

/** bench/run.ts's row: section, name, measured, reference, ratio, target. */
type Row = (...cells: string[]) => void;

const ARTICLES: TriggerEvent[] = ['articleCompleted'];
const BOTH: TriggerEvent[] = ['articleCompleted', 'socialFinished', 'socialPublished'];

interface Case {
	name: string;
	events: TriggerEvent[];
	/** Latency of the n-th request of the measured poll (Infinity: never answers). */
	latency: (n: number, random: () => number) => number;
	budgetMs?: number;
}

const slow = (_n: number, random: () => number) => 12_000 + Math.round(random() * 3_000);
const firstHangs = (n: number, random: () => number) => (n === 0 ? Infinity : slow(n, random));

const CASES: Case[] = [
	{ name: 'articles, answers 12-15 s', events: ARTICLES, latency: slow },
	{
		name: 'articles, first answer never comes, then 12-15 s',
		events: ARTICLES,
		latency: firstHangs,
	},
	{ name: 'articles + social, answers 12-15 s', events: BOTH, latency: slow },
	{ name: 'articles + social, every answer hangs', events: BOTH, latency: () => Infinity },
	{
		name: 'articles + social, 12-15 s, durable scheduler (36 s budget)',
		events: BOTH,
		latency: slow,
		budgetMs: 36_000,
	},
];

/** The longest of a few polls after activation (the service slow only for those). */
async function pollTime(c: Case): Promise<number> {
	const world = new World(prng(11), { socialOrder: 'id' });
	// Months-old records, a tenth of them still in flight.
	const created = (i: number) => ({ created: world.now - 86_400_000 - i * 60_000 });
	for (let i = 0; i < 2_000; i++) world.create('article', i % 10 ? 'cms' : 'queued', created(i));
	for (let i = 0; i < 2_000; i++)
		world.create('social', ['completed', 'ready', 'generating'][i % 3], created(i));
	const service = new VirtualService(world);
	const trigger = pollHarness({ events: c.events }, undefined, {
		http: service.http,
		pollBudgetMs: c.budgetMs,
	});
	const stop = useVirtualClock(world);
	try {
		await trigger.poll();
		const random = prng(12);
		let longest = 0;
		for (let poll = 0; poll < 3; poll++) {
			world.tick(60_000);
			const first = service.served.length;
			service.latency = (_request, index) => c.latency(index - first, random);
			const start = world.now;
			await trigger.poll().catch(() => null);
			longest = Math.max(longest, world.now - start);
			service.latency = () => 200;
		}
		return longest;
	} finally {
		stop();
	}
}

const PLANS: Array<[string, number]> = [
	['Free', 5_000],
	['Starter-Business', 50_000],
];

const EVENT_SETS: Array<[string, TriggerEvent[]]> = [
	['articles', ARTICLES],
	['social Finished/Failed', ['socialFinished', 'socialFailed']],
	['social, any selection', ['socialScheduled', 'socialPublished']],
	['articles + social, any selection', BOTH],
];

export async function triggerTimeRows(row: Row): Promise<void> {
	for (const c of CASES) {
		const took = await pollTime(c);
		const window = Math.min(60_000, c.budgetMs ?? Infinity);
		row(
			'trigger time',
			`poll time / ${c.budgetMs ? 'budget' : 'interval'}: ${c.name}`,
			`${(took / 1000).toFixed(1)} s`,
			`${window / 1000} s`,
			(took / window).toFixed(2),
			`<= ${((window - Math.min(5_000, window / 4)) / window).toFixed(2)}`,
		);
	}
	for (const [events, selected] of EVENT_SETS) {
		for (const [plan, limit] of PLANS) {
			const perDay = idleRequests(selected) * 1440;
			const warned = costOf(selected, 1440, limit).warning !== undefined;
			row(
				'trigger cost',
				`idle trigger every minute, ${events}, ${plan} (${idleRequests(selected)} per poll x 1,440)${warned ? ', warns' : ''}`,
				`${perDay} a day`,
				`${limit / 2} (half of ${limit})`,
				(perDay / (limit / 2)).toFixed(2),
				'<= 1.00',
			);
		}
	}
}
