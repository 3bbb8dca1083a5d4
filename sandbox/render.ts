import { iso } from './clock';
import { CAROUSEL_PLATFORMS, THREAD_PLATFORMS, VIDEO_PLATFORMS } from './constants';
import type { Media } from './http';
import { hashString } from './prng';
import type { ApiKeyRec, ArticleRec, ProjectRec, SocialRec, Store, User } from './store';
import { formatCredits } from './store';

// ---- articles ----

export function articleListItem(a: ArticleRec): Record<string, unknown> {
	return {
		id: a.id,
		title: a.title,
		slug: a.slug,
		status: a.status,
		meta_description: metaDescription(a),
		created_at: iso(a.createdAt),
		updated_at: iso(a.updatedAt),
		project_id: a.projectId,
	};
}

export function articleFull(a: ArticleRec): Record<string, unknown> {
	return { ...articleListItem(a), content: articleContent(a) };
}

export function articleStatus(store: Store, a: ArticleRec, now: number): Record<string, unknown> {
	return {
		article_id: a.id,
		status: a.status,
		title: a.title,
		slug: a.slug,
		progress: store.articleProgress(a, now),
		is_complete: a.status === 'cms' || a.status === 'needs_editing',
		created_at: iso(a.createdAt),
		updated_at: iso(a.updatedAt),
	};
}

function hasBody(a: ArticleRec): boolean {
	return ['cms', 'needs_editing', 'draft', 'archived'].includes(a.status);
}

function metaDescription(a: ArticleRec): string {
	if (!hasBody(a)) return '';
	const text = `A ${a.tone} guide to ${a.topic.toLowerCase()}: what matters, what to avoid and where to start.`;
	return text.length > 160 ? text.slice(0, 157) + '...' : text;
}

