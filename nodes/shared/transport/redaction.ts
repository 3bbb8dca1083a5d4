/**
 * Keeps the API key out of all the package hands n8n, however a service or proxy echoes it: every
 * answer is masked as it arrives, so records, items and errors are built from text without the key.
 */

/** Fewest leading characters of the key's secret part that count as the key when a field cuts it. */
const MIN_PREFIX = 12;
const MASK = 'svc_…';

const SECRET_PATTERN = /svc(?:_|%5f|\\u005f)[0-9a-z]{4,}/gi;
const BEARER_PATTERN = /Bearer(?:\s|%20|\\u0020|\+)+[^\s"',&]+/gi;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One character of the key as an echo may spell it: itself, URL-encoded or JSON-escaped, the
 * escape's backslash single in a string and doubled in the JSON text of an answer searched whole.
 */
function spelling(char: string): string {
	const code = char.charCodeAt(0);
	if (code > 0x7f) return escapeRegExp(char);
	const hex = code.toString(16).padStart(2, '0');
	return `(?:${escapeRegExp(char)}|%${hex}|\\\\{1,2}u00${hex})`;
}

/**
 * The key in any case, plain, JSON-escaped (\u0073), URL-encoded (%73) or mixed, with or without
 * "svc_", also cut short by its field. Built once a connection: dearer than most answers to search.
 */
export function keyPattern(apiKey: string | undefined): RegExp | undefined {
	const key = (apiKey ?? '').trim();
	if (!key) return undefined;
	const prefix = /^svc_/i.test(key) ? key.slice(0, 4) : '';
	const secret = [...key.slice(prefix.length)];
	if (secret.length < MIN_PREFIX) return new RegExp(escapeRegExp(key), 'gi');
	let rest = '';
	for (let i = secret.length - 1; i >= MIN_PREFIX; i--) rest = `(?:${spelling(secret[i])}${rest})?`;
	const head = secret.slice(0, MIN_PREFIX).map(spelling).join('');
	const optionalPrefix = prefix ? `(?:${[...prefix].map(spelling).join('')})?` : '';
	return new RegExp(`${optionalPrefix}${head}${rest}`, 'gi');
}

/** For the package's own text (messages, logs): the key, and anything like a key or a Bearer header. */
export function redactSecrets(text: string, apiKey?: string): string {
	const pattern = keyPattern(apiKey);
	return (pattern ? text.replace(pattern, MASK) : text)
		.replace(SECRET_PATTERN, MASK)
		.replace(BEARER_PATTERN, 'Bearer …');
}

/**
 * An answer (a parsed body, headers) with the key masked in every string and name, at any depth.
 * Its JSON text searched first, an answer without a trace of the key is passed on as it is; one
 * that cannot be written out or read back once masked, not at all.
 */
export function redactData<T>(value: T, pattern: RegExp | undefined): T {
	if (!pattern || value === undefined || value === null) return value;
	if (typeof value === 'string') return value.replace(pattern, MASK) as T;
	try {
		const text = JSON.stringify(value);
		return text.search(pattern) === -1 ? value : (JSON.parse(text.replace(pattern, MASK)) as T);
	} catch {
		return {} as T;
	}
}
