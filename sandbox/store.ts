import { createHash, randomBytes } from 'crypto';

import { Clock, iso } from './clock';
import {
	ARTICLE_DURATION,
	ARTICLE_STATUSES,
	PLAN_LIMITS,
	PUBLISH_DURATION,
	SOCIAL_DURATION,
	SOCIAL_STATUSES,
} from './constants';
import { Rng } from './prng';
import type { RateLimits } from './ratelimit';
import type { ApiKeyRec, ArticleRec, ProjectRec, SocialRec, User } from './records';
import type { ArticleOutcome, LedgerEntry, SocialOutcome } from './types';

export type { ApiKeyRec, ArticleRec, ProjectRec, SocialRec, User } from './records';

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
	) {
		super(message);
	}
}

export function formatCredits(hundredths: number): number {
	// integer / 100 gives the double nearest the decimal, which prints as that decimal
	return hundredths / 100;
}

export function toHundredths(credits: number): number {
	if (!Number.isFinite(credits) || credits < 0) throw new Error(`invalid credit amount ${credits}`);
	return Math.round(credits * 100);
}

export function hashKey(key: string): string {
	return createHash('sha256').update(key).digest('hex');
}

export function slugify(s: string): string {
	return s
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60)
		.replace(/-+$/, '');
}

export class Store {
	readonly users = new Map<string, User>();
	readonly keys = new Map<string, ApiKeyRec>();
	readonly keysByHash = new Map<string, ApiKeyRec>();
	readonly projects = new Map<string, ProjectRec>();
	readonly articles = new Map<string, ArticleRec>();
	readonly social = new Map<string, SocialRec>();
	private readonly projectsByUser = new Map<string, ProjectRec[]>();
	private readonly articlesByUser = new Map<string, ArticleRec[]>();
	private readonly socialByUser = new Map<string, SocialRec[]>();
	private readonly pendingArticles = new Set<ArticleRec>();
	private readonly pendingSocial = new Set<SocialRec>();
	readonly ledgerEntries: LedgerEntry[] = [];
	readonly forced: { article: ArticleOutcome[]; social: SocialOutcome[] } = {
		article: [],
		social: [],
	};

	constructor(
		readonly clock: Clock,
		readonly rng: Rng,
		readonly speed: number,
		/** ids of the records the API creates, when a caller needs them known in advance */
		private readonly recordIds?: (kind: 'article' | 'social') => string,
	) {}

	/** The id of a new article or social record. */
	newId(kind: 'article' | 'social'): string {
		return this.recordIds ? this.recordIds(kind) : this.rng.uuid();
	}

	// ---- users, credits, limits ----

	addUser(u: User): void {
		this.users.set(u.id, u);
		this.projectsByUser.set(u.id, []);
		this.articlesByUser.set(u.id, []);
		this.socialByUser.set(u.id, []);
	}

	user(id: string): User {
		const u = this.users.get(id);
		if (!u) throw new Error(`unknown user ${id}`);
		return u;
	}

	/** Length of the rate limiter's "minute" in real milliseconds (shorter only to compress time). */
	rateWindowMs = 60_000;

	limits(u: User): Required<RateLimits> {
		return { ...(u.rateLimit ?? PLAN_LIMITS[u.plan]), windowMs: this.rateWindowMs };
	}

	availableH(u: User): number {
		return u.subscriptionH + u.purchasedH;
	}

	/** Charges exactly once or throws 402; plan credits are spent before purchased ones. */
	charge(
		u: User,
		kind: 'article' | 'social',
		recordId: string,
		hundredths: number,
		now: number,
	): void {
		const available = this.availableH(u);
		if (hundredths > available) {
			throw new ApiError(
				402,
				'INSUFFICIENT_CREDITS',
				`Insufficient credits: this request needs ${formatCredits(hundredths)} credits, ` +
					`${formatCredits(available)} available.`,
			);
		}
		const fromSubscription = Math.min(u.subscriptionH, hundredths);
		u.subscriptionH -= fromSubscription;
		u.purchasedH -= hundredths - fromSubscription;
		u.usedThisMonthH += hundredths;
		this.ledgerEntries.push({
			userId: u.id,
			kind,
			recordId,
			credits: formatCredits(hundredths),
			hundredths,
			at: iso(now),
		});
	}

