/**
 * A request that failed, in words that say what to do, and the n8n error it ends with: an answer
 * that is not the service's success (its status and body read), or no answer at all (refused by
 * n8n, never reached the service, timed out, cut off), saying whether it may have been processed.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { API_KEY_PATTERN } from '../constants';
import { requiredAccess, routeWording } from '../routes';
import { type Breakage, header, ssrfRefusal, unsentWording } from './http';
import { redactSecrets } from './redaction';
import { neverReached, retryAfterSeconds } from './retry';

/** An error answer as the service gave it, parsed; `apiMessage` is its own words, redacted. */
export interface ErrorAnswer {
	statusCode: number;
	code: string;
	apiMessage?: string;
	headers: Record<string, unknown>;
}

/** Wording of a status that only one operation can explain (a publish's 409, a generate's 402). */
export type Explain = (answer: ErrorAnswer) => { message: string; hint: string } | undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

export function summariseText(text: string): string {
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
	const plain = (title ?? text)
		.replace(/<script[\s\S]*?<\/script>/gi, ' ')
		.replace(/<style[\s\S]*?<\/style>/gi, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

/** Reads either error shape of the service (an envelope, a flat `error`), or a page that is not JSON. */
export function parseErrorBody(body: unknown): {
	code?: string;
	apiMessage?: string;
	requestId?: string;
	page?: boolean;
	empty?: boolean;
} {
	if (body === undefined || body === null || body === '') return { empty: true };
	if (typeof body === 'string') {
		try {
			if (body.trim().startsWith('{')) return parseErrorBody(JSON.parse(body));
		} catch {
			// a page that only starts like JSON
		}
		return { page: true, apiMessage: summariseText(body.trim()) };
	}
	if (!isObject(body)) return {};
	const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
	const error = isObject(body.error) ? body.error : {};
	return {
		code: text(error.code),
		apiMessage: text(error.message) ?? text(body.error) ?? text(body.message),
		requestId: isObject(body.meta) ? text(body.meta.request_id) : undefined,
	};
}

/** The key itself refused (not what it may do). */
export function isAuthRefusal(statusCode: number, code: string | undefined): boolean {
	return statusCode === 401 || code === 'UNAUTHORIZED' || code === 'INVALID_API_KEY';
}

const UNKNOWN_HINT = (statusCode: number) =>
	`It answered with status ${statusCode}. Try again later; if it keeps answering so, give the service's support the request ID shown in these details.`;

/** The statuses every route can answer, in words that say what to do. */
function generic(
	answer: ErrorAnswer,
	method: string,
	endpoint: string,
	apiKey: string,
): { message: string; hint: string } {
	const { statusCode, code } = answer;
	if (statusCode < 300) {
		// A 2xx that is not the service's envelope: a proxy's page or a cut-off body.
		return method === 'GET'
			? { message: 'The service answered with an unreadable body', hint: UNKNOWN_HINT(statusCode) }
			: {
					message: 'The service accepted the request but its answer could not be read',
					hint: `The request was not sent again, because it was probably processed (and charged). Check with a Get Many. ${UNKNOWN_HINT(statusCode)}`,
				};
	}
	if (isAuthRefusal(statusCode, code))
		return {
			message: 'The API key was not accepted (missing, invalid, expired or revoked)',
			hint: API_KEY_PATTERN.test(apiKey.trim())
				? 'Create a new key in the service and update the ContentGen credential.'
				: 'The key in the credential does not look like a ContentGen key: it should be "svc_" followed by 64 hexadecimal characters, copied whole when the key was created.',
		};
	if (statusCode === 403) {
		const { permission, scope } = requiredAccess(method, endpoint);
		return {
			message: `The API key may not do this: it needs the "${permission}" permission and the "${scope}" scope`,
			hint: `Create a key with permission "${permission}" and scope "${scope}" (keys cannot be edited), then update the credential.`,
		};
	}
	if (statusCode === 402 || code === 'INSUFFICIENT_CREDITS')
		return {
			message: 'Not enough credits',
			hint: 'Nothing was charged. Top up credits or wait for the plan to renew, then run again.',
		};
	const special = routeWording(answer, method, endpoint);
	if (special) return special;
	if (statusCode === 404)
		return {
			message: 'Nothing was found at this address of the service',
			hint: `The credential's 'Base URL' may not be the service's address: it should be the address the service gave you, e.g. https://api.example.com. (The request was ${method} ${endpoint}.)`,
		};
	if (statusCode === 429) {
		const wait = retryAfterSeconds(answer.headers, Date.now());
		return {
			message: `Rate limit reached${wait === undefined ? '' : `: retry in ${Math.ceil(wait)} s`}`,
			hint: `The key's request budget is used up (limit ${header(answer.headers, 'x-ratelimit-limit') ?? 'unknown'} per minute). Lower the workflow's request rate or raise 'Max Rate-Limit Wait' in the node's Options.`,
		};
	}
	if (statusCode === 400)
		return {
			message: 'The service rejected the request as invalid',
			hint: 'Check the parameters named in the message above.',
		};
	if (statusCode >= 500)
		return {
			message: `The service could not handle the request (HTTP ${statusCode})`,
			hint:
				method === 'GET'
					? 'The request was sent again and the service kept answering the same. Try again later.'
					: 'The request was not sent again, because it may have been processed (and charged). Check with a Get Many before running again.',
		};
	if (statusCode < 400) {
		const location = header(answer.headers, 'location') ?? 'another address';
		return {
			message: `The service answered with a redirect (HTTP ${statusCode}), which is not followed`,
			hint: `It pointed to ${redactSecrets(location, apiKey).slice(0, 300)}. The API key is sent only to the credential's 'Base URL': if the service has moved, update the 'Base URL'.`,
		};
	}
	return {
		message: 'The service gave an answer the node does not know',
		hint: UNKNOWN_HINT(statusCode),
	};
}

/** An answer that is not a success (its body and headers redacted), and the request it answers. */
type Refused = Sent &
	Pick<ErrorAnswer, 'statusCode' | 'headers'> & { body: unknown; explain?: Explain };
type Sent = Record<'method' | 'endpoint' | 'apiKey', string>;

export function describeFailure(refused: Refused) {
	const { statusCode, method, endpoint, apiKey } = refused;
	const parsed = parseErrorBody(refused.body);
	const answer: ErrorAnswer = {
		statusCode,
		code: parsed.code ?? `HTTP_${statusCode}`,
		apiMessage: parsed.apiMessage ? redactSecrets(parsed.apiMessage, apiKey) : undefined,
		headers: refused.headers,
	};
	// A 2xx that says it failed is an answer not understood, whatever code it carries: the request
	// may have been processed, so no operation's refusal wording (nothing charged) applies.
	const explained = statusCode >= 300 ? refused.explain?.(answer) : undefined;
	const worded = explained ?? generic(answer, method, endpoint, apiKey);
	const said = parsed.page
		? `The answer was not JSON (a proxy or gateway page?): "${answer.apiMessage ?? ''}". `
		: parsed.empty && !(statusCode >= 300 && statusCode < 400)
			? 'The answer had an empty body. '
			: answer.apiMessage
				? `The service said: "${answer.apiMessage}". `
				: '';
	const requestId = parsed.requestId ?? header(refused.headers, 'x-request-id');
	const reference = requestId ? ` Request ID for support: ${requestId}.` : '';
	return {
		message: redactSecrets(worded.message, apiKey),
		description: redactSecrets(`${said}${worded.hint}${reference}`.trim(), apiKey),
		code: answer.code,
		requestId,
	};
}

/** The n8n error of a refused request, with the service's code and request ID for support. */
export function apiError(node: INode, refused: Refused, itemIndex?: number): NodeApiError {
	const { message, description, code, requestId } = describeFailure(refused);
	const httpCode = String(refused.statusCode);
	const details: JsonObject = { message, code, httpCode, request_id: requestId ?? null };
	return new NodeApiError(node, details, { message, description, httpCode, itemIndex });
}

const UNREACHED = 'Could not reach the service';

/**
 * Whether a failed POST may have been processed (and charged): an answer that was no refusal (a
 * 5xx, an unreadable body), or none after it went out. A 4xx, or a request unsent or unreached, not.
 */
export function mayHaveBeenProcessed(error: unknown): boolean {
	if (!(error instanceof NodeApiError) || error.message === UNREACHED) return false;
	return !String(error.httpCode ?? '').startsWith('4');
}

/** A request that got no answer: what happened, and whether it can have been processed. */
export function breakageError(
	node: INode,
	failed: Sent & { breakage: Breakage; reason: string; origin: string },
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	const { breakage, method, endpoint, origin } = failed;
	const reason = redactSecrets(failed.reason, failed.apiKey);
	const blocked = ssrfRefusal(reason, new URL(origin).host);
	if (blocked)
		return new NodeOperationError(node, blocked.message, { itemIndex, description: blocked.hint });
	if (breakage.kind === 'unsent') {
		const { message, detail } = unsentWording(reason);
		const charged = method === 'POST' ? ' and nothing was charged' : '';
		return new NodeOperationError(node, message, {
			itemIndex,
			description: `${detail}n8n stopped ${method} ${endpoint} before it left this machine, so the service did not receive it${charged}.`,
		});
	}
	const unreached = neverReached(breakage);
	const message = unreached
		? UNREACHED
		: breakage.kind === 'timeout'
			? `The service did not answer in time (${reason})`
			: 'The connection to the service broke before it answered';
	const advice = unreached
		? `Check the credential's 'Base URL' (${origin}) and that the service is reachable from n8n.`
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
