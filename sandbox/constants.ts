import type { Plan } from './types';

// The spec's values, written out here rather than imported from the nodes: the sandbox is an
// independent reading of the spec, so a mistake in the nodes' lists cannot hide from the tests.

export const API_PREFIX = '/api/v1';

export const ARTICLE_STATUSES = [
	'draft',
	'queued',
	'cms',
	'needs_editing',
	'failed',
	'archived',
] as const;

export const SOCIAL_STATUSES = [
	'draft',
	'queued',
	'generating',
	'ready',
	'completed',
	'scheduled',
	'published',
	'failed',
] as const;

export const PLATFORMS = [
	'instagram',
	'facebook',
	'linkedin',
	'twitter',
	'threads',
	'tiktok',
	'youtube',
	'pinterest',
	'bluesky',
	'telegram',
	'google-business',
	'reddit',
	'snapchat',
] as const;

export const CAROUSEL_PLATFORMS = [
	'instagram',
	'linkedin',
	'tiktok',
	'facebook',
	'twitter',
	'threads',
	'bluesky',
	'telegram',
] as const;

/** Platforms whose finished records carry a video. */
export const VIDEO_PLATFORMS = ['instagram', 'tiktok', 'youtube', 'facebook', 'snapchat'];

/** Platforms whose finished records carry thread items. */
export const THREAD_PLATFORMS = ['twitter', 'threads', 'bluesky'];

export const TONES = ['professional', 'casual', 'academic', 'conversational'] as const;
export const SOURCE_TYPES = ['website', 'blog', 'youtube'] as const;
export const PERMISSIONS = ['read', 'write', 'delete'] as const;
export const SCOPES = ['articles', 'social', 'projects', 'user'] as const;

export const PLAN_LIMITS: Record<Plan, { perMinute: number; perDay: number }> = {
	Free: { perMinute: 100, perDay: 5000 },
	Lite: { perMinute: 1000, perDay: 50000 },
	Professional: { perMinute: 1000, perDay: 50000 },
	Business: { perMinute: 1000, perDay: 50000 },
	Enterprise: { perMinute: 10000, perDay: -1 },
	'Enterprise Custom': { perMinute: 10000, perDay: -1 },
};

export const PLANS = Object.keys(PLAN_LIMITS) as Plan[];

/** Cost in hundredths of a credit. */
export const ARTICLE_COST = 150;
export const SOCIAL_COST_PER_PLATFORM = 60;

/** Realistic durations at speed 1, in ms. */
export const ARTICLE_DURATION = { min: 60_000, max: 120_000 };
export const SOCIAL_DURATION = { min: 20_000, max: 40_000 };
export const PUBLISH_DURATION = 5_000;

export const MAX_ACTIVE_KEYS = 10;

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const DAY_MS = 86_400_000;
