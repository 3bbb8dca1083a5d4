import { dayKey } from './clock';
import { DAY_MS, UUID_RE } from './constants';

interface Row {
	requests: number;
	totalMs: number;
	errors: number;
}

/** Per user, per day, per endpoint request counters (the usage object's daily_breakdown). */
export class UsageBook {
	private readonly byUser = new Map<string, Map<string, Row>>();

	record(userId: string, atMs: number, endpoint: string, ms: number, status: number): void {
		this.add(userId, dayKey(atMs), endpoint, {
			requests: 1,
			totalMs: ms,
			errors: status >= 400 || status === 0 ? 1 : 0,
		});
	}

	add(userId: string, day: string, endpoint: string, row: Row): void {
		let rows = this.byUser.get(userId);
		if (!rows) {
			rows = new Map();
			this.byUser.set(userId, rows);
		}
		const k = `${day}|${endpoint}`;
		const cur = rows.get(k);
		if (cur) {
			cur.requests += row.requests;
			cur.totalMs += row.totalMs;
			cur.errors += row.errors;
		} else {
			rows.set(k, { ...row });
		}
	}

	summary(userId: string, nowMs: number) {
		const rows = this.byUser.get(userId) ?? new Map<string, Row>();
		const today = dayKey(nowMs);
		const oldest = dayKey(nowMs - 29 * DAY_MS);
		let total = 0;
		let todayCount = 0;
		const breakdown: Array<{
			date: string;
			endpoint: string;
			total_requests: number;
			avg_response_time_ms: number;
			error_count: number;
		}> = [];
		for (const [k, r] of rows) {
			const [date, endpoint] = k.split('|');
			total += r.requests;
			if (date === today) todayCount += r.requests;
			if (date >= oldest && date <= today) {
				breakdown.push({
					date,
					endpoint,
					total_requests: r.requests,
					avg_response_time_ms: Math.round((r.totalMs / r.requests) * 100) / 100,
					error_count: r.errors,
				});
			}
		}
		breakdown.sort((a, b) =>
			a.date === b.date ? (a.endpoint < b.endpoint ? -1 : 1) : a.date < b.date ? 1 : -1,
		);
		return { total, today: todayCount, breakdown };
	}
}

/** '/api/v1/articles/<uuid>/status' -> '/api/v1/articles/:id/status' */
export function endpointOf(path: string): string {
	return path
		.split('/')
		.map((seg) => (UUID_RE.test(seg) ? ':id' : seg))
		.join('/');
}
