/**
 * An answer the service refused: its status and body read into words that say what to do, and the
 * n8n error the request ends with.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { API_KEY_PATTERN } from '../constants';
import { requiredAccess, routeWording } from '../routes';
import { header } from './http';
import { redactSecrets } from './redaction';
import { retryAfterSeconds } from './retry';

/** What the user reads when the service refuses a request. */
export interface Failure {
	message: string;
	description: string;
	httpCode: string;
	code: string;
	requestId?: string;
}

/** An error answer as the service gave it, already parsed. */
export interface ErrorAnswer {
	statusCode: number;
	code: string;
	/** The service's own words, redacted. */
	apiMessage?: string;
	headers: Record<string, unknown>;
}

/** Wording of a status that only one operation can explain (a publish's 409, a generate's 402). */
export type Explain = (answer: ErrorAnswer) => { message: string; hint: string } | undefined;

interface FailureContext {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
	method: string;
	endpoint: string;
	apiKey: string;
	explain?: Explain;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first readable words of an HTML or text page, without markup. */
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

type BodyKind = 'envelope' | 'flat' | 'text' | 'empty' | 'other';

/** Reads either error shape of the service, or a page that is not JSON at all. */
export function parseErrorBody(body: unknown): {
	code?: string;
	apiMessage?: string;
	requestId?: string;
	kind: BodyKind;
} {
	if (body === undefined || body === null || body === '') return { kind: 'empty' };
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (trimmed.startsWith('{')) {
			try {
				return parseErrorBody(JSON.parse(trimmed));
			} catch {
				return { kind: 'text', apiMessage: summariseText(trimmed) };
			}
		}
		return { kind: 'text', apiMessage: summariseText(trimmed) };
	}
	if (!isObject(body)) return { kind: 'other' };
	const meta = isObject(body.meta) ? body.meta : undefined;
	const requestId = typeof meta?.request_id === 'string' ? meta.request_id : undefined;
	if (isObject(body.error)) {
		return {
			kind: 'envelope',
			code: typeof body.error.code === 'string' ? body.error.code : undefined,
			apiMessage: typeof body.error.message === 'string' ? body.error.message : undefined,
			requestId,
		};
	}
	if (typeof body.error === 'string') return { kind: 'flat', apiMessage: body.error, requestId };
	if (typeof body.message === 'string')
		return { kind: 'flat', apiMessage: body.message, requestId };
	return { kind: 'other' };
}

/** Whether the service refused the API key itself (rather than what the key may do). */
export function isAuthRefusal(statusCode: number, code: string | undefined): boolean {
	return statusCode === 401 || code === 'UNAUTHORIZED' || code === 'INVALID_API_KEY';
}

function authHint(apiKey: string): string {
	return API_KEY_PATTERN.test(apiKey.trim())
		? 'Create a new key in the service and update the ContentGen credential.'
		: 'The key in the credential does not look like a ContentGen key: it should be "svc_" followed by 64 hexadecimal characters, copied whole when the key was created.';
}

