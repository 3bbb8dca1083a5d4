import type {
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** How a request failed without an HTTP answer. */
export type Breakage =
	| { kind: 'timeout' }
	/** A system error code: the connection failed, before or after the request went out. */
	| { kind: 'network'; code: string }
	/** n8n refused or failed before sending (no system error code): nothing left this machine. */
	| { kind: 'unsent'; reason: string };

export interface Answer {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

/** An attempt's outcome: the HTTP answer, or why there was none, in words for the error. */
export type Exchange =
	| { response: Answer; breakage?: undefined }
	| { response?: undefined; breakage: Breakage; reason: string };

/** An answer's header by name, in any letter case; the first value of a repeated one. */
export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const key =
		headers && name in headers
			? name
			: Object.keys(headers ?? {}).find((candidate) => candidate.toLowerCase() === name);
	const value = key === undefined ? undefined : headers[key];
	return value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value);
}

function cancelSignal(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

export function cancelled(context: ApiContext): NodeOperationError {
	return new NodeOperationError(context.getNode(), 'The execution was cancelled');
}

/** The caller's deadline came before a request could finish: nothing is said about the service. */
export class DeadlineError extends NodeOperationError {}

/** The promise's value, or `{ done: false }` as soon as the signal aborts (a rejection passes). */
export async function settleBefore<T>(
	promise: Promise<T>,
	signal: AbortSignal,
): Promise<{ done: true; value: T } | { done: false }> {
	if (signal.aborted) return { done: false };
	let onAbort = () => undefined as unknown;
	const aborted = new Promise<{ done: false }>((resolve) => {
		onAbort = () => resolve({ done: false });
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise.then((value) => ({ done: true as const, value })), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/** Waits in steps of at most a second, and stops at once when the execution is cancelled. */
export async function pause(context: ApiContext, ms: number): Promise<void> {
	const signal = cancelSignal(context);
	for (let left = Math.max(0, ms); left > 0; left -= 1000) {
		if (signal?.aborted) throw cancelled(context);
		const step = sleep(Math.min(left, 1000));
		await (signal ? settleBefore(step, signal) : step);
	}
	if (signal?.aborted) throw cancelled(context);
}

/** The system error code (ECONNREFUSED, ...) anywhere in a wrapped error. */
export function networkCode(error: unknown): string | undefined {
	let current = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined;
	for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
		if (typeof current.code === 'string' && /^E[A-Z_]+$/.test(current.code)) return current.code;
		if (typeof current.message === 'string' && /socket hang up/i.test(current.message))
			return 'ECONNRESET';
		current = current.cause as typeof current;
	}
	return undefined;
}

/** Why an attempt got no answer, from the wrapped error n8n's helper threw. */
function noAnswer(error: unknown): Exchange {
	const code = networkCode(error);
	if (code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'ESOCKETTIMEDOUT')
		return { breakage: { kind: 'timeout' }, reason: 'timed out' };
	if (code) return { breakage: { kind: 'network', code }, reason: code };
	// The innermost message says what actually went wrong.
	let reason = error instanceof Error ? error.message : String(error);
	for (let at = (error as Error)?.cause, depth = 0; at instanceof Error && depth < 6; depth++) {
		reason = at.message || reason;
		at = at.cause;
	}
	return { breakage: { kind: 'unsent', reason }, reason };
}

/**
 * One HTTP exchange, with a deadline from the first byte sent to the last byte read (n8n's own
 * timeout is idle socket time, which a slowly dripping body never trips), and no redirect
 * followed: a key must never be carried to another address, and a file address is checked before
 * it is fetched. `credential` signs the request; files are fetched without it.
 */
export async function send(
	context: ApiContext,
	options: IHttpRequestOptions,
	timeoutMs: number,
	credential?: { type: string; decrypted: ICredentialsDecrypted },
): Promise<Exchange> {
	const cancel = cancelSignal(context);
	const deadline = AbortSignal.timeout(timeoutMs);
	const signal = cancel ? AbortSignal.any([cancel, deadline]) : deadline;
	const request: IHttpRequestOptions = {
		...options,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: timeoutMs,
		abortSignal: signal,
	};
	// n8n's authenticated helper replaces abortSignal with the execution's own cancel signal,
	// which it reads from its receiver: a receiver that answers with the combined signal keeps
	// the deadline. The race below holds the deadline even where a helper ignores the signal.
	const receiver = cancel
		? (Object.create(context, { getExecutionCancelSignal: { value: () => signal } }) as ApiContext)
		: context;
	const exchange = credential
		? context.helpers.httpRequestWithAuthentication.call(receiver, credential.type, request, {
				credentialsDecrypted: credential.decrypted,
			})
		: context.helpers.httpRequest(request);
	// Settled either way, so a late failure after the deadline is not an unhandled rejection.
	void exchange.catch(() => undefined);
	let outcome: { done: true; value: unknown } | { done: false };
	try {
		outcome = await settleBefore(exchange, signal);
	} catch (error) {
		if (cancel?.aborted) throw cancelled(context);
		return noAnswer(error);
	}
	if (outcome.done) return { response: outcome.value as Answer };
	if (cancel?.aborted) throw cancelled(context);
	const reason = `no complete answer within ${Math.round(timeoutMs / 1000)} s`;
	return { breakage: { kind: 'timeout' }, reason };
}
