// Public types of the sandbox (dev tooling only, never published).

export type Plan =
	| 'Free'
	| 'Lite'
	| 'Professional'
	| 'Business'
	| 'Enterprise'
	| 'Enterprise Custom';

/**
 * How the social list is ordered: reshuffled on every request, newest first, or by id (stable
 * between requests but unrelated to dates, as a table read without ORDER BY tends to be).
 */
export type SocialListOrder = 'shuffled' | 'created_desc' | 'id';

export interface SandboxOptions {
	/** 0 = free port (tests); default 0 */
	port?: number;
	/** default '127.0.0.1' */
	host?: string;
	/** generation speed factor: durations are divided by it; 1 = realistic; Infinity: done by the next request */
	speed?: number;
	/** deterministic PRNG for everything random; with it the default key is derived from it too */
	seed?: number;
	/** the default user's API key (svc_ + 64 hex), kept across starts; default: from the seed, or random */
	apiKey?: string;
	/** connected profiles of the default user (default 3; 0 allowed) */
	socialProfiles?: number;
	/** default user's plan, default 'Business' */
	plan?: Plan;
	/** default user's balance, default { subscription: 100, purchased: 25 } */
	credits?: { subscription: number; purchased: number };
	/** how a missing/invalid/expired/revoked key is answered; default 401 */
	authFailureStatus?: 401 | 403;
	/** the spec gives no order for the social list; default 'shuffled' (seeded, per request) */
	socialListOrder?: SocialListOrder;
	quiet?: boolean;
	/** milliseconds every answer is held back, as a network's round trip would (default 0) */
	latencyMs?: number;
	/** each answer's delay varies by up to this many ms either way around `latencyMs` (default 0) */
	jitterMs?: number;
	/**
	 * length of the per-minute rate-limit window in real milliseconds (default 60,000): a shorter
	 * window compresses a plan's minutes for benchmarks (the budget per window stays the plan's)
	 */
	rateWindowMs?: number;
	/**
	 * the default user's projects, articles and social content, instead of the demo account's
	 * (fixed ids and times, for a caller that must know every answer in advance)
	 */
	account?: AccountRecords;
	/** ids for the records the API creates (generate), instead of random ones */
	recordIds?: (kind: 'article' | 'social') => string;
	/**
	 * the UUID version of article and social ids (default 'v4', random): 'v7' starts with the
	 * millisecond of minting, so a batch (a seed, the demo account) shares its first 12 hex digits
	 */
	ids?: 'v4' | 'v7';
	/** where the media links of records point (a CDN's address); default `<Base URL>/files` */
	mediaUrl?: string;
	/** whether finished records have videos on the platforms that take one (default true) */
	videos?: boolean;
}

/** An account's records as the API shows them (the fields the sandbox cannot make up). */
export interface AccountRecords {
	projects: Array<{
		id: string;
		business_name: string;
		business_website: string;
		business_language: string;
		language_code?: string;
		location: string;
		expert_in: string;
		status: string;
		created_at: string;
		updated_at: string;
	}>;
	articles: Array<{
		id: string;
		title: string;
		status: string;
		project_id: string;
		created_at: string;
		updated_at: string;
	}>;
	social: Array<{
		id: string;
		article_id: string;
		project_id: string;
		title: string;
		status: string;
		platforms: string[];
		source_url?: string;
		scheduled_publish_at: string | null;
		created_at: string;
		updated_at: string;
	}>;
	/** request history: `daysAgo` days before the start, requests to an endpoint */
	usage?: Array<{
		daysAgo: number;
		endpoint: string;
		requests: number;
		totalMs: number;
		errors: number;
	}>;
}

export interface RequestLogEntry {
	method: string;
	path: string;
	query: Record<string, string>;
	/** 0 when the connection was dropped without a response */
	status: number;
	userId: string | null;
	at: string;
	body?: unknown;
	/** requests in progress at the sandbox when this one arrived, itself included */
	inFlight?: number;
}

export interface LedgerEntry {
	userId: string;
	kind: 'article' | 'social';
	recordId: string;
	credits: number;
	hundredths: number;
	at: string;
}

export interface FaultConfig {
	latencyMs?: number;
	serverErrorRate?: number;
	dropRate?: number;
	malformedJsonRate?: number;
	htmlErrorRate?: number;
	afterProcessing?: boolean;
	rateLimitStorm?: { requests: number; retryAfter: number };
	match?: { method?: string; pathPrefix?: string };
}

export type ArticleOutcome = 'cms' | 'needs_editing' | 'failed';
export type SocialOutcome = 'completed' | 'ready' | 'failed';

export interface SandboxControl {
	requests(): RequestLogEntry[];
	resetRequests(): void;
	ledger(): LedgerEntry[];
	setFaults(f: FaultConfig): void;
	clearFaults(): void;
	advance(ms: number): void;
	now(): Date;
	forceOutcome(
		kind: 'article' | 'social',
		outcome: 'cms' | 'needs_editing' | 'failed' | 'completed' | 'ready',
		count?: number,
	): void;
	setSocialProfiles(n: number, userId?: string): void;
	setCredits(c: { subscription: number; purchased: number }, userId?: string): void;
	credits(userId?: string): {
		available: number;
		subscription: number;
		purchased: number;
		usedThisMonth: number;
	};
	setRateLimit(l: { perMinute: number; perDay: number }, userId?: string): void;
	/** every later answer waits `latencyMs`, give or take `jitterMs` (0 turns it off) */
	setLatency(latencyMs: number, jitterMs?: number): void;
	createKey(o: {
		permissions?: string[];
		scopes?: string[];
		expiresInDays?: number;
		userId?: string;
		name?: string;
	}): string;
	/** `spacingMs` (default 1000): time between two seeded records, the newest just now. */
	seedArticles(
		n: number,
		o?: { projectId?: string; status?: string; userId?: string; spacingMs?: number },
	): string[];
	seedSocial(
		n: number,
		o?: {
			status?: string;
			platforms?: string[];
			projectId?: string;
			userId?: string;
			spacingMs?: number;
			/** with status 'scheduled': when record i is scheduled (epoch ms); default a day from now */
			scheduledAt?: (i: number) => number;
		},
	): string[];
	setArticleStatus(id: string, status: string): void;
	/** `scheduledAt` (epoch ms): the publish time a `scheduled` record shows */
	setSocialStatus(id: string, status: string, scheduledAt?: number): void;
	defaultUserId: string;
	otherUserId: string;
	/** a third seeded user with no project at all (for NO_PROJECT) */
	noProjectUserId: string;
	projects(userId?: string): Array<{ id: string; business_name: string }>;
}

export interface Sandbox {
	/** base URL, e.g. http://127.0.0.1:40123 (routes are under /api/v1) */
	url: string;
	/** ready key of the default user with every permission and scope */
	apiKey: string;
	/** 'Cookie' header value for the session-only /api/v1/api-keys routes */
	sessionCookie: string;
	control: SandboxControl;
	close(): Promise<void>;
}