	// ---- API keys ----

	createKey(
		userId: string,
		o: {
			name: string;
			permissions: string[];
			scopes: string[];
			expiresInDays?: number;
			/** the key itself, when it must survive a restart (seeded or kept in a file) */
			key?: string;
		},
		now: number,
	): { rec: ApiKeyRec; key: string } {
		const key = o.key ?? 'svc_' + randomBytes(32).toString('hex');
		const rec: ApiKeyRec = {
			id: this.rng.uuid(),
			userId,
			name: o.name,
			hash: hashKey(key),
			prefix: key.slice(0, 12) + '...',
			permissions: [...o.permissions],
			scopes: [...o.scopes],
			createdAt: now,
			lastUsedAt: null,
			expiresAt: o.expiresInDays === undefined ? null : now + o.expiresInDays * 86_400_000,
			revokedAt: null,
			minute: { start: 0, count: 0 },
			day: { start: 0, count: 0 },
		};
		this.keys.set(rec.id, rec);
		this.keysByHash.set(rec.hash, rec);
		return { rec, key };
	}

	keyIsActive(k: ApiKeyRec, now: number): boolean {
		return k.revokedAt === null && (k.expiresAt === null || k.expiresAt > now);
	}

	keysOf(userId: string): ApiKeyRec[] {
		return [...this.keys.values()].filter((k) => k.userId === userId);
	}

	// ---- projects ----

	addProject(p: ProjectRec): void {
		this.projects.set(p.id, p);
		this.projectsByUser.get(p.userId)?.push(p);
	}

	projectsOf(userId: string): ProjectRec[] {
		return this.projectsByUser.get(userId) ?? [];
	}

	ownedProject(userId: string, id: string): ProjectRec | undefined {
		const p = this.projects.get(id.toLowerCase());
		return p && p.userId === userId ? p : undefined;
	}

	/** The project social generation falls back to: the first active one, else the first one. */
	activeProject(userId: string): ProjectRec | undefined {
		const list = this.projectsOf(userId);
		return list.find((p) => p.status === 'active') ?? list[0];
	}

	// ---- articles ----

	addArticle(a: ArticleRec): void {
		this.articles.set(a.id, a);
		this.articlesByUser.get(a.userId)?.push(a);
		if (a.gen) this.pendingArticles.add(a);
	}

	articlesOf(userId: string): ArticleRec[] {
		return this.articlesByUser.get(userId) ?? [];
	}

	ownedArticle(userId: string, id: string): ArticleRec | undefined {
		const a = this.articles.get(id.toLowerCase());
		return a && a.userId === userId ? a : undefined;
	}

	startArticle(a: ArticleRec, now: number): void {
		const outcome =
			this.forced.article.shift() ?? (this.rng.next() < 0.8 ? 'cms' : 'needs_editing');
		const durationMs = this.rng.int(ARTICLE_DURATION.min, ARTICLE_DURATION.max) / this.speed;
		// a failing job stops half way through
		const endsAt = now + (outcome === 'failed' ? durationMs / 2 : durationMs);
		a.gen = { startedAt: now, durationMs, endsAt, outcome };
		a.status = 'queued';
		a.progress = 0;
		this.addArticle(a);
	}

	articleProgress(a: ArticleRec, now: number): number {
		if (!a.gen) return a.progress;
		// at an infinite speed a job lasts no time: it is done by the next request
		if (!(a.gen.durationMs > 0)) return 99;
		const p = Math.floor(((now - a.gen.startedAt) / a.gen.durationMs) * 100);
		return Math.max(0, Math.min(99, p));
	}

	setArticleStatus(id: string, status: string, now: number): void {
		const a = this.articles.get(id.toLowerCase());
		if (!a) throw new Error(`unknown article ${id}`);
		if (!(ARTICLE_STATUSES as readonly string[]).includes(status)) {
			throw new Error(`unknown article status ${status}`);
		}
		this.settle(now);
		delete a.gen;
		this.pendingArticles.delete(a);
		a.status = status;
		a.progress = status === 'cms' || status === 'needs_editing' || status === 'archived' ? 100 : 0;
		a.updatedAt = now;
	}

