/**
 * Why a request got no answer, in words that survive n8n's error classes: n8n replaces a message
 * that names a system error code with its own generic sentence, so codes go in descriptions.
 */

/**
 * n8n's error classes replace a whole message that contains one of these (in any letter case,
 * anywhere in it) with their own generic sentence; the package keeps such codes in descriptions.
 */
const REWRITTEN_CODES = [
	'ECONNREFUSED',
	'ECONNRESET',
	'ENOTFOUND',
	'ETIMEDOUT',
	'ERRADDRINUSE',
	'EADDRNOTAVAIL',
	'ECONNABORTED',
	'EHOSTUNREACH',
	'EAI_AGAIN',
	'ENOENT',
	'EISDIR',
	'ENOTDIR',
	'EACCES',
	'EEXIST',
	'EPERM',
	'GETADDRINFO',
];

/** Whether n8n would show its own words instead of this message. */
export function rewrittenByN8n(message: string): boolean {
	const upper = message.toUpperCase();
	return REWRITTEN_CODES.some((code) => upper.includes(code));
}

/** What a system error code means, in words a message can carry. */
export function networkCause(code: string | undefined): string {
	const causes: Record<string, string> = {
		ENOTFOUND: 'its host name could not be found',
		EAI_AGAIN: 'its host name could not be looked up (DNS did not answer)',
		ECONNREFUSED: 'the server refused the connection',
		ECONNRESET: 'the connection was closed before the answer was complete',
		ETIMEDOUT: 'no answer came in time',
		ECONNABORTED: 'no answer came in time',
		EHOSTUNREACH: 'the host cannot be reached from this n8n',
		ENETUNREACH: 'the network cannot be reached from this n8n',
		CERT_HAS_EXPIRED: 'the TLS certificate has expired',
		DEPTH_ZERO_SELF_SIGNED_CERT: 'the TLS certificate is self-signed',
		ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate is for another name',
	};
	return (code && causes[code]) || 'the connection broke';
}

/** n8n's SSRF guard refusing an address (N8N_SSRF_PROTECTION_ENABLED), in any wrapping of its error. */
const SSRF_REFUSAL =
	/The request was blocked because (it resolves to a restricted IP address|the destination hostname is restricted)/;

/** The sentence and what to do when n8n's SSRF protection, not the service, stopped a request. */
export function ssrfRefusal(
	error: unknown,
	host: string,
): { message: string; hint: string } | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
		const text = typeof current === 'string' ? current : (current as { message?: unknown }).message;
		if (typeof text === 'string' && SSRF_REFUSAL.test(text)) {
			return {
				message: `n8n's SSRF protection blocked the request to ${host}`,
				hint: `This n8n runs with N8N_SSRF_PROTECTION_ENABLED, which refuses loopback, private and deny-listed addresses unless they are allowed. Ask the n8n administrator to add the host to N8N_SSRF_ALLOWED_HOSTNAMES or its address to N8N_SSRF_ALLOWED_IP_RANGES (then restart n8n); nothing is wrong with the address itself.`,
			};
		}
		current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
	}
	return undefined;
}

/** A request n8n did not send: its reason in the message, unless n8n would replace the message. */
export function unsentWording(reason: string): { message: string; detail: string } {
	return rewrittenByN8n(reason)
		? { message: 'The request could not be sent', detail: `Reason: ${reason}. ` }
		: { message: `The request could not be sent: ${reason}`, detail: '' };
}

/**
 * An error with the package's own message put back where n8n replaced it: a message that quotes
 * the user's or the service's words (a title, an id) may contain such a code by chance.
 */
export function keepMessage<E extends Error>(error: E, message: string): E {
	if (error.message !== message) error.message = message;
	return error;
}
