export const CREDENTIAL_TYPE = 'contentGenApi';
export const API_PREFIX = '/api/v1';

export const UUID_SOURCE =
	'[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`);
/** The same, for n8n's parameter validation (a pattern string; surrounding spaces allowed). */
export const UUID_PARAMETER_REGEX = `^\\s*${UUID_SOURCE}\\s*$`;
export const UUID_EXAMPLE = '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';

/** The largest page the list routes serve (spec §8.1). */
export const PAGE_SIZE_MAX = 100;

/** Waiting out 429 answers, in seconds: the "Max Rate-Limit Wait" option. */
export const RATE_LIMIT_WAIT = { default: 60, min: 0, max: 3600 } as const;
/** The deadline of one request, connection to last byte, in seconds: the "Request Timeout" option. */
export const REQUEST_TIMEOUT = { default: 30, min: 1, max: 600 } as const;
/** Requests of one execution in flight at once: the "Parallel Requests" option. */
export const PARALLEL_REQUESTS = { default: 1000, min: 1, max: 1000 } as const;

/** The 13 accepted platform values (spec §2.4); labels and options are in domain/platforms. */
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

/** The statuses of the spec (§3); what each means to a wait or the trigger is in domain/statuses. */
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
	/** Seconds from submitting to the first look: a quick generation shows without a full interval. */
	firstLook: 5,
	pollInterval: { min: 1, max: 600 },
	timeout: { min: 1, max: 7200 },
} as const;

export const ON_TIMEOUT = ['returnLast', 'fail'] as const;
export type OnTimeout = (typeof ON_TIMEOUT)[number];
