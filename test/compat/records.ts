/**
 * The records of the compatibility corpus's account, loaded into the sandbox (./service.ts) as the
 * API shows them. Fixed for good: every frozen workflow saw them, and names their ids.
 */
import type { AccountRecords } from '../../sandbox';

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

/**
 * The ids of the records the account gains (generated, or born during a trigger scenario), one
 * count for both kinds: the frozen workflows read and report them.
 */
export function recordIds(): (kind: 'article' | 'social') => string {
	let count = 0;
	return (kind) =>
		`0${kind === 'article' ? 'a' : '5'}${'e'.repeat(6)}-0000-4000-8000-${String(++count).padStart(12, '0')}`;
}

const project = (id: string, business_name: string, status: string) => ({
	id,
	business_name,
	business_website: `https://${business_name.toLowerCase().replace(' ', '')}.example.com`,
	business_language: 'English',
	location: 'Lisbon',
	expert_in: 'coffee',
	status,
	created_at: T0,
	updated_at: T0,
});

const article = (id: string, title: string, status: string, projectId: string = IDS.project) => ({
	id,
	title,
	status,
	project_id: projectId,
	created_at: T0,
	updated_at: T0,
});

const social = (
	id: string,
	status: string,
	platforms: string[],
	projectId: string = IDS.project,
) => ({
	id,
	article_id: IDS.article,
	project_id: projectId,
	title: `Post ${id.slice(-1)}`,
	status,
	platforms,
	source_url: 'https://blog.example.com/brew',
	scheduled_publish_at: null,
	created_at: T0,
	updated_at: T0,
});

export const ACCOUNT: AccountRecords = {
	projects: [
		project(IDS.project, 'Bean There', 'active'),
		project(IDS.otherProject, 'Harbor Dental', 'completed'),
	],
	articles: [
		article(IDS.article, 'Coffee and focus', 'cms'),
		article(IDS.articleQueued, 'Cold brew at home', 'queued'),
		article(IDS.articleOther, 'Healthier teeth', 'needs_editing', IDS.otherProject),
		article(IDS.articleFailed, 'Coffee myths', 'failed'),
	],
	social: [
		social(IDS.content, 'completed', ['linkedin', 'instagram']),
		social(IDS.contentGenerating, 'generating', ['linkedin', 'twitter']),
		social(IDS.contentOther, 'completed', ['facebook'], IDS.otherProject),
		social(IDS.contentScheduled, 'ready', ['linkedin']),
	],
	usage: [{ daysAgo: 1, endpoint: '/api/v1/articles', requests: 12, totalMs: 498, errors: 0 }],
};

/** The balance the account shows (Business plan). */
export const CREDITS = { subscription: 100, purchased: 20.5 };
