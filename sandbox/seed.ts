import { dayKey } from './clock';
import { ARTICLE_STATUSES, DAY_MS, SOCIAL_STATUSES } from './constants';
import type { ArticleRec, ProjectRec, SocialRec, Store, User } from './store';
import { slugify } from './store';
import type { UsageBook } from './usage';
import type { Plan } from './types';
import { DEFAULT_PROJECTS, OTHER_PROJECTS, type ProjectSeed, TOPICS } from './seed-data';

export function newUser(
	store: Store,
	o: {
		plan: Plan;
		credits: { subscription: number; purchased: number };
		socialProfiles: number;
		email: string;
		now: number;
	},
): User {
	const d = new Date(o.now);
	const periodEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
	const u: User = {
		id: store.rng.uuid(),
		email: o.email,
		plan: o.plan,
		subscriptionH: Math.round(o.credits.subscription * 100),
		purchasedH: Math.round(o.credits.purchased * 100),
		usedThisMonthH: 0,
		periodEnd,
		socialProfiles: o.socialProfiles,
		sessionToken: store.rng.hex(48),
	};
	store.addUser(u);
	return u;
}

export function newProject(
	store: Store,
	userId: string,
	s: ProjectSeed,
	createdAt: number,
	id: string = store.rng.uuid(),
): ProjectRec {
	const p: ProjectRec = {
		id,
		userId,
		business_name: s.name,
		business_website: s.website,
		business_language: s.language,
		location: s.location,
		expert_in: s.expert,
		status: s.status,
		language_code: s.code,
		avatar_icp: `Owners and managers interested in ${s.expert.toLowerCase()}`,
		avatar_niche: s.expert,
		tone_voice: 'Friendly and knowledgeable',
		tone_style: 'Clear, practical, no jargon',
		structure_usp: `${s.name}: local experts in ${s.expert.toLowerCase()}`,
		structure_main_offer: `${s.expert} consultations`,
		structure_key_products: `${s.expert} starter pack, premium service, workshops`,
		project_status: s.status,
		createdAt,
		updatedAt: createdAt + 3_600_000,
	};
	store.addProject(p);
	return p;
}

export function newArticle(
	store: Store,
	o: {
		userId: string;
		project: ProjectRec;
		topic: string;
		status: string;
		createdAt: number;
		updatedAt?: number;
		keywords?: string[];
		tone?: string;
		wordCount?: number;
		/** a fixed id (a loaded account's record) */
		id?: string;
	},
): ArticleRec {
	const title = o.topic.charAt(0).toUpperCase() + o.topic.slice(1);
	const id = o.id ?? store.newId('article');
	return {
		id,
		userId: o.userId,
		projectId: o.project.id,
		topic: o.topic,
		title,
		titleLower: title.toLowerCase(),
		slug: `${slugify(o.topic) || 'article'}-${id.slice(0, 6)}`,
		keywords: o.keywords ?? [],
		tone: o.tone ?? 'professional',
		wordCount: o.wordCount ?? 800,
		language: o.project.language_code,
		status: o.status,
		progress: ['cms', 'needs_editing', 'archived'].includes(o.status)
			? 100
			: o.status === 'failed'
				? 35
				: 0,
		createdAt: o.createdAt,
		updatedAt: o.updatedAt ?? o.createdAt,
		jobId: 'job_' + store.rng.hex(24),
	};
}

