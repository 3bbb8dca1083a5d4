import type { FaultDecision } from './faults';
import type { Reply } from './http';
import { ApiError } from './store';
import { errorReply } from './wire';

/** A 429 as the service sends it, whether a key ran out or a storm is simulated. */
export function rateLimitReply(
	retryAfter: number,
	requestId: string,
	now: number,
	headers: Record<string, string>,
): Reply {
	const r = errorReply(
		new ApiError(
			429,
			'RATE_LIMIT_EXCEEDED',
			`Rate limit exceeded: retry after ${retryAfter} seconds`,
		),
		requestId,
		now,
	);
	r.headers = { ...headers, 'Retry-After': String(retryAfter) };
	return r;
}

const SERVER_ERRORS: Record<number, [string, string]> = {
	500: ['INTERNAL_ERROR', 'An unexpected error occurred'],
	502: ['BAD_GATEWAY', 'Upstream service returned an invalid response'],
	503: ['SERVICE_UNAVAILABLE', 'The service is temporarily unavailable'],
	504: ['GATEWAY_TIMEOUT', 'The upstream service timed out'],
};

/** What an injected fault puts on the wire; `real` is the processed reply when there was one. */
export function faultReply(
	d: FaultDecision,
	real: Reply | undefined,
	requestId: string,
	now: number,
): Reply | 'drop' {
	switch (d.fault) {
		case 'drop':
			return 'drop';
		case 'malformed': {
			const text = JSON.stringify(
				real?.body ?? { success: true, data: { id: requestId, status: 'ok' } },
			);
			return {
				status: 200,
				raw: text.slice(0, Math.max(1, Math.floor(text.length / 2))),
				contentType: 'application/json',
			};
		}
		case 'html':
			return {
				status: 502,
				contentType: 'text/html; charset=utf-8',
				raw:
					'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n' +
					'<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
			};
		default: {
			const status = d.serverStatus ?? 500;
			const [code, message] = SERVER_ERRORS[status];
			return errorReply(new ApiError(status, code, message), requestId, now);
		}
	}
}