function escapeHtml(s: string): string {
	return s
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

function articleContent(a: ArticleRec): string {
	if (!hasBody(a)) return '';
	const t = escapeHtml(a.title);
	const kw = a.keywords.length
		? `<p>Key terms: ${a.keywords.map((k) => `<strong>${escapeHtml(k)}</strong>`).join(', ')}.</p>`
		: '';
	const review =
		a.status === 'needs_editing'
			? '<p><em>Editor note: some claims in this draft need a source before it goes live.</em></p>'
			: '';
	return (
		`<h1>${t}</h1>${review}<p>${escapeHtml(a.topic)} is easier to get right with a plan. ` +
		`This article (about ${a.wordCount} words) walks through it step by step.</p>` +
		`<h2>Why it matters</h2><p>Readers searching for ${escapeHtml(a.topic.toLowerCase())} want clear answers.</p>` +
		`${kw}<h2>Next steps</h2><ul><li>Start small</li><li>Measure</li><li>Iterate</li></ul>`
	);
}

// ---- social ----

function captionFor(s: SocialRec, platform: string): string {
	const tags = platform === 'linkedin' ? '' : ' #marketing #content';
	return `${s.title} (${platform}): the three points worth knowing, in short.${tags}`;
}

function fileUrl(media: Media, s: SocialRec, name: string): string {
	return `${media.url}/${s.id}/${name}`;
}

function mediaMaps(s: SocialRec, media: Media) {
	const image: Record<string, string> = {};
	const overlay: Record<string, string> = {};
	const video: Record<string, string> = {};
	if (s.finished) {
		for (const p of s.platforms) {
			image[p] = fileUrl(media, s, `${p}.png`);
			overlay[p] = fileUrl(media, s, `${p}-overlay.png`);
			if (media.videos && VIDEO_PLATFORMS.includes(p)) video[p] = fileUrl(media, s, `${p}.mp4`);
		}
	}
	return { image, overlay, video };
}

function platformsField(s: SocialRec): string[] | Record<string, string> {
	if (!s.finished) return [...s.platforms];
	const out: Record<string, string> = {};
	for (const p of s.platforms) out[p] = captionFor(s, p);
	return out;
}

export function socialListItem(s: SocialRec, at: Media): Record<string, unknown> {
	const media = mediaMaps(s, at);
	return {
		id: s.id,
		article_id: s.articleId,
		project_id: s.projectId,
		title: s.title,
		status: s.status,
		source_url: s.sourceUrl,
		source_type: s.sourceType,
		language: s.language,
		platforms: platformsField(s),
		image_urls: media.image,
		video_urls: media.video,
		scheduled_publish_at: s.scheduledPublishAt === null ? null : iso(s.scheduledPublishAt),
		error_message: s.errorMessage,
		created_at: iso(s.createdAt),
		updated_at: iso(s.updatedAt),
	};
}

const STAGES = [
	'queued',
	'analyzing_source',
	'writing_captions',
	'generating_images',
	'rendering_media',
	'finalizing',
];

function processingStage(store: Store, s: SocialRec, now: number): string {
	if (s.gen) {
		const p = store.socialProgress(s, now);
		return STAGES[Math.min(STAGES.length - 1, Math.floor((p / 100) * STAGES.length))];
	}
	if (s.publish && s.publish.kind === 'now') return 'publishing';
	if (s.status === 'failed') return 'failed';
	if (s.status === 'draft' || s.status === 'queued') return 'pending';
	return s.status === 'published' ? 'published' : 'completed';
}

export function socialFull(
	store: Store,
	s: SocialRec,
	at: Media,
	now: number,
): Record<string, unknown> {
	const media = mediaMaps(s, at);
	const h = hashString(s.id);
	const firstComments: Record<string, string> = {};
	const threadItems: Array<Record<string, unknown>> = [];
	const record: Record<string, unknown> = {
		...socialListItem(s, at),
		source_author: s.sourceAuthor,
		overlay_urls: media.overlay,
	};
	for (const c of CAROUSEL_PLATFORMS) {
		const slides: Array<{ slide: number; headline: string; body: string }> = [];
		if (s.finished && s.platforms.includes(c)) {
			const n = 3 + ((h >>> c.length) % 3);
			for (let i = 1; i <= n; i++) {
				slides.push({
					slide: i,
					headline: i === 1 ? s.title : `Point ${i - 1} about ${s.title.toLowerCase()}`,
					body: `Slide ${i} of ${n} for ${c}.`,
				});
			}
		}
		record[`${c}_carousel_plan`] = slides;
	}
	if (s.finished) {
		for (const p of s.platforms) {
			firstComments[p] = `Read the full piece: ${s.sourceUrl}`;
			if (THREAD_PLATFORMS.includes(p)) {
				for (let i = 1; i <= 3; i++) {
					threadItems.push({ platform: p, position: i, text: `${i}/3 ${s.title}: part ${i}.` });
				}
			}
		}
	}
	record.first_comments = firstComments;
	record.thread_items = threadItems;
	record.processing_stage = processingStage(store, s, now);
	record.processing_progress = store.socialProgress(s, now);
	record.is_published = s.isPublished;
	record.scheduler_post_id = s.schedulerPostId;
	return record;
}

// ---- projects ----

export function projectListItem(p: ProjectRec): Record<string, unknown> {
	return {
		id: p.id,
		business_name: p.business_name,
		business_website: p.business_website,
		business_language: p.business_language,
		location: p.location,
		expert_in: p.expert_in,
		status: p.status,
		created_at: iso(p.createdAt),
		updated_at: iso(p.updatedAt),
	};
}

export function projectFull(p: ProjectRec): Record<string, unknown> {
	return {
		...projectListItem(p),
		language_code: p.language_code,
		avatar_icp: p.avatar_icp,
		avatar_niche: p.avatar_niche,
		tone_voice: p.tone_voice,
		tone_style: p.tone_style,
		structure_usp: p.structure_usp,
		structure_main_offer: p.structure_main_offer,
		structure_key_products: p.structure_key_products,
		project_status: p.project_status,
	};
}

// ---- user ----

export function creditsObject(u: User): Record<string, unknown> {
	return {
		available_credits: formatCredits(u.subscriptionH + u.purchasedH),
		subscription_credits: formatCredits(u.subscriptionH),
		purchased_credits: formatCredits(u.purchasedH),
		credits_used_this_month: formatCredits(u.usedThisMonthH),
		plan: u.plan,
		current_period_end: iso(u.periodEnd),
	};
}

// ---- keys ----

export function keyListItem(k: ApiKeyRec, active: boolean): Record<string, unknown> {
	return {
		id: k.id,
		name: k.name,
		key_prefix: k.prefix,
		permissions: [...k.permissions],
		scopes: [...k.scopes],
		created_at: iso(k.createdAt),
		last_used_at: k.lastUsedAt === null ? null : iso(k.lastUsedAt),
		expires_at: k.expiresAt === null ? null : iso(k.expiresAt),
		is_active: active,
	};
}
