import { API_KEY_PATTERN } from './constants';

/** What the node needs to raise a NodeApiError that a user can act on. */
export interface ApiFailure {
	message: string;
	description: string;
	httpCode: string;
	code: string;
	requestId?: string;
}

export interface FailureContext {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
	method: string;
	endpoint: string;
	apiKey: string;
	/** Credits the request would have cost, when known (for 402). */
	cost?: number;
	/** Credits available, when the node could read them (for 402). */
	available?: number;
}

const SECRET_PATTERN = /svc_[0-9a-z]{4,}/gi;
const BEARER_PATTERN = /Bearer\s+[^\s"',]+/gi;

/** Strips anything that looks like an API key from text that may reach the user or a log. */
export function redactSecrets(text: string, apiKey?: string): string {
	let out = text;
	if (apiKey) {
		out = out.split(apiKey).join('svc_…');
		// An echo may carry the secret part without its prefix, in any letter case.
		const secret = apiKey.trim().replace(/^svc_/i, '');
		if (secret.length >= 16) {
			const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
			out = out.replace(new RegExp(escaped, 'gi'), '…');
		}
	}
	return out.replace(SECRET_PATTERN, 'svc_…').replace(BEARER_PATTERN, 'Bearer …');
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers ?? {})) {
		if (key.toLowerCase() === wanted) {
			return Array.isArray(value)
				? String(value[0])
				: value === undefined
					? undefined
					: String(value);
		}
	}
	return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads either error shape of the service, or a page that is not JSON at all. */
export function parseErrorBody(body: unknown): {
	code?: string;
	apiMessage?: string;
	requestId?: string;
	kind: 'envelope' | 'flat' | 'text' | 'empty' | 'other';
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
	if (isObject(body)) {
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
	}
	return { kind: 'other' };
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

const SCOPE_BY_SEGMENT: Record<string, string> = {
	articles: 'articles',
	social: 'social',
	projects: 'projects',
	user: 'user',
};

export function requiredAccess(
	method: string,
	endpoint: string,
): { permission: string; scope: string } {
	const segment = endpoint.replace(/^\/+/, '').split(/[/?]/)[0];
	return {
		permission: method.toUpperCase() === 'GET' ? 'read' : 'write',
		scope: SCOPE_BY_SEGMENT[segment] ?? segment,
	};
}

function recordKind(endpoint: string): string {
	if (endpoint.startsWith('/articles')) return 'Article';
	if (endpoint.startsWith('/social')) return 'Social content';
	if (endpoint.startsWith('/projects')) return 'Project';
	return 'Record';
}

function formatCredits(value: number): string {
	return (Math.round(value * 100) / 100).toString();
}

/** Seconds to wait before retrying, from Retry-After or the rate-limit reset time. */
export function retryAfterSeconds(
	headers: Record<string, unknown>,
	nowMs: number,
): number | undefined {
	const retryAfter = header(headers, 'retry-after');
	if (retryAfter !== undefined) {
		const seconds = Number(retryAfter);
		if (Number.isFinite(seconds) && seconds >= 0) return seconds;
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, (date - nowMs) / 1000);
	}
	const reset = Number(header(headers, 'x-ratelimit-reset'));
	if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset - nowMs / 1000);
	return undefined;
}