export function newSocial(
	store: Store,
	o: {
		userId: string;
		project: ProjectRec;
		articleId: string;
		title: string;
		sourceUrl: string;
		platforms: string[];
		status: string;
		createdAt: number;
		updatedAt?: number;
		angle?: string;
		/** a fixed id (a loaded account's record) */
		id?: string;
	},
): SocialRec {
	const finished = ['ready', 'completed', 'scheduled', 'published'].includes(o.status);
	let author = 'Editorial team';
	try {
		author = new URL(o.sourceUrl).hostname;
	} catch {
		// keep the default
	}
	return {
		id: o.id ?? store.newId('social'),
		userId: o.userId,
		projectId: o.project.id,
		articleId: o.articleId,
		title: o.title,
		sourceUrl: o.sourceUrl,
		// records report 'blog' whatever the input source type was
		sourceType: 'blog',
		sourceAuthor: author,
		language: o.project.language_code,
		angle: o.angle ?? '',
		platforms: [...o.platforms],
		status: o.status,
		finished,
		stoppedProgress: finished ? 100 : o.status === 'failed' ? 40 : 0,
		errorMessage:
			o.status === 'failed' ? 'Generation failed: the source could not be processed.' : null,
		isPublished: o.status === 'published',
		schedulerPostId:
			o.status === 'published' || o.status === 'scheduled' ? 'post_' + store.rng.hex(16) : null,
		scheduledPublishAt: null,
		createdAt: o.createdAt,
		updatedAt: o.updatedAt ?? o.createdAt,
	};
}

export interface SeededWorld {
	defaultUser: User;
	otherUser: User;
	noProjectUser: User;
}

