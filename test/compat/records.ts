/**
 * The records of the compatibility corpus's account (./service.ts) and the shapes the service
 * gives them: list items, single records, pages. Fixed for good: every frozen workflow saw them.
 */
export const IMAGE_HOST = 'https://images.contentgen-compat.test';
export const T0 = '2026-11-01T10:00:00.000Z';

/** The ids the frozen workflows refer to. */
export const IDS = {
	project: '0c0a7e11-0000-4000-8000-000000000001',
	otherProject: '0c0a7e11-0000-4000-8000-000000000002',
	article: '0a000000-0000-4000-8000-000000000001',
	articleQueued: '0a000000-0000-4000-8000-000000000002',
	articleOther: '0a000000-0000-4000-8000-000000000003',
	articleFailed: '0a000000-0000-4000-8000-000000000004',
	content: '05000000-0000-4000-8000-000000000001',
	contentGenerating: '05000000-0000-4000-8000-000000000002',
	contentOther: '05000000-0000-4000-8000-000000000003',
	contentScheduled: '05000000-0000-4000-8000-000000000004',
} as const;
export const newId = (kind: 'a' | '5', n: number) =>
	`0${kind}${'e'.repeat(6)}-0000-4000-8000-${String(n).padStart(12, '0')}`;

export type Json = Record<string, unknown>;

export interface Article {
	id: string;
	title: string;
	status: string;
	project_id: string;
	created_at: string;
	updated_at: string;
}
export interface Social {
	id: string;
	article_id: string;
	project_id: string;
	title: string;
	status: string;
	platforms: string[];
	scheduled_publish_at: string | null;
	created_at: string;
	updated_at: string;
}

export const PROJECTS = [
	{ id: IDS.project, business_name: 'Bean There', status: 'active' },
	{ id: IDS.otherProject, business_name: 'Harbor Dental', status: 'completed' },
].map((p) => ({
	...p,
	business_website: `https://${p.business_name.toLowerCase().replace(' ', '')}.example.com`,
	business_language: 'English',
	location: 'Lisbon',
	expert_in: 'coffee',
	created_at: T0,
	updated_at: T0,
}));

export const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-');

export function articleList(a: Article): Json {
	return { ...a, slug: slug(a.title), meta_description: `About ${a.title}` };
}

export function socialList(s: Social): Json {
	const finished = !['generating', 'queued', 'draft'].includes(s.status);
	return {
		...s,
		source_url: 'https://blog.example.com/brew',
		source_type: 'blog',
		language: 'en',
		platforms: finished
			? Object.fromEntries(s.platforms.map((p) => [p, `${s.title} on ${p}`]))
			: s.platforms,
		image_urls: finished
			? Object.fromEntries(s.platforms.map((p) => [p, `${IMAGE_HOST}/img/${s.id}/${p}.png`]))
			: {},
		video_urls: {},
		error_message: s.status === 'failed' ? 'The source could not be read' : null,
	};
}

export function socialSingle(s: Social): Json {
	return {
		...socialList(s),
		source_author: 'Ann',
		overlay_urls: {},
		first_comments: Object.fromEntries(s.platforms.map((p) => [p, 'Link in bio'])),
		thread_items: [],
		instagram_carousel_plan: [{ slide: 1, headline: 'Grind fresh' }],
		linkedin_carousel_plan: [],
		processing_stage: 'done',
		processing_progress: 100,
		is_published: s.status === 'published',
		scheduler_post_id: null,
	};
}

export function page<T>(rows: T[], query: Record<string, string>, shape: (row: T) => Json) {
	const limit = Number(query.limit ?? 20);
	const number = Number(query.page ?? 1);
	const start = (number - 1) * limit;
	return {
		success: true,
		data: rows.slice(start, start + limit).map(shape),
		pagination: {
			total: rows.length,
			page: number,
			limit,
			total_pages: Math.ceil(rows.length / limit),
			has_more: start + limit < rows.length,
		},
	};
}
