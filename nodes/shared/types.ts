import type { IDataObject } from 'n8n-workflow';

export interface Pagination {
	total: number;
	page: number;
	limit: number;
	total_pages: number;
	has_more: boolean;
}

export interface RateLimitInfo {
	limit?: number;
	remaining?: number;
	/** Epoch seconds when the per-minute window resets. */
	reset?: number;
	/** Absent when the plan has no daily limit. */
	dailyLimit?: number;
	dailyRemaining?: number;
}

export interface ApiResponse<T> {
	data: T;
	pagination?: Pagination;
	statusCode: number;
	requestId?: string;
	rateLimit: RateLimitInfo;
}

export interface ArticleListItem extends IDataObject {
	id: string;
	title: string;
	slug: string;
	status: string;
	meta_description: string;
	project_id: string;
	created_at: string;
	updated_at: string;
}

export interface Article extends ArticleListItem {
	content: string;
}

export interface ArticleStatusRecord extends IDataObject {
	article_id: string;
	status: string;
	title: string;
	slug: string;
	progress: number;
	is_complete: boolean;
	created_at: string;
	updated_at: string;
}

export interface SocialContentListItem extends IDataObject {
	id: string;
	article_id: string;
	project_id: string;
	title: string;
	status: string;
	source_url: string;
	source_type: string;
	language: string;
	platforms: string[] | Record<string, string>;
	image_urls: Record<string, string>;
	video_urls: Record<string, string>;
	scheduled_publish_at: string | null;
	error_message: string | null;
	created_at: string;
	updated_at: string;
}

export interface SocialContent extends SocialContentListItem {
	overlay_urls: Record<string, string>;
	first_comments: Record<string, string>;
	thread_items: unknown[];
	processing_stage: string;
	processing_progress: number;
	is_published: boolean;
	scheduler_post_id: string | null;
}

export interface Credits extends IDataObject {
	available_credits: number;
	subscription_credits: number;
	purchased_credits: number;
	credits_used_this_month: number;
	plan: string;
	current_period_end: string;
}
