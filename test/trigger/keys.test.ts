/**
 * Stored keys of ids that share long prefixes: the UUIDs of time-ordered versions (v7 minted in
 * one millisecond, v6, v1 of one clock tick) and sequential ids. A key is cut to MIN_KEY
 * characters when many records must be remembered, and finished articles below the look-back
 * are always kept that short: ids differing only past the first 54 bits must still stay apart.
 */
import { prng } from '../../harness/trigger/world';
import type { TriggerEvent } from '../../nodes/ContentGenTrigger/tracker';
import {
	FULL_KEY,
	MIN_KEY,
	packId,
	RecordMap,
	unpackId,
} from '../../nodes/ContentGenTrigger/tracker/state/keys';
import { uuidv7 } from '../../sandbox/prng';
import { MINUTE, TrackerAccount } from './tracker-account';

const DAY = 86_400_000;
const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');
const uuid = (h: string) =>
	`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

function v6(tick: number): string {
	const t = `1f0b2a1e0${hex(0xf3a000 + tick, 6)}`;
	return uuid(`${t.slice(0, 12)}6${t.slice(12)}a2b1${hex(0xfeed, 12)}`);
}

/** Families of ids that share their first 54 bits or more. */
const FAMILIES: Array<[string, (i: number) => string]> = [
	[
		'UUIDv7 minted in one millisecond',
		(
			(random) => () =>
				uuidv7(1_767_225_600_000, random)
		)(prng(3)),
	],
	['sequential', (i) => `00000000-0000-0000-0000-${hex(i, 12)}`],
	// v1 of one clock tick on machines that differ in their node (the last 48 bits)
	['v1, one tick, many nodes', (i) => uuid(`1e0f3a2b4c5d11f0b2a1${hex(i * 7919, 12)}`)],
	// v6: time high first; one tick apart
	['v6, consecutive ticks', (i) => v6(i)],
];

describe('keys of ids that share a long prefix', () => {
	it.each(FAMILIES)('%s: 10,000 ids keep 10,000 keys at the shortest key length', (_name, make) => {
		const ids = Array.from({ length: 10_000 }, (_, i) => make(i));
		expect(new Set(ids).size).toBe(10_000);
		const map = new RecordMap<number>(MIN_KEY);
		ids.forEach((id, i) => map.set(packId(id) as string, i));
		expect(map.size).toBe(10_000);
		// Each is found again as itself, and its whole key still turns back into its id.
		expect(ids.filter((id, i) => map.get(packId(id) as string) !== i)).toEqual([]);
		expect(ids.filter((id) => unpackId(packId(id) as string) !== id)).toEqual([]);
		expect(ids.every((id) => (packId(id) as string).length === FULL_KEY)).toBe(true);
	});

	it('a short key depends on every bit of the id', () => {
		const base = '0190f6a1-2b3c-7d4e-8f50-6a7b8c9d0e1f';
		const short = (id: string) => (packId(id) as string).slice(0, MIN_KEY);
		const unchanged: number[] = [];
		for (let bit = 0; bit < 128; bit++) {
			const digits = base.replace(/-/g, '').split('');
			const at = bit >> 2;
			digits[at] = hex(parseInt(digits[at], 16) ^ (8 >> (bit & 3)), 1);
			if (short(uuid(digits.join(''))) === short(base)) unchanged.push(bit);
		}
		expect(unchanged).toEqual([]);
	});
});

describe('finished articles of one batch, two of them last changed long before the look-back', () => {
	const ALL: TriggerEvent[] = [
		'articleCompleted',
		'articleFailed',
		'articleCreated',
		'articleStatusChanged',
	];

	it.each(['v4', 'v7'] as const)(
		'the two move between finished statuses: both reported, once (%s ids)',
		async (ids) => {
			const account = new TrackerAccount(ALL, 'id', 11, ids);
			const { world } = account;
			// 20 ids minted at once (an import): 2 finished 10 days ago, 18 in the last day.
			const [archived, cms] = ['archived', 'cms'].map((status) =>
				world.create('article', status, { created: world.now - 10 * DAY }),
			);
			for (let i = 0; i < 18; i++)
				world.create('article', 'cms', { created: world.now - DAY + i * MINUTE });
			expect((await account.settle(20)).polls).toBeLessThan(20);
			for (let i = 0; i < 10; i++) await account.poll();

			world.set('article', archived, 'cms');
			world.tick(1000);
			world.set('article', cms, 'failed');
			const first = await account.poll();
			const second = await account.poll();
			expect(
				first.outcome.items.map((item) => [item.record.id, item.event, item.previousStatus]),
			).toEqual([
				[archived, 'articleCompleted', 'archived'],
				[cms, 'articleFailed', 'cms'],
			]);
			expect(second.outcome.items).toEqual([]);
		},
	);
});
