/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test reads its seed from the environment */
/**
 * The posting queue's calendar: random posting times, zones (a 30-minute daylight-saving shift, a
 * zone without daylight saving, European and American zones) and occupied slots. Every slot the
 * queue gives is free, after the lead time, within the horizon, within posts per slot on each
 * platform, and its wall-clock time in the zone (read by a separate Intl formatter) is one of the
 * posting times; no posting time gives two slots on one day.
 */
import fc from 'fast-check';

import {
	countIn,
	firstFree,
	occupancyOf,
	slotsBetween,
	take,
	WEEKDAYS,
	type PostingTime,
	type ScheduledPost,
} from '../../nodes/ContentGen/resources/socialContent/queue/slots';
import { zoneClock } from '../../nodes/ContentGen/resources/socialContent/queue/zone';

const SEED =
	process.env.CONTENTGEN_PROPERTY_SEED === 'random'
		? undefined
		: Number(process.env.CONTENTGEN_PROPERTY_SEED ?? 20261127);

const ZONES = [
	'Australia/Lord_Howe',
	'Asia/Kolkata',
	'Europe/Berlin',
	'Europe/London',
	'America/New_York',
	'America/Santiago',
	'UTC',
];
const PLATFORMS = ['linkedin', 'twitter', 'instagram'];
const MINUTE = 60_000;
const DAY = 86_400_000;

/** The weekday and time of day of an instant in a zone, as an independent formatter reads them. */
function wallClock(zone: string, at: number): string {
	const parts = new Intl.DateTimeFormat('en-GB', {
		timeZone: zone,
		weekday: 'long',
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	}).formatToParts(new Date(at));
	const get = (type: string) => parts.find((part) => part.type === type)?.value;
	return `${get('weekday')} ${get('hour')}:${get('minute')}`;
}

const label = (t: PostingTime) =>
	`${WEEKDAYS[t.weekday - 1]} ${String(Math.floor(t.minute / 60)).padStart(2, '0')}:${String(t.minute % 60).padStart(2, '0')}`;

// Times of day between 00:00 and 03:30 are drawn often: daylight saving changes there.
const timeArb = fc.record({
	weekday: fc.integer({ min: 1, max: 7 }),
	minute: fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 210 })),
});
const platformsArb = fc.subarray(PLATFORMS, { minLength: 1 });
const caseArb = fc.record({
	zone: fc.constantFrom(...ZONES),
	times: fc.array(timeArb, { minLength: 1, maxLength: 8 }),
	// Any instant of 2026-2028, so that horizons often cross a change of daylight saving.
	now: fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2028, 11, 31) }),
	leadMinutes: fc.integer({ min: 0, max: 3000 }),
	horizonDays: fc.integer({ min: 1, max: 45 }),
	perSlot: fc.integer({ min: 1, max: 3 }),
	occupied: fc.array(
		fc.record({
			pick: fc.nat(),
			offset: fc.constantFrom(0, 0, 0, 30_000, 61_000),
			platforms: platformsArb,
		}),
		{ maxLength: 60 },
	),
	posts: fc.array(platformsArb, { minLength: 1, maxLength: 25 }),
});

describe('the queue calendar, over random schedules, zones and occupied slots', () => {
	it('gives free, future slots within the horizon at the posting times, never over posts per slot', () => {
		fc.assert(
			fc.property(caseArb, (c) => {
				const clock = zoneClock(c.zone);
				const from = c.now + c.leadMinutes * MINUTE + 1;
				const to = c.now + c.horizonDays * DAY;
				const slots = [...slotsBetween(clock, c.times, from, to)];
				const wanted = new Set(c.times.map(label));
				// Every slot is at a posting time, in the window, once per posting time and day.
				const seen = new Set<string>();
				for (const slot of slots) {
					expect(wanted.has(wallClock(c.zone, slot.at))).toBe(true);
					expect(slot.at).toBeGreaterThan(c.now);
					expect(slot.at).toBeGreaterThanOrEqual(from);
					expect(slot.at).toBeLessThanOrEqual(to);
					expect(slot.at % MINUTE).toBe(0);
					expect(seen.has(slot.local)).toBe(false);
					seen.add(slot.local);
				}
				expect(slots.map((s) => s.at)).toEqual([...slots.map((s) => s.at)].sort((a, b) => a - b));
				// Occupied: some posts on slots (or within their minute), some elsewhere.
				const existing: ScheduledPost[] = c.occupied.map((o, i) => ({
					id: `x${i}`,
					at: slots.length ? slots[o.pick % slots.length].at + o.offset : c.now + o.offset,
					platforms: o.platforms,
				}));
				const before = occupancyOf(existing);
				const occupancy = occupancyOf(existing);
				const placed: Array<{ at: number; platforms: string[] }> = [];
				for (const [i, platforms] of c.posts.entries()) {
					const post = { id: `q${i}`, platforms };
					const pick = firstFree(slots, occupancy, post, c.perSlot);
					if (!pick.slot) {
						// Past the horizon: every slot really had a full platform of the post.
						expect(pick.full).toBe(slots.length);
						for (const slot of slots) {
							expect(platforms.some((p) => countIn(occupancy, slot.at, p) >= c.perSlot)).toBe(true);
						}
						continue;
					}
					for (const p of platforms)
						expect(countIn(occupancy, pick.slot.at, p)).toBeLessThan(c.perSlot);
					take(occupancy, { id: post.id, at: pick.slot.at, platforms });
					placed.push({ at: pick.slot.at, platforms });
				}
				// Per slot and platform: what the queue added never takes it past posts per slot.
				for (const { at } of placed) {
					for (const p of PLATFORMS) {
						const added = placed.filter((x) => x.at === at && x.platforms.includes(p)).length;
						const had = countIn(before, at, p);
						if (added > 0) expect(had + added).toBeLessThanOrEqual(c.perSlot);
					}
				}
			}),
			{ seed: SEED, numRuns: 300 },
		);
	});
});

