/**
 * A request that got no answer (refused by n8n, never reached the service, timed out, cut off):
 * what happened, whether it may have been processed, and the n8n error it ends with. n8n replaces a
 * message that names a system error code with its own generic sentence, so codes go in descriptions.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Breakage } from './http';
import { redactSecrets } from './redaction';
import { neverReached } from './retry';

/** Codes n8n's error classes look for in a message (in any letter case, anywhere in it). */
const REWRITTEN_CODES = (
	'ECONNREFUSED ECONNRESET ENOTFOUND ETIMEDOUT ERRADDRINUSE EADDRNOTAVAIL ECONNABORTED ' +
	'EHOSTUNREACH EAI_AGAIN ENOENT EISDIR ENOTDIR EACCES EEXIST EPERM GETADDRINFO'
).split(' ');

const CAUSES: Record<string, string> = {
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

/** What a system error code means, in words a message can carry. */
export function networkCause(code: string | undefined): string {
	return (code && CAUSES[code]) || 'the connection broke';
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
	const upper = reason.toUpperCase();
	return REWRITTEN_CODES.some((code) => upper.includes(code))
		? { message: 'The request could not be sent', detail: `Reason: ${reason}. ` }
		: { message: `The request could not be sent: ${reason}`, detail: '' };
}

/**
 * An error with the package's own message put back where n8n replaced it: a message that quotes
 * the user's or the service's words (a title, an id) may contain such a code by chance.
 */
export function keepMessage<E extends Error>(error: E, message: string): E {
	error.message = message;
	return error;
}

const UNREACHED = 'Could not reach the service';

/**
 * Whether a failed POST may have been processed (and charged): it got an answer that was no
 * refusal (a 5xx, an unreadable body), or no answer after it went out (a timeout, a reset).
 * A 4xx refusal, a request n8n never sent and one that never reached the service cost nothing.
 */
export function mayHaveBeenProcessed(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || error.message === UNREACHED) return false;
	return !String(error.httpCode ?? '').startsWith('4');
}

/** A request that got no answer: what happened, and whether it can have been processed. */
export function breakageError(
	node: INode,
	service: { origin: string; apiKey: string },
	method: string,
	endpoint: string,
	breakage: Breakage,
	rawReason: string,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	const reason = redactSecrets(rawReason, service.apiKey);
	const blocked = ssrfRefusal(reason, new URL(service.origin).host);
	if (blocked) {
		return new NodeOperationError(node, blocked.message, { itemIndex, description: blocked.hint });
	}
	if (breakage.kind === 'unsent') {
		const { message, detail } = unsentWording(reason);
		const charged = method === 'POST' ? ' and nothing was charged' : '';
		return new NodeOperationError(node, message, {
			itemIndex,
			description: `${detail}n8n stopped ${method} ${endpoint} before it left this machine, so the service did not receive it${charged}.`,
		});
	}
	const unreached = neverReached({ breakage, reason });
	const message = unreached
		? UNREACHED
		: breakage.kind === 'timeout'
			? `The service did not answer in time (${reason})`
			: 'The connection to the service broke before it answered';
	const advice = unreached
		? `Check the credential's 'Base URL' (${service.origin}) and that the service is reachable from n8n.`
		: method === 'GET'
			? "The request was retried and kept failing. Try again later, or raise 'Request Timeout' in the node's Options."
			: 'The request was not sent again, because it may have reached the service (and been charged). Check with a Get Many before running again.';
	const code = breakage.kind === 'network' ? breakage.code : undefined;
	return new NodeApiError(
		node,
		{ message, network: code ?? breakage.kind },
		{ message, description: `${advice}${code ? ` System code: ${code}.` : ''}`, itemIndex },
	);
}
