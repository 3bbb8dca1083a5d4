import type {
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

/** How a request failed without an HTTP answer. */
export type Breakage =
	| { kind: 'timeout' }
	/** A system error code: the connection failed, before or after the request went out. */
	| { kind: 'network'; code: string }
	/** n8n refused or failed before sending (no system error code): nothing left this machine. */
	| { kind: 'unsent'; reason: string };

/** An attempt's outcome: the HTTP answer, or why there was none (the retry policy reads it). */
export type Exchange =
	| { response: FullResponse; breakage?: undefined }
	| { response?: undefined; breakage: Breakage; reason: string };

/** An answer's header by name, in any letter case; the first value of a repeated one. */
export function header(headers: Record<string, unknown>, name: string): string | undefined {
	let value = headers?.[name];
	if (value === undefined) {
		for (const key of Object.keys(headers ?? {}))
			if (key.toLowerCase() === name) value = headers[key];
	}
	if (Array.isArray(value)) value = value[0];
	return value === undefined ? undefined : String(value);
}

function cancelSignal(context: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
}

export function cancelled(context: ApiContext): NodeOperationError {
	return new NodeOperationError(context.getNode(), 'The execution was cancelled');
}

/** The caller's deadline came before a request could finish: nothing is said about the service. */
export class DeadlineError extends NodeOperationError {}

/**
 * The promise's value, or `{ done: false }` as soon as the signal aborts (its rejection, if it
 * comes first, passes through). The abort listener is removed either way.
 */
export async function settleBefore<T>(
	promise: Promise<T>,
	signal: AbortSignal,
): Promise<{ done: true; value: T } | { done: false }> {
	if (signal.aborted) return { done: false };
	let onAbort: () => void = () => undefined;
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
	let current: unknown = error;
	for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
		const { code, cause, message } = current as {
			code?: unknown;
			cause?: unknown;
			message?: unknown;
		};
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
		if (typeof message === 'string' && /socket hang up/i.test(message)) return 'ECONNRESET';
		current = cause;
	}
	return undefined;
}

/** What went wrong, from the innermost message of a wrapped error. */
function breakageOf(error: unknown): Breakage {
	const code = networkCode(error);
	if (code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'ESOCKETTIMEDOUT')
		return { kind: 'timeout' };
	if (code) return { kind: 'network', code };
	let reason = error instanceof Error ? error.message : String(error);
	let current: unknown = (error as { cause?: unknown })?.cause;
	for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
		if (current.message) reason = current.message;
		current = (current as { cause?: unknown }).cause;
	}
	return { kind: 'unsent', reason };
}

export interface Attempt {
	request: IHttpRequestOptions;
	timeoutMs: number;
	/** Set for API calls: the request is signed with the credential; files are fetched without it. */
	credential?: { type: string; decrypted: ICredentialsDecrypted };
}

/**
 * One HTTP exchange, with a deadline from the first byte sent to the last byte read (n8n's own
 * timeout is idle socket time, which a slowly dripping body never trips), and no redirect
 * followed: a key must never be carried to another address, and a file address is checked before
 * it is fetched.
 */
export async function send(context: ApiContext, attempt: Attempt): Promise<Exchange> {
	const deadline = AbortSignal.timeout(attempt.timeoutMs);
	const cancel = cancelSignal(context);
	const signal = cancel ? AbortSignal.any([cancel, deadline]) : deadline;
	const request: IHttpRequestOptions = {
		...attempt.request,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: attempt.timeoutMs,
		abortSignal: signal,
	};
	// n8n's authenticated helper replaces abortSignal with the execution's own cancel signal,
	// which it reads from its receiver: a receiver that answers with the combined signal keeps
	// the deadline. The race below holds the deadline even where a helper ignores the signal.
	const receiver = cancel
		? (Object.create(context, { getExecutionCancelSignal: { value: () => signal } }) as ApiContext)
		: context;
	const { credential } = attempt;
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
		const breakage = breakageOf(error);
		const reason =
			breakage.kind === 'timeout'
				? 'timed out'
				: breakage.kind === 'network'
					? breakage.code
					: breakage.reason;
		return { breakage, reason };
	}
	if (outcome.done) return { response: outcome.value as FullResponse };
	if (cancel?.aborted) throw cancelled(context);
	const seconds = Math.round(attempt.timeoutMs / 1000);
	return { breakage: { kind: 'timeout' }, reason: `no complete answer within ${seconds} s` };
}
