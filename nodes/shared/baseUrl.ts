import { API_PREFIX } from './constants';
import { ValidationError } from './validation';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLocalHost(hostname: string): boolean {
	// 127.0.0.0/8 as an address only: "127.0.0.1.example.com" is a remote name.
	return (
		LOCAL_HOSTS.has(hostname) ||
		hostname.endsWith('.localhost') ||
		/^127(\.\d{1,3}){3}$/.test(hostname)
	);
}

/**
 * The service root, whatever the user typed: a trailing slash or a trailing /api/v1 would
 * otherwise double up in every URL.
 */
export function normaliseBaseUrl(raw: unknown): { url: string; insecure: boolean } {
	const text = typeof raw === 'string' ? raw.trim() : '';
	let parsed: URL | undefined;
	try {
		parsed = new URL(text);
	} catch {
		parsed = undefined;
	}
	if (!parsed) {
		throw new ValidationError(
			'Base URL',
			`The credential's Base URL "${text}" is not a URL: it should look like https://api.example.com`,
		);
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		throw new ValidationError(
			'Base URL',
			`The credential's Base URL must start with https:// (got ${parsed.protocol})`,
		);
	}
	const path = parsed.pathname.replace(/\/+$/, '').replace(new RegExp(`${API_PREFIX}$`, 'i'), '');
	const url = `${parsed.protocol}//${parsed.host}${path.replace(/\/+$/, '')}`;
	return { url, insecure: parsed.protocol === 'http:' && !isLocalHost(parsed.hostname) };
}