export function seedWorld(
	store: Store,
	usage: UsageBook,
	o: {
		plan: Plan;
		credits: { subscription: number; purchased: number };
		socialProfiles: number;
		now: number;
		/** the demo account's records; without them the users have none (an account is loaded) */
		demo: boolean;
	},
): SeededWorld {
	const now = o.now;
	const defaultUser = newUser(store, {
		plan: o.plan,
		credits: o.credits,
		socialProfiles: o.socialProfiles,
		email: 'owner@northwind-coffee.example',
		now,
	});
	// some spending already happened this billing period
	defaultUser.usedThisMonthH = 4230;
	const otherUser = newUser(store, {
		plan: 'Professional',
		credits: { subscription: 50, purchased: 0 },
		socialProfiles: 2,
		email: 'team@harbordental.example',
		now,
	});

	const noProjectUser = newUser(store, {
		plan: 'Free',
		credits: { subscription: 10, purchased: 0 },
		socialProfiles: 0,
		email: 'newcomer@example.com',
		now,
	});

	if (!o.demo) return { defaultUser, otherUser, noProjectUser };

	const mine = DEFAULT_PROJECTS.map((s, i) =>
		newProject(store, defaultUser.id, s, now - (90 - i * 10) * DAY_MS),
	);
	const theirs = OTHER_PROJECTS.map((s, i) =>
		newProject(store, otherUser.id, s, now - (60 - i * 5) * DAY_MS),
	);

	// articles of the default user, one per status (plus a few extra finished ones)
	const statuses = ['cms', 'cms', 'needs_editing', 'draft', 'failed', 'archived', 'cms'];
	const myArticles: ArticleRec[] = statuses.map((status, i) => {
		const created = now - (20 - i * 2) * DAY_MS;
		const a = newArticle(store, {
			userId: defaultUser.id,
			project: mine[i % mine.length],
			topic: TOPICS[i],
			status,
			createdAt: created,
			updatedAt: created + 2 * 60_000,
			keywords: ['guide', TOPICS[i].split(' ')[2] ?? 'tips'],
		});
		store.addArticle(a);
		return a;
	});
	// one generation in flight
	const inFlight = newArticle(store, {
		userId: defaultUser.id,
		project: mine[0],
		topic: TOPICS[7],
		status: 'queued',
		createdAt: now,
	});
	store.startArticle(inFlight, now);

	for (let i = 0; i < 2; i++) {
		store.addArticle(
			newArticle(store, {
				userId: otherUser.id,
				project: theirs[i],
				topic: TOPICS[8 + i],
				status: 'cms',
				createdAt: now - (10 + i) * DAY_MS,
			}),
		);
	}

	// social records of the default user in every settled status
	const socialSeeds: Array<{ status: string; platforms: string[] }> = [
		{ status: 'completed', platforms: ['instagram', 'linkedin', 'twitter'] },
		{ status: 'ready', platforms: ['facebook', 'threads'] },
		{ status: 'published', platforms: ['linkedin'] },
		{ status: 'failed', platforms: ['tiktok', 'youtube'] },
		{ status: 'draft', platforms: ['pinterest'] },
		{ status: 'completed', platforms: ['bluesky', 'telegram', 'reddit'] },
	];
	socialSeeds.forEach((seed, i) => {
		const a = myArticles[i % myArticles.length];
		const created = now - (15 - i * 2) * DAY_MS;
		store.addSocial(
			newSocial(store, {
				userId: defaultUser.id,
				project: mine[i % mine.length],
				articleId: a.id,
				title: a.title,
				sourceUrl: `https://northwind-coffee.example/blog/${a.slug}`,
				platforms: seed.platforms,
				status: seed.status,
				createdAt: created,
				updatedAt: created + 60_000,
			}),
		);
	});
	// one scheduled for later
	const scheduled = newSocial(store, {
		userId: defaultUser.id,
		project: mine[0],
		articleId: myArticles[0].id,
		title: myArticles[0].title,
		sourceUrl: `https://northwind-coffee.example/blog/${myArticles[0].slug}`,
		platforms: ['instagram', 'facebook'],
		status: 'completed',
		createdAt: now - 3 * DAY_MS,
	});
	store.addSocial(scheduled);
	store.startPublish(scheduled, now + 2 * DAY_MS, now - DAY_MS);
	// one generating
	const generating = newSocial(store, {
		userId: defaultUser.id,
		project: mine[1],
		articleId: myArticles[1].id,
		title: myArticles[1].title,
		sourceUrl: `https://alpenblick.example/blog/${myArticles[1].slug}`,
		platforms: ['instagram', 'twitter'],
		status: 'generating',
		createdAt: now,
	});
	store.startSocial(generating, now);

	store.addSocial(
		newSocial(store, {
			userId: otherUser.id,
			project: theirs[0],
			articleId: store.articlesOf(otherUser.id)[0].id,
			title: 'Five habits for healthier teeth',
			sourceUrl: 'https://harbordental.example/blog/habits',
			platforms: ['facebook', 'instagram'],
			status: 'completed',
			createdAt: now - 5 * DAY_MS,
		}),
	);
	store.addSocial(
		newSocial(store, {
			userId: otherUser.id,
			project: theirs[1],
			articleId: store.articlesOf(otherUser.id)[1].id,
			title: 'The tea ceremony explained',
			sourceUrl: 'https://kyoto-tea.example/blog/ceremony',
			platforms: ['instagram'],
			status: 'generating',
			createdAt: now - 4 * DAY_MS,
		}),
	);

	// 29 days of request history for the default user
	const endpoints = [
		'/api/v1/articles',
		'/api/v1/articles/:id/status',
		'/api/v1/articles/generate',
		'/api/v1/social/content',
		'/api/v1/social/generate',
		'/api/v1/user/credits',
	];
	for (let d = 1; d <= 29; d++) {
		const day = dayKey(now - d * DAY_MS);
		for (const ep of endpoints) {
			if (store.rng.next() < 0.4) continue;
			const requests = store.rng.int(1, 60);
			usage.add(defaultUser.id, day, ep, {
				requests,
				totalMs: requests * store.rng.int(40, 400),
				errors:
					store.rng.next() < 0.3 ? store.rng.int(1, Math.max(1, Math.floor(requests / 10))) : 0,
			});
		}
	}

	return { defaultUser, otherUser, noProjectUser };
}

export function assertArticleStatus(status: string): void {
	if (!(ARTICLE_STATUSES as readonly string[]).includes(status)) {
		throw new Error(`unknown article status '${status}' (one of ${ARTICLE_STATUSES.join(', ')})`);
	}
}

export function assertSocialStatus(status: string): void {
	if (!(SOCIAL_STATUSES as readonly string[]).includes(status)) {
		throw new Error(`unknown social status '${status}' (one of ${SOCIAL_STATUSES.join(', ')})`);
	}
}

export { TOPICS };
