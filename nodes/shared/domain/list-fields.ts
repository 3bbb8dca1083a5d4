/** The fields a list item carries (spec 2.2 and 2.3): an article's simplified output, the trigger's items. */
export const ARTICLE_LIST_FIELDS = [
	'id',
	'title',
	'slug',
	'status',
	'meta_description',
	'project_id',
	'created_at',
	'updated_at',
] as const;

export const SOCIAL_LIST_FIELDS = [
	'id',
	'article_id',
	'project_id',
	'title',
	'status',
	'source_url',
	'source_type',
	'language',
	'platforms',
	'image_urls',
	'video_urls',
	'scheduled_publish_at',
	'error_message',
	'created_at',
	'updated_at',
] as const;
