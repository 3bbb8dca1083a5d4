import { ARTICLE_COST, ARTICLE_STATUSES, TONES } from '../constants';
import type { Ctx, Reply } from '../http';
import {
	bodyObject,
	enumParam,
	isUuid,
	notFound,
	ok,
	optEnum,
	pageParams,
	paged,
	uuidParam,
	validation,
} from '../http';
import { articleFull, articleListItem, articleStatus } from '../render';
import { newArticle } from '../seed';
import type { ArticleRec } from '../store';

export function listArticles(ctx: Ctx): Reply {
	const { page, limit } = pageParams(ctx.query);
	const status = enumParam(ctx.query, 'status', ARTICLE_STATUSES);
	const projectId = uuidParam(ctx.query, 'project_id');
	const sort = enumParam(ctx.query, 'sort', ['created_at', 'updated_at', 'title']) ?? 'created_at';
	const order = enumParam(ctx.query, 'order', ['asc', 'desc']) ?? 'desc';
	const search = (ctx.query.search ?? '').toLowerCase();

	const items = ctx.store
		.articlesOf(ctx.user.id)
		.filter(
			(a) =>
				(status === undefined || a.status === status) &&
				(projectId === undefined || a.projectId === projectId) &&
				(search === '' || a.titleLower.includes(search)),
		);
	const dir = order === 'asc' ? 1 : -1;
	const key: (a: ArticleRec) => number | string =
		sort === 'title'
			? (a) => a.titleLower
			: sort === 'updated_at'
				? (a) => a.updatedAt
				: (a) => a.createdAt;
	items.sort((x, y) => {
		const kx = key(x);
		const ky = key(y);
		if (kx !== ky) return (kx < ky ? -1 : 1) * dir;
		// stable, deterministic tie-break so pages never overlap
		return (x.id < y.id ? -1 : 1) * dir;
	});
	return paged(items, page, limit, articleListItem);
}

function owned(ctx: Ctx): ArticleRec {
	const id = ctx.params[0];
	const a = isUuid(id) ? ctx.store.ownedArticle(ctx.user.id, id) : undefined;
	if (!a) throw notFound('Article');
	return a;
}

export function getArticle(ctx: Ctx): Reply {
	return ok(articleFull(owned(ctx)));
}

export function getArticleStatus(ctx: Ctx): Reply {
	return ok(articleStatus(ctx.store, owned(ctx), ctx.now));
}

export function generateArticle(ctx: Ctx): Reply {
	const b = bodyObject(ctx.body);
	const topic = b.topic;
	if (topic === undefined || topic === null || topic === '') throw validation('topic is required');
	if (typeof topic !== 'string') throw validation('topic must be a string');
	if (topic.trim().length < 3 || topic.length > 500) {
		throw validation('topic must be between 3 and 500 characters');
	}
	const projectId = b.project_id;
	if (projectId === undefined || projectId === null || projectId === '') {
		throw validation('project_id is required');
	}
	if (!isUuid(projectId)) throw validation('project_id must be a UUID');
	let keywords: string[] = [];
	if (b.keywords !== undefined && b.keywords !== null) {
		if (!Array.isArray(b.keywords) || b.keywords.some((k) => typeof k !== 'string')) {
			throw validation('keywords must be an array of strings');
		}
		if (b.keywords.length > 20) throw validation('keywords must contain at most 20 items');
		keywords = b.keywords as string[];
	}
	const tone = optEnum(b, 'tone', TONES) ?? 'professional';
	let wordCount = 800;
	if (b.word_count !== undefined && b.word_count !== null) {
		const w = b.word_count;
		if (typeof w !== 'number' || !Number.isInteger(w) || w < 300 || w > 5000) {
			throw validation('word_count must be an integer between 300 and 5000');
		}
		wordCount = w;
	}
	const project = ctx.store.ownedProject(ctx.user.id, projectId);
	if (!project) throw notFound('Project');

	const article = newArticle(ctx.store, {
		userId: ctx.user.id,
		project,
		topic,
		status: 'queued',
		createdAt: ctx.now,
		keywords,
		tone,
		wordCount,
	});
	ctx.store.charge(ctx.user, 'article', article.id, ARTICLE_COST, ctx.now);
	ctx.store.startArticle(article, ctx.now);
	const seconds = Math.max(1, Math.round((article.gen?.durationMs ?? 0) / 1000));
	return ok(
		{
			article_id: article.id,
			status: 'queued',
			job_id: article.jobId,
			slug: article.slug,
			language: article.language,
			// this response counts articles, not credits
			credits_deducted: 1,
			credits_remaining: Math.floor(ctx.store.availableH(ctx.user) / ARTICLE_COST),
			estimated_time:
				seconds >= 120
					? `${Math.round(seconds / 60)} minutes`
					: `${seconds} second${seconds === 1 ? '' : 's'}`,
			poll_url: `/api/v1/articles/${article.id}/status`,
		},
		202,
	);
}
