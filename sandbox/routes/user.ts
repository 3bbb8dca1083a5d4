import type { Ctx, Reply } from '../http';
import { ok } from '../http';
import { rateState } from '../ratelimit';
import { creditsObject } from '../render';

export function getCredits(ctx: Ctx): Reply {
	return ok(creditsObject(ctx.user));
}

export function getUsage(ctx: Ctx): Reply {
	const summary = ctx.usage.summary(ctx.user.id, ctx.now);
	const key = ctx.key;
	const limits = ctx.store.limits(ctx.user);
	const rl = key
		? rateState(key, limits, ctx.now)
		: {
				limitPerMinute: limits.perMinute,
				remainingPerMinute: limits.perMinute,
				limitPerDay: limits.perDay < 0 ? -1 : limits.perDay,
				remainingPerDay: limits.perDay < 0 ? -1 : limits.perDay,
				reset: (Math.floor(ctx.now / limits.windowMs) + 1) * (limits.windowMs / 1000),
			};
	return ok({
		total_requests: summary.total,
		today_requests: summary.today,
		rate_limit: {
			limit_per_minute: rl.limitPerMinute,
			remaining_per_minute: rl.remainingPerMinute,
			limit_per_day: rl.limitPerDay,
			remaining_per_day: rl.remainingPerDay,
			reset: rl.reset,
		},
		daily_breakdown: summary.breakdown,
	});
}
