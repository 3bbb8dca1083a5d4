/**
 * The errors a request ends with: an answer the service refused, or no answer at all. What the
 * failure means comes from ./errors (statuses) and ./causes (network reasons); this builds n8n's
 * error objects from them, with the system error code kept out of the message.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ssrfRefusal, unsentWording } from './causes';
import { redactSecrets, type Failure } from './errors';
import type { Breakage } from './http';
import { isNeverReached } from './retry';

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
		const unsent = unsentWording(reason);
		return new NodeOperationError(node, unsent.message, {
			itemIndex,
			description: `${unsent.detail}n8n stopped ${method} ${endpoint} before it left this machine, so the service did not receive it${method === 'POST' ? ' and nothing was charged' : ''}.`,
		});
	}
	const neverReached = isNeverReached(breakage);
	// n8n rewrites messages that contain system error codes, so the code goes in the description.
	const message = neverReached
		? UNREACHED
		: breakage.kind === 'timeout'
			? `The service did not answer in time (${reason})`
			: 'The connection to the service broke before it answered';
	const advice = neverReached
		? `Check the credential's 'Base URL' (${service.origin}) and that the service is reachable from n8n.`
		: method === 'GET'
			? "The request was retried and kept failing. Try again later, or raise 'Request Timeout' in the node's Options."
			: 'The request was not sent again, because it may have reached the service (and been charged). Check with a Get Many before running again.';
	const detail = breakage.kind === 'network' ? ` System code: ${breakage.code}.` : '';
	return new NodeApiError(
		node,
		{ message, network: breakage.kind === 'network' ? breakage.code : breakage.kind },
		{ message, description: `${advice}${detail}`, itemIndex },
	);
}
