/** The records the sandbox keeps per account: users, keys, projects, articles, social content. */
import type { ArticleOutcome, Plan, SocialOutcome } from './types';

export interface User {
	id: string;
	email: string;
	plan: Plan;
	/** balances in hundredths of a credit: integer arithmetic only */
	subscriptionH: number;
	purchasedH: number;
	usedThisMonthH: number;
	periodEnd: number;
	socialProfiles: number;
	rateLimit?: { perMinute: number; perDay: number };
	sessionToken: string;
}

export interface ApiKeyRec {
	id: string;
	userId: string;
	name: string;
	hash: string;
	prefix: string;
	permissions: string[];
	scopes: string[];
	createdAt: number;
	lastUsedAt: number | null;
	expiresAt: number | null;
	revokedAt: number | null;
	minute: { start: number; count: number };
	day: { start: number; count: number };
}

export interface ProjectRec {
	id: string;
	userId: string;
	business_name: string;
	business_website: string;
	business_language: string;
	location: string;
	expert_in: string;
	status: string;
	language_code: string;
	avatar_icp: string;
	avatar_niche: string;
	tone_voice: string;
	tone_style: string;
	structure_usp: string;
	structure_main_offer: string;
	structure_key_products: string;
	project_status: string;
	createdAt: number;
	updatedAt: number;
}

export interface ArticleRec {
	id: string;
	userId: string;
	projectId: string;
	topic: string;
	title: string;
	titleLower: string;
	slug: string;
	keywords: string[];
	tone: string;
	wordCount: number;
	language: string;
	status: string;
	/** progress shown for non-queued states (failed keeps where it stopped) */
	progress: number;
	createdAt: number;
	updatedAt: number;
	jobId: string;
	gen?: { startedAt: number; durationMs: number; endsAt: number; outcome: ArticleOutcome };
}

export interface SocialRec {
	id: string;
	userId: string;
	projectId: string;
	articleId: string;
	title: string;
	sourceUrl: string;
	sourceType: string;
	sourceAuthor: string;
	language: string;
	angle: string;
	platforms: string[];
	status: string;
	/** captions and media exist (platforms renders as an object) */
	finished: boolean;
	stoppedProgress: number;
	errorMessage: string | null;
	isPublished: boolean;
	schedulerPostId: string | null;
	scheduledPublishAt: number | null;
	createdAt: number;
	updatedAt: number;
	gen?: { startedAt: number; endsAt: number; outcome: SocialOutcome };
	publish?: { at: number; kind: 'now' | 'scheduled' };
}