/** Turns an error answer of the service into a message that says what to do about it. */
export function describeFailure(context: FailureContext): ApiFailure {
	const { statusCode, method, endpoint } = context;
	const parsed = parseErrorBody(context.body);
	const code = parsed.code ?? `HTTP_${statusCode}`;
	const apiMessage = parsed.apiMessage
		? redactSecrets(parsed.apiMessage, context.apiKey)
		: undefined;
	const requestId = parsed.requestId ?? header(context.headers, 'x-request-id');
	const access = requiredAccess(method, endpoint);
	const said = apiMessage ? `The service said: "${apiMessage}".` : '';
	let message: string;
	let hint: string;

	if (statusCode === 401 || code === 'UNAUTHORIZED' || code === 'INVALID_API_KEY') {
		message = 'The API key was not accepted (missing, invalid, expired or revoked)';
		hint = API_KEY_PATTERN.test(context.apiKey.trim())
			? 'Create a new key in the service and update the ContentGen credential.'
			: 'The key in the credential does not look like a ContentGen key: it should be "svc_" followed by 64 hexadecimal characters, copied whole when the key was created.';
	} else if (statusCode === 403) {
		message = `The API key may not do this: it needs the "${access.permission}" permission and the "${access.scope}" scope`;
		hint = `Create a key with permission "${access.permission}" and scope "${access.scope}" (keys cannot be edited), then update the credential.`;
	} else if (statusCode === 402 || code === 'INSUFFICIENT_CREDITS') {
		const needed = context.cost === undefined ? '' : `needs ${formatCredits(context.cost)} credits`;
		const available =
			context.available === undefined ? '' : `${formatCredits(context.available)} are available`;
		const figures = [needed, available].filter(Boolean).join(', ');
		message = `Not enough credits${figures ? `: this request ${figures}` : ''}`;
		hint = 'Nothing was charged. Top up credits or wait for the plan to renew, then run again.';
	} else if (statusCode === 404) {
		message =
			code === 'NOT_FOUND' && endpoint.split('/').length > 2
				? `${recordKind(endpoint)} not found: it does not exist or does not belong to this API key's account`
				: `Not found: ${method} ${endpoint} does not exist at this base URL`;
		hint =
			code === 'NOT_FOUND'
				? 'Check the ID (records of other accounts are reported as missing).'
				: 'Check the Base URL in the credential: it should be the service address, e.g. https://api.example.com.';
	} else if (statusCode === 409) {
		message = 'This social content has already been published';
		hint = 'Publishing again is refused by the service. Generate new content to post again.';
	} else if (statusCode === 412) {
		message = 'The social content cannot be published yet';
		hint =
			'Either it is still generating (wait for completion first, e.g. with the Wait for Completion operation) or the account has no connected social profile (connect one in the service).';
	} else if (statusCode === 429) {
		const wait = retryAfterSeconds(context.headers, Date.now());
		message = `Rate limit reached${wait === undefined ? '' : `: retry in ${Math.ceil(wait)} s`}`;
		hint = `The key's request budget is used up (limit ${header(context.headers, 'x-ratelimit-limit') ?? 'unknown'} per minute). Lower the workflow's request rate or raise the maximum rate-limit wait in the node's options.`;
	} else if (statusCode === 400 && code === 'NO_PROJECT') {
		message = 'The account has no project';
		hint =
			'Social content takes its brand context from a project: create one in the service first.';
	} else if (statusCode === 400) {
		message = 'The service rejected the request as invalid';
		hint = 'Check the parameters named in the message above.';
	} else if (statusCode >= 500) {
		message = `The service failed (HTTP ${statusCode})`;
		hint =
			method === 'GET'
				? 'The request was retried and kept failing. Try again later.'
				: 'The request was not sent again, because it may have been processed (and charged). Check with a Get Many before running again.';
	} else {
		message = `The service answered HTTP ${statusCode}`;
		hint = '';
	}

	if (parsed.kind === 'text') {
		hint = `The answer was not JSON (a proxy or gateway page?): "${apiMessage ?? ''}". ${hint}`;
	} else if (parsed.kind === 'empty') {
		hint = `The answer had an empty body. ${hint}`;
	} else if (apiMessage) {
		hint = `${said} ${hint}`;
	}
	const reference = requestId ? ` Request ID for support: ${requestId}.` : '';
	return {
		message: redactSecrets(message, context.apiKey),
		description: redactSecrets(`${hint}${reference}`.trim(), context.apiKey),
		httpCode: String(statusCode),
		code,
		requestId,
	};
}