/** The statuses every route can answer, in words that say what to do. */
function generic(
	answer: ErrorAnswer,
	method: string,
	endpoint: string,
	apiKey: string,
): { message: string; hint: string } {
	const { statusCode, code } = answer;
	const access = requiredAccess(method, endpoint);
	if (isAuthRefusal(statusCode, code)) {
		return {
			message: 'The API key was not accepted (missing, invalid, expired or revoked)',
			hint: authHint(apiKey),
		};
	}
	if (statusCode === 403) {
		return {
			message: `The API key may not do this: it needs the "${access.permission}" permission and the "${access.scope}" scope`,
			hint: `Create a key with permission "${access.permission}" and scope "${access.scope}" (keys cannot be edited), then update the credential.`,
		};
	}
	if (statusCode === 402 || code === 'INSUFFICIENT_CREDITS') {
		return {
			message: 'Not enough credits',
			hint: 'Nothing was charged. Top up credits or wait for the plan to renew, then run again.',
		};
	}
	const special = routeWording(answer, method, endpoint);
	if (special) return special;
	if (statusCode === 404) {
		return {
			message: 'Nothing was found at this address of the service',
			hint: `The credential's 'Base URL' may not be the service's address: it should be the address the service gave you, e.g. https://api.example.com. (The request was ${method} ${endpoint}.)`,
		};
	}
	if (statusCode === 429) {
		const wait = retryAfterSeconds(answer.headers, Date.now());
		return {
			message: `Rate limit reached${wait === undefined ? '' : `: retry in ${Math.ceil(wait)} s`}`,
			hint: `The key's request budget is used up (limit ${header(answer.headers, 'x-ratelimit-limit') ?? 'unknown'} per minute). Lower the workflow's request rate or raise 'Max Rate-Limit Wait' in the node's Options.`,
		};
	}
	if (statusCode === 400) {
		return {
			message: 'The service rejected the request as invalid',
			hint: 'Check the parameters named in the message above.',
		};
	}
	if (statusCode >= 500) {
		return {
			message: `The service could not handle the request (HTTP ${statusCode})`,
			hint:
				method === 'GET'
					? 'The request was sent again and the service kept answering the same. Try again later.'
					: 'The request was not sent again, because it may have been processed (and charged). Check with a Get Many before running again.',
		};
	}
	if (statusCode >= 300 && statusCode < 400) {
		const location = header(answer.headers, 'location') ?? 'another address';
		return {
			message: `The service answered with a redirect (HTTP ${statusCode}), which is not followed`,
			hint: `It pointed to ${redactSecrets(location, apiKey).slice(0, 300)}. The API key is sent only to the credential's 'Base URL': if the service has moved, update the 'Base URL'.`,
		};
	}
	return {
		message: 'The service gave an answer the node does not know',
		hint: `It answered with status ${statusCode}. Try again later; if it keeps answering so, give the service's support the request ID shown in these details.`,
	};
}

/** Turns an error answer of the service into a message that says what to do about it. */
export function describeFailure(context: FailureContext): Failure {
	const { statusCode, method, endpoint, apiKey } = context;
	const parsed = parseErrorBody(context.body);
	const answer: ErrorAnswer = {
		statusCode,
		code: parsed.code ?? `HTTP_${statusCode}`,
		apiMessage: parsed.apiMessage ? redactSecrets(parsed.apiMessage, apiKey) : undefined,
		headers: context.headers,
	};
	const worded = context.explain?.(answer) ?? generic(answer, method, endpoint, apiKey);
	let hint = worded.hint;
	if (parsed.kind === 'text') {
		hint = `The answer was not JSON (a proxy or gateway page?): "${answer.apiMessage ?? ''}". ${hint}`;
	} else if (parsed.kind === 'empty' && !(statusCode >= 300 && statusCode < 400)) {
		hint = `The answer had an empty body. ${hint}`;
	} else if (answer.apiMessage) {
		hint = `The service said: "${answer.apiMessage}". ${hint}`;
	}
	const requestId = parsed.requestId ?? header(context.headers, 'x-request-id');
	const reference = requestId ? ` Request ID for support: ${requestId}.` : '';
	return {
		message: redactSecrets(worded.message, apiKey),
		description: redactSecrets(`${hint}${reference}`.trim(), apiKey),
		httpCode: String(statusCode),
		code: answer.code,
		requestId,
	};
}

/** The n8n error of a refused request, with the service's code and request id for support. */
export function apiError(node: INode, failure: Failure, itemIndex?: number): NodeApiError {
	const details: JsonObject = {
		message: failure.message,
		code: failure.code,
		httpCode: failure.httpCode,
		request_id: failure.requestId ?? null,
	};
	return new NodeApiError(node, details, {
		message: failure.message,
		description: failure.description,
		httpCode: failure.httpCode,
		itemIndex,
	});
}