	// ---- social ----

	addSocial(s: SocialRec): void {
		this.social.set(s.id, s);
		this.socialByUser.get(s.userId)?.push(s);
		if (s.gen || s.publish) this.pendingSocial.add(s);
	}

	socialOf(userId: string): SocialRec[] {
		return this.socialByUser.get(userId) ?? [];
	}

	ownedSocial(userId: string, id: string): SocialRec | undefined {
		const s = this.social.get(id.toLowerCase());
		return s && s.userId === userId ? s : undefined;
	}

	startSocial(s: SocialRec, now: number): void {
		const outcome = this.forced.social.shift() ?? 'completed';
		const durationMs = this.rng.int(SOCIAL_DURATION.min, SOCIAL_DURATION.max) / this.speed;
		s.gen = { startedAt: now, endsAt: now + durationMs, outcome };
		s.status = 'generating';
		this.addSocial(s);
	}

	socialProgress(s: SocialRec, now: number): number {
		if (!s.gen) return s.stoppedProgress;
		if (!(s.gen.endsAt > s.gen.startedAt)) return 99;
		const p = Math.floor(((now - s.gen.startedAt) / (s.gen.endsAt - s.gen.startedAt)) * 100);
		return Math.max(0, Math.min(99, p));
	}

	startPublish(s: SocialRec, scheduledAt: number | null, now: number): void {
		s.schedulerPostId = 'post_' + this.rng.hex(16);
		if (scheduledAt === null) {
			s.publish = { at: now + PUBLISH_DURATION / this.speed, kind: 'now' };
		} else {
			s.publish = { at: scheduledAt, kind: 'scheduled' };
			s.scheduledPublishAt = scheduledAt;
			s.status = 'scheduled';
			s.updatedAt = now;
		}
		this.pendingSocial.add(s);
	}

	/** `scheduledAt` (epoch ms): the publish time a `scheduled` record shows. */
	setSocialStatus(id: string, status: string, now: number, scheduledAt?: number): void {
		const s = this.social.get(id.toLowerCase());
		if (!s) throw new Error(`unknown social content ${id}`);
		if (!(SOCIAL_STATUSES as readonly string[]).includes(status)) {
			throw new Error(`unknown social status ${status}`);
		}
		this.settle(now);
		delete s.gen;
		delete s.publish;
		this.pendingSocial.delete(s);
		s.status = status;
		s.finished = ['ready', 'completed', 'scheduled', 'published'].includes(status);
		s.stoppedProgress = s.finished ? 100 : 0;
		s.isPublished = status === 'published';
		s.errorMessage =
			status === 'failed' ? 'Generation failed: the source could not be processed.' : null;
		if (scheduledAt !== undefined) s.scheduledPublishAt = scheduledAt;
		s.updatedAt = now;
	}

	// ---- lazy state ----

	/** Applies every transition whose time has come; `updated_at` is the transition's own time. */
	settle(now: number): void {
		for (const a of this.pendingArticles) {
			if (!a.gen || now < a.gen.endsAt) continue;
			a.status = a.gen.outcome;
			a.progress = a.gen.outcome === 'failed' ? 50 : 100;
			a.updatedAt = Math.round(a.gen.endsAt);
			delete a.gen;
			this.pendingArticles.delete(a);
		}
		for (const s of this.pendingSocial) {
			if (s.gen && now >= s.gen.endsAt) {
				const { outcome, endsAt } = s.gen;
				delete s.gen;
				s.status = outcome;
				s.finished = outcome !== 'failed';
				s.stoppedProgress = outcome === 'failed' ? 40 : 100;
				s.errorMessage =
					outcome === 'failed'
						? 'Generation failed: the source page could not be read (HTTP 403 from the source site).'
						: null;
				s.updatedAt = Math.round(endsAt);
			}
			if (!s.gen && s.publish && now >= s.publish.at) {
				s.status = 'published';
				s.isPublished = true;
				s.updatedAt = Math.round(s.publish.at);
				delete s.publish;
			}
			if (!s.gen && !s.publish) this.pendingSocial.delete(s);
		}
	}
}
