import type { IDataObject } from 'n8n-workflow';

export const ARTICLE_ID = '11111111-1111-4111-8111-111111111111';
export const ARTICLE_ID_2 = '22222222-2222-4222-8222-222222222222';
export const ARTICLE_ID_3 = '33333333-3333-4333-8333-333333333333';
export const CONTENT_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
export const PROJECT_ID = 'pppppppp-0000-4000-8000-000000000000'.replace(/p/g, 'b');
export const PROJECT_ID_2 = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
export const IMAGE_HOST = 'https://images.contentgen.test';

export function envelope(data: unknown, pagination?: IDataObject): IDataObject {
	const body = { success: true, data } as IDataObject;
	if (pagination) body.pagination = pagination;
	return body;
}

export function page(total: number, pageNumber: number, limit: number): IDataObject {
	const totalPages = Math.ceil(total / limit);
	return {
		total,
		page: pageNumber,
		limit,
		total_pages: totalPages,
		has_more: pageNumber < totalPages,
	};
}

export function articleListItem(index: number): IDataObject {
	const suffix = String(index).padStart(12, '0');
	return {
		id: `00000000-0000-4000-8000-${suffix}`,
		title: `Article ${index}`,
		slug: `article-${index}`,
		status: 'cms',
		meta_description: `About ${index}`,
		project_id: PROJECT_ID,
		created_at: '2026-11-01T10:00:00.000Z',
		updated_at: '2026-11-02T10:00:00.000Z',
	};
}

export const article: IDataObject = {
	...articleListItem(1),
	id: ARTICLE_ID,
	content:
		'<h1>Coffee &amp; focus</h1><p>Good <strong>coffee</strong> helps.</p><script>track()</script><p>' +
		'word '.repeat(200) +
		'</p>',
};

export const finishedSocial: IDataObject = {
	id: CONTENT_ID,
	article_id: ARTICLE_ID,
	project_id: PROJECT_ID,
	title: 'Ten ways to brew',
	status: 'completed',
	source_url: 'https://blog.example.com/brew',
	source_type: 'blog',
	source_author: 'Ann',
	language: 'en',
	platforms: {
		instagram: 'Brew better #coffee',
		linkedin: 'Ten ways to brew better coffee at work',
	},
	image_urls: {
		instagram: `${IMAGE_HOST}/img/instagram.png`,
		linkedin: `${IMAGE_HOST}/img/linkedin.jpg`,
	},
	overlay_urls: {},
	video_urls: { instagram: `${IMAGE_HOST}/vid/instagram.mp4` },
	first_comments: { instagram: 'Link in bio' },
	thread_items: [],
	instagram_carousel_plan: [{ slide: 1, headline: 'Grind fresh' }],
	linkedin_carousel_plan: [],
	processing_stage: 'done',
	processing_progress: 100,
	is_published: false,
	scheduler_post_id: null,
	scheduled_publish_at: null,
	error_message: null,
	created_at: '2026-11-01T10:00:00.000Z',
	updated_at: '2026-11-01T10:05:00.000Z',
};

export const generatingSocial: IDataObject = {
	...finishedSocial,
	status: 'generating',
	platforms: ['instagram', 'linkedin'],
	image_urls: {},
	video_urls: {},
	first_comments: {},
	instagram_carousel_plan: [],
};

export const project: IDataObject = {
	id: PROJECT_ID,
	business_name: 'Bean There',
	business_website: 'https://beanthere.example.com',
	business_language: 'English',
	location: 'Lisbon',
	expert_in: 'coffee',
	status: 'active',
	created_at: '2026-01-01T00:00:00.000Z',
	updated_at: '2026-02-01T00:00:00.000Z',
	language_code: 'en',
	tone_voice: 'warm',
};

/** A tiny valid PNG header followed by padding, of the given size. */
export function pngBytes(size: number): Buffer {
	const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	return Buffer.concat([header, Buffer.alloc(Math.max(0, size - header.length), 7)]);
}

/** A project as Simplified gives it: the list's fields, not what only a Get carries. */
export function simplifiedProject(id = PROJECT_ID): IDataObject {
	const getOnly = ['language_code', 'tone_voice'];
	return {
		...Object.fromEntries(Object.entries(project).filter(([key]) => !getOnly.includes(key))),
		id,
	};
}