describe('daylight saving, as documented', () => {
	const slotsOn = (zone: string, times: PostingTime[], fromIso: string, toIso: string) =>
		[...slotsBetween(zoneClock(zone), times, Date.parse(fromIso), Date.parse(toIso))].map((s) => [
			s.local,
			new Date(s.at).toISOString(),
		]);

	it('a posting time in the hour skipped in spring has no slot that day (Europe/Berlin)', () => {
		// Sunday 29 March 2026: 02:00 becomes 03:00.
		expect(
			slotsOn(
				'Europe/Berlin',
				[{ weekday: 7, minute: 150 }],
				'2026-03-21T00:00:00Z',
				'2026-04-06T00:00:00Z',
			),
		).toEqual([
			['2026-03-22T02:30', '2026-03-22T01:30:00.000Z'],
			['2026-04-05T02:30', '2026-04-05T00:30:00.000Z'],
		]);
	});

	it('a posting time in the hour repeated in autumn gives one slot, the first (Europe/Berlin)', () => {
		// Sunday 25 October 2026: 02:30 happens at 00:30Z (summer time) and again at 01:30Z.
		expect(
			slotsOn(
				'Europe/Berlin',
				[{ weekday: 7, minute: 150 }],
				'2026-10-24T00:00:00Z',
				'2026-10-26T00:00:00Z',
			),
		).toEqual([['2026-10-25T02:30', '2026-10-25T00:30:00.000Z']]);
	});

	it('Lord Howe Island shifts by 30 minutes: 02:15 skipped in October, 01:45 once in April', () => {
		// Sunday 4 October 2026 02:00 becomes 02:30 (+10:30 to +11); Sunday 5 April 2026 02:00 becomes 01:30.
		expect(
			slotsOn(
				'Australia/Lord_Howe',
				[{ weekday: 7, minute: 135 }],
				'2026-09-26T00:00:00Z',
				'2026-10-12T00:00:00Z',
			),
		).toEqual([
			['2026-09-27T02:15', '2026-09-26T15:45:00.000Z'],
			['2026-10-11T02:15', '2026-10-10T15:15:00.000Z'],
		]);
		expect(
			slotsOn(
				'Australia/Lord_Howe',
				[{ weekday: 7, minute: 105 }],
				'2026-04-04T00:00:00Z',
				'2026-04-06T00:00:00Z',
			),
		).toEqual([['2026-04-05T01:45', '2026-04-04T14:45:00.000Z']]);
	});

	it('a zone without daylight saving has every slot (Asia/Kolkata, +05:30)', () => {
		expect(
			slotsOn(
				'Asia/Kolkata',
				[
					{ weekday: 1, minute: 540 },
					{ weekday: 3, minute: 1050 },
				],
				'2026-03-29T00:00:00Z',
				'2026-04-06T00:00:00Z',
			),
		).toEqual([
			['2026-03-30T09:00', '2026-03-30T03:30:00.000Z'],
			['2026-04-01T17:30', '2026-04-01T12:00:00.000Z'],
		]);
	});
});

describe('the first free slot', () => {
	const clock = zoneClock('UTC');
	const times = [
		{ weekday: 1, minute: 540 },
		{ weekday: 1, minute: 720 },
	];
	const slots = () =>
		slotsBetween(
			clock,
			times,
			Date.parse('2026-11-30T00:00:00Z'),
			Date.parse('2026-12-08T00:00:00Z'),
		);

	it('counts per platform: a slot full on X still has room on LinkedIn', () => {
		const occupancy = occupancyOf([
			{ id: 'a', at: Date.parse('2026-11-30T09:00:00Z'), platforms: ['twitter'] },
		]);
		expect(firstFree(slots(), occupancy, { id: 'p', platforms: ['linkedin'] }, 1).slot?.local).toBe(
			'2026-11-30T09:00',
		);
		expect(
			firstFree(slots(), occupancy, { id: 'p', platforms: ['linkedin', 'twitter'] }, 1).slot?.local,
		).toBe('2026-11-30T12:00');
	});

	it('a post scheduled within the slot minute takes it; the record being queued again does not', () => {
		const occupancy = occupancyOf([
			{ id: 'a', at: Date.parse('2026-11-30T09:00:42Z'), platforms: ['twitter'] },
		]);
		expect(firstFree(slots(), occupancy, { id: 'p', platforms: ['twitter'] }, 1).slot?.local).toBe(
			'2026-11-30T12:00',
		);
		expect(firstFree(slots(), occupancy, { id: 'a', platforms: ['twitter'] }, 1).slot?.local).toBe(
			'2026-11-30T09:00',
		);
	});

	it('past the horizon it says how many slots there were and that all were full', () => {
		const occupancy = occupancyOf(
			[
				'2026-11-30T09:00:00Z',
				'2026-11-30T12:00:00Z',
				'2026-12-07T09:00:00Z',
				'2026-12-07T12:00:00Z',
			].map((at, i) => ({ id: `x${i}`, at: Date.parse(at), platforms: ['twitter'] })),
		);
		expect(firstFree(slots(), occupancy, { id: 'p', platforms: ['twitter'] }, 1)).toEqual({
			full: 4,
			slots: 4,
		});
	});
});
