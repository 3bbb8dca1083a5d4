import type { INodePropertyOptions } from 'n8n-workflow';

import { PLATFORMS } from '../constants';

export { PLATFORMS };

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

/** The name a platform's value is shown by, or undefined for a word that is no platform. */
export const platformLabel = (value: string): string | undefined =>
	(PLATFORM_LABELS as Record<string, string>)[value];

/** Options of every platform parameter, sorted by name as n8n's lint expects. */
export const platformOptions: INodePropertyOptions[] = PLATFORMS.map((value) => ({
	name: PLATFORM_LABELS[value],
	value,
})).sort((a, b) => a.name.localeCompare(b.name));
