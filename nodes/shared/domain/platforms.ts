import type { INodePropertyOptions } from 'n8n-workflow';

/** The 13 accepted platform values (spec §2.4). */
export const PLATFORMS = [
	'instagram',
	'facebook',
	'linkedin',
	'twitter',
	'threads',
	'tiktok',
	'youtube',
	'pinterest',
	'bluesky',
	'telegram',
	'google-business',
	'reddit',
	'snapchat',
] as const;

/** How each platform is written by the platform itself; both nodes show these names. */
const PLATFORM_LABELS: Record<(typeof PLATFORMS)[number], string> = {
	instagram: 'Instagram',
	facebook: 'Facebook',
	linkedin: 'LinkedIn',
	twitter: 'X (Twitter)',
	threads: 'Threads',
	tiktok: 'TikTok',
	youtube: 'YouTube',
	pinterest: 'Pinterest',
	bluesky: 'Bluesky',
	telegram: 'Telegram',
	'google-business': 'Google Business',
	reddit: 'Reddit',
	snapchat: 'Snapchat',
};

/** Options of every platform parameter, sorted by name as n8n's lint expects. */
export const platformOptions: INodePropertyOptions[] = PLATFORMS.map((value) => ({
	name: PLATFORM_LABELS[value],
	value,
})).sort((a, b) => a.name.localeCompare(b.name));
