/**
 * How long a poll may take. n8n 2.41 starts a poll trigger on cron expressions made from its
 * Poll Times (n8n-workflow's toCronExpression: a random second for the preset modes), whether or
 * not the previous poll has finished, and a poll still running when the next one starts has its
 * requests refused ("No bridge acquired for this context"). `getPollBudgetMs()` does not say when
 * the next poll comes: it is the poll's timeout, 300,000 ms by default and 36,000 ms under the
 * durable scheduler (min(N8N_SCHEDULER_POLL_TIMEOUT 45 s, lease 60 s) minus a 20 % margin). So the
 * time to the next poll is taken from the Poll Times: the shortest gap between two of their
 * firings (seconds and minutes only; the other fields can only make gaps longer).
 */

interface PollTime {
	mode?: string;
	value?: number;
	unit?: string;
	cronExpression?: string;
}

const HOUR = 3600;
/** When two schedules' relative timing is unknown (random seconds), the next poll may be 1 s away. */
const UNKNOWN_GAP = 1;
/** n8n's default Poll Times: every minute. */
const DEFAULT_GAP_MS = 60_000;

/** Values of one cron field (0-59); undefined when it is not a form we read. */
function field(spec: string): number[] | undefined {
	const out = new Set<number>();
	for (const part of spec.split(',')) {
		const match = /^(\*|\d+)(?:-(\d+))?(?:\/(\d+))?$/.exec(part.trim());
		if (!match) return undefined;
		const from = match[1] === '*' ? 0 : Number(match[1]);
		const to = match[2] !== undefined ? Number(match[2]) : match[1] === '*' || match[3] ? 59 : from;
		const step = match[3] !== undefined ? Number(match[3]) : 1;
		if (step < 1 || from > 59 || to > 59) return undefined;
		for (let v = from; v <= to; v += step) out.add(v);
	}
	return [...out];
}

/** Seconds of the hour at which a cron expression may fire. */
function cronSeconds(expression: string): number[] | undefined {
	const parts = expression.trim().split(/\s+/);
	if (parts.length !== 5 && parts.length !== 6) return undefined;
	const seconds = parts.length === 6 ? field(parts[0]) : [0];
	const minutes = field(parts[parts.length === 6 ? 1 : 0]);
	if (!seconds || !minutes) return undefined;
	return minutes.flatMap((m) => seconds.map((s) => m * 60 + s));
}

/** A preset's shortest gap (its second is random, so its timing against others is unknown). */
function presetGap(item: PollTime): number {
	if (item.mode === 'everyMinute') return 60;
	if (item.mode === 'everyX' && item.unit === 'minutes' && Number(item.value) >= 1) {
		const every = Math.floor(Number(item.value));
		const firings = Array.from({ length: Math.ceil(60 / every) }, (_, i) => i * every * 60);
		return shortestGap(firings);
	}
	return HOUR;
}

function shortestGap(seconds: number[]): number {
	const sorted = [...new Set(seconds)].sort((a, b) => a - b);
	if (sorted.length <= 1) return HOUR;
	let gap = sorted[0] + HOUR - sorted[sorted.length - 1];
	for (let i = 1; i < sorted.length; i++) gap = Math.min(gap, sorted[i] - sorted[i - 1]);
	return gap;
}

/** The shortest time between two polls, in ms (n8n's default Poll Times: every minute). */
export function shortestPollGapMs(pollTimes: unknown): number {
	const raw = (pollTimes as { item?: unknown } | undefined)?.item;
	const items = (
		Array.isArray(raw) && raw.length > 0 ? raw : [{ mode: 'everyMinute' }]
	) as PollTime[];
	const custom = items.filter((item) => item.mode === 'custom');
	const presets = items.filter((item) => item.mode !== 'custom');
	if (presets.length > 1 || (presets.length === 1 && custom.length > 0)) return UNKNOWN_GAP * 1000;
	if (presets.length === 1) return presetGap(presets[0]) * 1000;
	const firings: number[] = [];
	for (const item of custom) {
		const seconds = cronSeconds(String(item.cronExpression ?? ''));
		if (!seconds) return UNKNOWN_GAP * 1000;
		firings.push(...seconds);
	}
	return shortestGap(firings) * 1000;
}

export interface PollTiming {
	/** Waiting out a 429 past this would run into the next poll. */
	deadline: number;
	/** Optional work (searches) stops here, leaving time for what must be read. */
	softDeadline: number;
	/** A rate-limited poll ends quietly while the last complete one is younger than this. */
	quietForMs: number;
}

/** Polls skipped quietly in a row (at least five minutes) before a rate limit becomes an error. */
const QUIET_POLLS = 5;

export function pollTiming(
	started: number,
	gapMs: number,
	budgetMs: number | undefined,
): PollTiming {
	// A gap this short is the unknown timing of two schedules (or a cron not read here), not a poll
	// every second: the poll then gets what n8n's default Poll Times give it, not under a second.
	const gap = gapMs <= UNKNOWN_GAP * 1000 ? DEFAULT_GAP_MS : gapMs;
	const window = Math.min(gap, budgetMs ?? Infinity);
	const margin = Math.min(5_000, window / 4);
	return {
		deadline: started + window - margin,
		softDeadline: started + window / 2,
		quietForMs: Math.max(QUIET_POLLS * gapMs, 5 * 60_000),
	};
}

/** Firings a day of one cron expression: every hour it may fire in (other fields can only lower it). */
function cronPerDay(expression: string): number {
	const parts = expression.trim().split(/\s+/);
	const perHour = cronSeconds(expression)?.length ?? 3600;
	const hours = parts.length >= 5 ? field(parts[parts.length === 6 ? 2 : 1])?.length : undefined;
	return perHour * Math.min(24, hours ?? 24);
}

const PER_DAY: Record<string, number> = {
	everyMinute: 1440,
	everyHour: 24,
	everyDay: 1,
	everyWeek: 1 / 7,
	everyMonth: 1 / 28,
};

/** Polls a day of the Poll Times (n8n's default: every minute), at most. */
export function pollsPerDay(pollTimes: unknown): number {
	const raw = (pollTimes as { item?: unknown } | undefined)?.item;
	const items = (
		Array.isArray(raw) && raw.length > 0 ? raw : [{ mode: 'everyMinute' }]
	) as PollTime[];
	let total = 0;
	for (const item of items) {
		const every = Math.max(1, Math.floor(Number(item.value) || 1));
		if (item.mode === 'custom') total += cronPerDay(String(item.cronExpression ?? ''));
		else if (item.mode === 'everyX') total += (item.unit === 'hours' ? 24 : 1440) / every;
		else total += PER_DAY[String(item.mode)] ?? 1440;
	}
	return total;
}
