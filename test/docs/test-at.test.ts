/**
 * `npm run test:at -- commit` (scripts/test-at.ts, its date from harness/clock.ts), as CI runs it: the date it picks from a commit
 * is a whole minute within a year before to three years after the commit, and three picks of four
 * sit within 90 minutes of a date that breaks calendars, each kind of edge among them.
 */
import { createHash } from 'crypto';

import { edges, pick } from '../../harness/clock';

const COMMITTED = Date.UTC(2026, 11, 2, 7, 0);
const MINUTE = 60_000;
const YEAR = 365 * 1440 * MINUTE;
const hashes = Array.from({ length: 2000 }, (_, i) =>
	createHash('sha1').update(`commit ${i}`).digest('hex'),
);

describe('npm run test:at -- commit', () => {
	it("knows the calendar's edges of a year (UTC)", () => {
		const iso = (group: number[]) => group.map((t) => new Date(t).toISOString());
		expect(edges(2027).map(iso)).toEqual([
			['2027-03-28T01:00:00.000Z', '2027-10-31T01:00:00.000Z'],
			['2027-03-14T07:00:00.000Z', '2027-11-07T06:00:00.000Z'],
			['2028-01-01T00:00:00.000Z'],
			['2027-03-01T00:00:00.000Z'],
		]);
	});

	it('picks a whole minute near the commit, three of four next to an edge of each kind', () => {
		const groups = [2025, 2026, 2027, 2028, 2029, 2030, 2031].map(edges);
		const near = [0, 0, 0, 0];
		for (const hash of hashes) {
			const at = pick(hash, COMMITTED);
			expect(at % MINUTE).toBe(0);
			expect(at).toBeGreaterThanOrEqual(COMMITTED - YEAR - 90 * MINUTE - 366 * 1440 * MINUTE);
			expect(at).toBeLessThanOrEqual(COMMITTED + 3 * YEAR + 366 * 1440 * MINUTE);
			const kind = [0, 1, 2, 3].find((k) =>
				groups.some((g) => g[k].some((edge) => Math.abs(at - edge) <= 90 * MINUTE)),
			);
			if (kind !== undefined) near[kind]++;
		}
		const share = near.reduce((a, b) => a + b) / hashes.length;
		expect(share).toBeGreaterThan(0.7);
		expect(share).toBeLessThan(0.8);
		for (const count of near) expect(count).toBeGreaterThan(hashes.length / 8);
	});

	it('changes with the commit', () => {
		const picks = new Set(hashes.slice(0, 100).map((hash) => pick(hash, COMMITTED)));
		expect(picks.size).toBeGreaterThan(90);
	});
});
