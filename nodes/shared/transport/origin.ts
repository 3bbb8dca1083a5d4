import { API_PREFIX } from '../constants';

/** The credential's Base URL, reduced to the root every API path is appended to. */
export interface ServiceRoot {
	/** Origin plus any path prefix, without a trailing slash or /api/v1. */
	url: string;
	origin: string;
	loopback: boolean;
	/** Plain http to a private address, which the credential's setting allows. */
	privateHttp: boolean;
}

/** The credential's setting for plain http beyond this machine (off unless exactly true). */
export interface BaseUrlOptions {
	allowPrivateHttp?: unknown;
}

/** What the setting's switch is called in the credential, for messages that point to it. */
export const PRIVATE_HTTP_SETTING = 'Allow Plain HTTP to a Private Address';

/** Why a Base URL or a download address is refused; the text is shown to the user. */
export class AddressError extends Error {
	constructor(
		message: string,
		/** What to do about it. */
		readonly hint = '',
	) {
		super(message);
		this.name = 'AddressError';
	}

	/** Headline and hint as one text, where only one is shown. */
	get sentence(): string {
		return this.hint ? `${this.message}: ${this.hint}` : this.message;
	}
}

function ipv4(hostname: string): number[] | undefined {
	const parts = hostname.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
	const bytes = parts.map(Number);
	return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

/** This machine only: localhost, 127.0.0.0/8 and ::1 as literal addresses (not names that contain them). */
function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	if (host === 'localhost' || host === '[::1]' || host === '::1') return true;
	return ipv4(host)?.[0] === 127;
}

/** Addresses a server-side fetch must not reach: loopback, private, link-local, unspecified, multicast. */
function isInternalHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
	const v4 = ipv4(host);
	if (v4) {
		const [a, b] = v4;
		return (
			a === 0 ||
			a === 10 ||
			a === 127 ||
			a >= 224 ||
			(a === 100 && b >= 64 && b <= 127) ||
			(a === 169 && b === 254) ||
			(a === 172 && b >= 16 && b <= 31) ||
			(a === 192 && b === 168)
		);
	}
	if (!host.includes(':')) return false;
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
	if (mapped) return isInternalHost(mapped[1]);
	return (
		host === '::' ||
		host === '::1' ||
		/^f[cd][0-9a-f]{2}:/.test(host) ||
		/^fe[89ab][0-9a-f]:/.test(host) ||
		/^ff[0-9a-f]{2}:/.test(host) ||
		/^::ffff:/.test(host)
	);
}

/**
 * Addresses only a private network reaches, where the setting may allow plain http: RFC 1918,
 * link-local, IPv6 unique-local and link-local, and names that resolve only inside a network
 * (`.internal`, as in host.docker.internal, `.local`, and a single label such as a Docker
 * Compose service). Loopback is this machine's, allowed anyway; carrier-grade NAT is shared.
 */
function isPrivateHost(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	const v4 = ipv4(host);
	if (v4) {
		const [a, b] = v4;
		return (
			a === 10 ||
			(a === 172 && b >= 16 && b <= 31) ||
			(a === 192 && b === 168) ||
			(a === 169 && b === 254)
		);
	}
	if (host.includes(':')) return /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
	if (host.endsWith('.internal') || host.endsWith('.local')) return true;
	return /^[a-z0-9-]+$/.test(host) && /[a-z]/.test(host) && host !== 'localhost';
}

function parse(raw: string): URL | undefined {
	try {
		return new URL(raw);
	} catch {
		return undefined;
	}
}

/**
 * The service root from the credential's Base URL. Anything but an origin and a path is refused:
 * a query or fragment would end up inside every request URL, and a user name would replace the key.
 */
