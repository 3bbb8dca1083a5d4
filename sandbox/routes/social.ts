import { PLATFORMS, SOCIAL_COST_PER_PLATFORM, SOCIAL_STATUSES, SOURCE_TYPES } from '../constants';
import type { Ctx, Reply } from '../http';
import {
	bodyObject,
	enumParam,
	isUuid,
	notFound,
	ok,
	optEnum,
	optString,
	pageParams,
	paged,
	platformList,
	uuidParam,
	validation,
} from '../http';
import { hashString } from '../prng';
import { socialFull, socialListItem } from '../render';
import { newSocial } from '../seed';
import type { SocialRec } from '../store';
import { ApiError, formatCredits } from '../store';

export function listSocial(ctx: Ctx): Reply {
	const { page, limit } = pageParams(ctx.query);
	const platform = enumParam(ctx.query, 'platform', PLATFORMS);
	const status = enumParam(ctx.query, 'status', SOCIAL_STATUSES);
	const articleId = uuidParam(ctx.query, 'article_id');
	const projectId = uuidParam(ctx.query, 'project_id');
	const items = ctx.store.socialOf(ctx.user.id).filter(
		(s) =>
			(platform === undefined || s.platforms.includes(platform)) &&
			(status === undefined ||
				s.status === status ||
				// a service that applies the filter loosely: the same stray records each time
				(ctx.looseStatusFilter && hashString(s.id) % 5 === 0)) &&
			(articleId === undefined || s.articleId === articleId) &&
			(projectId === undefined || s.projectId === projectId),
	);
	// the spec promises no order: by default every request sees a different one
	if (ctx.socialListOrder === 'shuffled') ctx.listRng.shuffle(items);
	else if (ctx.socialListOrder === 'id') items.sort((x, y) => (x.id < y.id ? -1 : 1));
	else items.sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1));
	return paged(items, page, limit, (s) => socialListItem(s, ctx.media));
}

function owned(ctx: Ctx, id: unknown): SocialRec {
	const s = isUuid(id) ? ctx.store.ownedSocial(ctx.user.id, id) : undefined;
	if (!s) throw notFound('Social content');
	return s;
}

export function getSocial(ctx: Ctx): Reply {
	return ok(socialFull(ctx.store, owned(ctx, ctx.params[0]), ctx.media, ctx.now));
}

function titleFromUrl(u: URL): string {
	const last = u.pathname.split('/').filter(Boolean).pop();
	if (!last) return `Highlights from ${u.hostname}`;
	const words = decodeURIComponent(last)
		.replace(/\.[a-z0-9]+$/i, '')
		.replace(/[-_]+/g, ' ')
		.trim();
	return words ? words.charAt(0).toUpperCase() + words.slice(1) : `Highlights from ${u.hostname}`;
}

export function generateSocial(ctx: Ctx): Reply {
	const b = bodyObject(ctx.body);
	const sourceUrl = b.source_url;
	if (sourceUrl === undefined || sourceUrl === null || sourceUrl === '') {
		throw validation('source_url is required');
	}
	if (typeof sourceUrl !== 'string') throw validation('source_url must be a string');
	let parsed: URL;
	try {
		parsed = new URL(sourceUrl);
	} catch {
		throw validation('source_url must be a valid http(s) URL');
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		throw validation('source_url must be a valid http(s) URL');
	}
	if (b.platforms === undefined || b.platforms === null) throw validation('platforms is required');
	const platforms = platformList(b.platforms, 'platforms', PLATFORMS, 1, 10);
	optEnum(b, 'source_type', SOURCE_TYPES);
	const angle = optString(b, 'angle', 500);
	const title = optString(b, 'title', 200);
	let project;
	if (b.project_id !== undefined && b.project_id !== null) {
		if (!isUuid(b.project_id)) throw validation('project_id must be a UUID');
		project = ctx.store.ownedProject(ctx.user.id, b.project_id);
		if (!project) throw notFound('Project');
	} else {
		project = ctx.store.activeProject(ctx.user.id);
		if (!project) {
			throw new ApiError(
				400,
				'NO_PROJECT',
				'No project found on this account: create a project first',
			);
		}
	}
	const cost = SOCIAL_COST_PER_PLATFORM * platforms.length;
	const record = newSocial(ctx.store, {
		userId: ctx.user.id,
		project,
		// the service keeps its own source article for each generation
		articleId: ctx.store.rng.uuid(),
		title: title && title.trim() ? title : titleFromUrl(parsed),
		sourceUrl,
		platforms,
		status: 'generating',
		createdAt: ctx.now,
		angle,
	});
	ctx.store.charge(ctx.user, 'social', record.id, cost, ctx.now);
	ctx.store.startSocial(record, ctx.now);
	return ok(
		{
			content_id: record.id,
			status: 'generating',
			platforms,
			credits_deducted: formatCredits(cost),
			credits_remaining: formatCredits(ctx.store.availableH(ctx.user)),
			poll_url: `/api/v1/social/content/${record.id}`,
		},
		202,
	);
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

export function publishSocial(ctx: Ctx): Reply {
	const b = bodyObject(ctx.body);
	if (b.content_id === undefined || b.content_id === null || b.content_id === '') {
		throw validation('content_id is required');
	}
	if (!isUuid(b.content_id)) throw validation('content_id must be a UUID');
	let subset: string[] | undefined;
	if (b.platforms !== undefined && b.platforms !== null) {
		subset = platformList(b.platforms, 'platforms', PLATFORMS, 1, PLATFORMS.length);
	}
	let scheduledAt: number | null = null;
	if (b.scheduled_at !== undefined && b.scheduled_at !== null) {
		const raw = b.scheduled_at;
		const ms = typeof raw === 'string' && ISO_DATETIME.test(raw) ? Date.parse(raw) : NaN;
		if (Number.isNaN(ms)) {
			throw validation(
				'scheduled_at must be an ISO 8601 date-time with a time zone (Z or an offset)',
			);
		}
		if (ms <= ctx.now) throw validation('scheduled_at must be in the future');
		scheduledAt = ms;
	}
	const s = owned(ctx, b.content_id);
	if (s.isPublished || s.status === 'published' || (s.publish && s.publish.kind === 'now')) {
		throw new ApiError(409, 'CONFLICT', 'This social content has already been published');
	}
	if (s.status === 'generating' || s.status === 'queued' || s.gen) {
		throw new ApiError(
			412,
			'PRECONDITION_FAILED',
			'This social content is still generating: publish it once generation has finished',
		);
	}
	if (!s.finished) {
		throw new ApiError(
			412,
			'PRECONDITION_FAILED',
			`This social content cannot be published in status '${s.status}': it has no finished content`,
		);
	}
	if (ctx.user.socialProfiles < 1) {
		throw new ApiError(
			412,
			'PRECONDITION_FAILED',
			'No connected social profile: connect at least one social channel before publishing',
		);
	}
	if (subset) {
		const missing = subset.filter((p) => !s.platforms.includes(p));
		if (missing.length) {
			throw validation(
				`platforms not present on this content: ${missing.join(', ')} (it has ${s.platforms.join(', ')})`,
			);
		}
	}
	ctx.store.startPublish(s, scheduledAt, ctx.now);
	if (scheduledAt === null) {
		return ok({ content_id: s.id, status: 'publishing', profiles: ctx.user.socialProfiles }, 202);
	}
	return ok({
		content_id: s.id,
		status: 'scheduled',
		scheduled_at: new Date(scheduledAt).toISOString(),
	});
}
