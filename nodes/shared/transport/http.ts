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

export type Answer = { body: unknown; headers: Record<string, unknown>; statusCode: number };

/** An attempt's outcome: the answer, or why there was none (`reason`, in words for an error). */
export type Exchange =
	| { response: Answer; breakage?: undefined }
	| { response?: undefined; breakage: Breakage; reason: string };

/** A header by its lower-case name, in any letter case; the first value of a repeated one. */
export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const key =
		headers && name in headers
			? name
			: Object.keys(headers ?? {}).find((candidate) => candidate.toLowerCase() === name);
	const value = key === undefined ? undefined : headers[key];
	return value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value);
}

const cancelSignal = (context: ApiContext) =>
	'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;

export const cancelled = (context: ApiContext) =>
	new NodeOperationError(context.getNode(), 'The execution was cancelled');

/** The caller's deadline came before a request could finish: nothing is said about the service. */
export class DeadlineError extends NodeOperationError {}

/** The promise's value, or `{ done: false }` as soon as the signal aborts; a rejection passes. */
export async function settleBefore<T>(
	promise: Promise<T>,
	signal: AbortSignal,
): Promise<{ done: true; value: T } | { done: false }> {
	if (signal.aborted) return { done: false };
	let onAbort = () => {};
	const aborted = new Promise<{ done: false }>((resolve) => {
		signal.addEventListener('abort', (onAbort = () => resolve({ done: false })), { once: true });
	});
	try {
		return await Promise.race([promise.then((value) => ({ done: true as const, value })), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/** Stops at once when the execution is cancelled; steps of a second bound the timer left behind. */
export async function pause(context: ApiContext, ms: number): Promise<void> {
	const signal = cancelSignal(context);
	for (let left = Math.max(0, ms); left > 0; left -= 1000) {
		if (signal?.aborted) throw cancelled(context);
		const step = sleep(Math.min(left, 1000));
		await (signal ? settleBefore(step, signal) : step);
	}
	if (signal?.aborted) throw cancelled(context);
}

// What n8n and the system say of an attempt with no answer, in words a message can carry: n8n
// replaces a message that names a system error code with its own generic sentence, so codes go in
// descriptions.

/** A wrapped error and its causes, outermost first (a string stands for its own message). */
function causes(error: unknown): Array<{ code?: unknown; message?: unknown }> {
	const chain = [];
	for (let at = error, depth = 0; at !== undefined && at !== null && depth < 6; depth++) {
		chain.push(
			typeof at === 'string' ? { message: at } : (at as { code?: unknown; message?: unknown }),
		);
		at = typeof at === 'object' ? (at as { cause?: unknown }).cause : undefined;
	}
	return chain;
}

export function networkCode(error: unknown): string | undefined {
	for (const { code, message } of causes(error)) {
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
		if (typeof message === 'string' && /socket hang up/i.test(message)) return 'ECONNRESET';
	}
	return undefined;
}

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
	EHOSTUNREACH: 'the host cannot be reached from this n8n',
	ENETUNREACH: 'the network cannot be reached from this n8n',
	ERR_TLS_CERT_ALTNAME_INVALID: 'the TLS certificate is for another name',
};

export const networkCause = (code: string | undefined) =>
	(code && CAUSES[code]) || 'the connection broke';

const SSRF_REFUSAL =
	/The request was blocked because (it resolves to a restricted IP address|the destination hostname is restricted)/;

/** The sentence and what to do when n8n's SSRF protection, not the service, stopped a request. */
export function ssrfRefusal(error: unknown, host: string) {
	if (!causes(error).some(({ message }) => SSRF_REFUSAL.test(String(message)))) return undefined;
	return {
		message: `n8n's SSRF protection blocked the request to ${host}`,
		hint: `This n8n runs with N8N_SSRF_PROTECTION_ENABLED, which refuses loopback, private and deny-listed addresses unless they are allowed. Ask the n8n administrator to add the host to N8N_SSRF_ALLOWED_HOSTNAMES or its address to N8N_SSRF_ALLOWED_IP_RANGES (then restart n8n); nothing is wrong with the address itself.`,
	};
}

/** A request n8n did not send: its reason in the message, unless n8n would replace the message. */
export function unsentWording(reason: string): { message: string; detail: string } {
	return REWRITTEN_CODES.some((code) => reason.toUpperCase().includes(code))
		? { message: 'The request could not be sent', detail: `Reason: ${reason}. ` }
		: { message: `The request could not be sent: ${reason}`, detail: '' };
}

function noAnswer(error: unknown): Exchange {
	const code = networkCode(error);
	if (code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'ESOCKETTIMEDOUT')
		return { breakage: { kind: 'timeout' }, reason: 'timed out' };
	if (code) return { breakage: { kind: 'network', code }, reason: code };
	// The innermost message says what actually went wrong.
	const said = causes(error).map(({ message }) => message);
	const reason = String(said.filter((message) => message).pop() ?? error);
	return { breakage: { kind: 'unsent', reason }, reason };
}

/**
 * One exchange, with a deadline from the first byte sent to the last read (n8n's own timeout is
 * idle socket time, which a dripping body never trips), no redirect followed (a key is never
 * carried elsewhere, a file's address is checked first), signed only when a `credential` is given.
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
	const outcome = await settleBefore(exchange, signal).catch((error: unknown) => ({ error }));
	if ('done' in outcome && outcome.done) return { response: outcome.value as Answer };
	if (cancel?.aborted) throw cancelled(context);
	if ('error' in outcome) return noAnswer(outcome.error);
	const reason = `no complete answer within ${Math.round(timeoutMs / 1000)} s`;
	return { breakage: { kind: 'timeout' }, reason };
}