export function parseBaseUrl(raw: unknown, options: BaseUrlOptions = {}): ServiceRoot {
	const text = typeof raw === 'string' ? raw.trim() : '';
	const url = parse(text);
	if (!url || !/^https?:$/.test(url.protocol)) {
		throw new AddressError(
			`The credential's 'Base URL' "${text}" is not a web address: it should start with https://, e.g. https://api.example.com`,
		);
	}
	if (url.username || url.password) {
		throw new AddressError(
			"The credential's 'Base URL' contains a user name or password: remove it (the API key is the only credential the service takes)",
		);
	}
	if (url.search || text.includes('?')) {
		throw new AddressError(
			`The credential's 'Base URL' has a query ("${url.search || '?'}"): remove it, the 'Base URL' is only the service's address`,
		);
	}
	if (url.hash || text.includes('#')) {
		throw new AddressError(
			`The credential's 'Base URL' has a fragment ("${url.hash || '#'}"): remove it, the 'Base URL' is only the service's address`,
		);
	}
	const loopback = isLoopbackHost(url.hostname);
	const isPrivate = !loopback && isPrivateHost(url.hostname);
	const allowed = options.allowPrivateHttp === true;
	if (url.protocol === 'http:' && !loopback && !(isPrivate && allowed)) {
		if (allowed) {
			throw new AddressError(
				'Refusing to send the API key over plain http to a public address',
				`the credential's 'Base URL' is ${url.origin}. '${PRIVATE_HTTP_SETTING}' covers private and internal addresses only (10.x, 172.16-31.x, 192.168.x, 169.254.x, fc00::/7, fe80::/10, names ending in .internal or .local, a single-label name such as a Docker Compose service). Use https://.`,
			);
		}
		throw new AddressError(
			'Refusing to send the API key over plain http to a remote host',
			isPrivate
				? `the credential's 'Base URL' is ${url.origin}, a private address. Use https://, or, for a service on your own network (such as the sandbox reached from n8n in Docker), turn on '${PRIVATE_HTTP_SETTING}' in the credential.`
				: `the credential's 'Base URL' is ${url.origin}. Use https://; plain http is accepted only for this machine (localhost, 127.x.x.x, ::1), e.g. the local sandbox, or a private address the credential allows.`,
		);
	}
	const path = url.pathname
		.replace(/\/+$/, '')
		.replace(new RegExp(`${API_PREFIX}$`, 'i'), '')
		.replace(/\/+$/, '');
	return {
		url: `${url.origin}${path}`,
		origin: url.origin,
		loopback,
		privateHttp: url.protocol === 'http:' && isPrivate,
	};
}

/** How n8n's request helpers spell an address: a string or a URL object. */
type Address = string | URL | undefined;

function spelling(value: unknown): Address {
	if (typeof value === 'string') return value;
	return value instanceof URL ? value : undefined;
}

/**
 * The origin a request will go to, resolved the way n8n's HTTP client does: `url`, or else the
 * legacy `uri` (what n8n's HTTP Request node passes), against `baseURL`; either may be a URL object.
 */
export function requestOrigin(options: {
	url?: unknown;
	uri?: unknown;
	baseURL?: unknown;
}): string | undefined {
	const target = spelling(options.url) ?? spelling(options.uri);
	const base = spelling(options.baseURL);
	try {
		if (target === undefined) return base === undefined ? undefined : new URL(base).origin;
		return new URL(target, base).origin;
	} catch {
		return undefined;
	}
}

/** The address of an API route (`/user/credits`) under the service root. */
export function apiUrl(root: ServiceRoot, endpoint: string): string {
	return `${root.url}${API_PREFIX}${endpoint}`;
}

/**
 * Where a file the service linked to may be fetched from: public https, or the service's own
 * origin when that is this machine or a private address the credential allows (the local
 * sandbox serves its images itself). A download never carries the key.
 */
export function checkDownloadUrl(raw: string, service: ServiceRoot): URL {
	const url = parse(raw);
	if (!url || !/^https?:$/.test(url.protocol)) {
		throw new AddressError(`"${raw.slice(0, 200)}" is not a web address`);
	}
	if ((service.loopback || service.privateHttp) && url.origin === service.origin) return url;
	if (url.protocol !== 'https:') {
		throw new AddressError(`${url.host} is plain http; only https addresses are fetched`);
	}
	if (url.username || url.password) {
		throw new AddressError(`the address carries a user name or password`);
	}
	if (isInternalHost(url.hostname)) {
		throw new AddressError(`${url.host} is a local or private network address`);
	}
	return url;
}
