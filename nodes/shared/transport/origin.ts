import { API_PREFIX } from '../constants';

/**
 * Where the key may go, one rule for the credential's `authenticate`, the nodes and the Test button:
 * only to the Base URL's origin, over https, or plain http to this machine or to a private address
 * the credential allows (anyone on the way reads a key over plain http). Linked files are fetched
 * without the key, from public https only: a record cannot aim a download into the user's network.
 */

/** The Base URL: `url` is origin and path prefix without /api/v1; `local`, this machine or a private address over http. */
export interface ServiceRoot {
	url: string;
	origin: string;
	local: boolean;
}

export const PRIVATE_HTTP_SETTING = 'Allow Plain HTTP to a Private Address';

/** Why a Base URL or a download address is refused, and what to do about it. */
export class AddressError extends Error {
	constructor(
		message: string,
		readonly hint = '',
	) {
		super(message);
	}

	get sentence(): string {
		return this.hint ? `${this.message}: ${this.hint}` : this.message;
	}
}

/**
 * Where a host name leads, as written (not resolved): this machine; a private network (RFC 1918,
 * link-local, IPv6 ULA and link-local, names only its DNS answers: `.internal`, `.local`, a single
 * label); an address no fetch should reach (unspecified, CGNAT, multicast, `*.localhost`, mapped
 * IPv6); or the public internet.
 */
function reachOf(hostname: string): 'loopback' | 'private' | 'reserved' | 'public' {
	const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
	const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host)?.slice(1).map(Number);
	if (v4 && host.split('.').every((byte) => Number(byte) <= 255)) {
		const [a, b] = v4;
		if (a === 127) return 'loopback';
		if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
		if (a === 169 && b === 254) return 'private';
		return a === 0 || a >= 224 || (a === 100 && b >= 64 && b <= 127) ? 'reserved' : 'public';
	}
	if (host.includes(':')) {
		if (host === '::1') return 'loopback';
		if (/^(f[cd][0-9a-f]{2}|fe[89ab][0-9a-f]):/.test(host)) return 'private';
		return host === '::' || /^(ff[0-9a-f]{2}:|::ffff:)/.test(host) ? 'reserved' : 'public';
	}
	if (host === 'localhost') return 'loopback';
	if (host.endsWith('.localhost')) return 'reserved';
	if (host.endsWith('.internal') || host.endsWith('.local')) return 'private';
	return /^[a-z0-9-]+$/.test(host) && /[a-z]/.test(host) ? 'private' : 'public';
}

function parse(raw: string): URL | undefined {
	try {
		return new URL(raw);
	} catch {
		return undefined;
	}
}

/** The Base URL as a root. A query or fragment would end up in every URL, a user name replace the key. */
export function parseBaseUrl(
	raw: unknown,
	options: { allowPrivateHttp?: unknown } = {},
): ServiceRoot {
	const text = typeof raw === 'string' ? raw.trim() : '';
	const url = parse(text);
	const extra = (what: string) =>
		new AddressError(
			`The credential's 'Base URL' has ${what}: remove it, the 'Base URL' is only the service's address`,
		);
	if (!url || !/^https?:$/.test(url.protocol))
		throw new AddressError(
			`The credential's 'Base URL' "${text}" is not a web address: it should start with https://, e.g. https://api.example.com`,
		);
	if (url.username || url.password)
		throw new AddressError(
			"The credential's 'Base URL' contains a user name or password: remove it (the API key is the only credential the service takes)",
		);
	if (url.search || text.includes('?')) throw extra(`a query ("${url.search || '?'}")`);
	if (url.hash || text.includes('#')) throw extra(`a fragment ("${url.hash || '#'}")`);
	const reach = reachOf(url.hostname);
	const allowed = options.allowPrivateHttp === true;
	if (url.protocol === 'http:' && reach !== 'loopback' && !(reach === 'private' && allowed)) {
		const base = `the credential's 'Base URL' is ${url.origin}`;
		if (allowed)
			throw new AddressError(
				'Refusing to send the API key over plain http to a public address',
				`${base}. '${PRIVATE_HTTP_SETTING}' covers private and internal addresses only (10.x, 172.16-31.x, 192.168.x, 169.254.x, fc00::/7, fe80::/10, names ending in .internal or .local, a single-label name such as a Docker Compose service). Use https://.`,
			);
		throw new AddressError(
			'Refusing to send the API key over plain http to a remote host',
			reach === 'private'
				? `${base}, a private address. Use https://, or, for a service on your own network, turn on '${PRIVATE_HTTP_SETTING}' in the credential.`
				: `${base}. Use https://; plain http is accepted only for this machine (localhost, 127.x.x.x, ::1) or a private address the credential allows.`,
		);
	}
	const prefix = new RegExp(`${API_PREFIX}$`, 'i');
	const path = url.pathname.replace(/\/+$/, '').replace(prefix, '').replace(/\/+$/, '');
	const local = reach === 'loopback' || (reach === 'private' && url.protocol === 'http:');
	return { url: `${url.origin}${path}`, origin: url.origin, local };
}

/**
 * The origin a request will go to, resolved the way n8n's HTTP client does: `url`, or else the
 * legacy `uri` (what n8n's HTTP Request node passes), against `baseURL`; either may be a URL object.
 */
export function requestOrigin(options: Partial<Record<'url' | 'uri' | 'baseURL', unknown>>) {
	const address = (value: unknown) =>
		typeof value === 'string' || value instanceof URL ? value : undefined;
	const target = address(options.url) ?? address(options.uri);
	const base = address(options.baseURL);
	try {
		if (target === undefined) return base === undefined ? undefined : new URL(base).origin;
		return new URL(target, base).origin;
	} catch {
		return undefined;
	}
}

export function apiUrl(root: ServiceRoot, endpoint: string): string {
	return `${root.url}${API_PREFIX}${endpoint}`;
}

/** A linked file's address: public https, or the service's own when local (the sandbox serves images). */
export function checkDownloadUrl(raw: string, service: ServiceRoot): URL {
	const url = parse(raw);
	if (!url || !/^https?:$/.test(url.protocol))
		throw new AddressError(`"${raw.slice(0, 200)}" is not a web address`);
	if (service.local && url.origin === service.origin) return url;
	const refusal =
		url.protocol !== 'https:'
			? `${url.host} is plain http; only https addresses are fetched`
			: url.username || url.password
				? 'the address carries a user name or password'
				: reachOf(url.hostname) !== 'public'
					? `${url.host} is a local or private network address`
					: undefined;
	if (refusal) throw new AddressError(refusal);
	return url;
}
