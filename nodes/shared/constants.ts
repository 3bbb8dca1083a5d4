export const CREDENTIAL_TYPE = 'contentGenApi';
export const API_PREFIX = '/api/v1';

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
export type Platform = (typeof PLATFORMS)[number];

export const ARTICLE_STATUSES = [
	'draft',
	'queued',
	'cms',
	'needs_editing',
	'failed',
	'archived',
] as const;
export const ARTICLE_COMPLETE_STATUSES: readonly string[] = ['cms', 'needs_editing'];

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

export const ARTICLE_TONES = ['professional', 'casual', 'academic', 'conversational'] as const;
export const SOURCE_TYPES = ['website', 'blog', 'youtube'] as const;
export const ARTICLE_SORT_FIELDS = ['created_at', 'updated_at', 'title'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;

/** Spec §8.1 bounds, in one place. */
export const BOUNDS = {
	topic: { min: 3, max: 500 },
	keywords: { max: 20 },
	wordCount: { min: 300, max: 5000, default: 800 },
	platforms: { min: 1, max: 10 },
	angle: { max: 500 },
	title: { max: 200 },
	pageSize: { min: 1, max: 100, default: 20 },
} as const;

/** Prices in hundredths of a credit, so sums stay exact. */
export const COST_HUNDREDTHS = {
	article: 150,
	socialPerPlatform: 60,
} as const;

export const API_KEY_PATTERN = /^svc_[0-9a-f]{64}$/i;

/** Waiting for a generation: spec §8.4 cadence as defaults, bounded so a run cannot hang for days. */
export const WAIT = {
	article: { pollInterval: 15, timeout: 1200 },
	social: { pollInterval: 5, timeout: 300 },
	pollInterval: { min: 1, max: 600 },
	timeout: { min: 1, max: 7200 },
} as const;

export const ON_TIMEOUT = ['returnLast', 'fail'] as const;
export type OnTimeout = (typeof ON_TIMEOUT)[number];
