import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { API_KEY_PATTERN } from './constants';
import { redactSecrets } from './transport/redaction';
import { isAuthRefusal, parseErrorBody, summariseText } from './transport/refusals';
import { type Answer, header, networkCode, settleBefore, ssrfRefusal } from './transport/http';
import { type AddressError, apiUrl, parseBaseUrl, type ServiceRoot } from './transport/origin';
import { retryAfterSeconds } from './transport/retry';

const TEST_TIMEOUT_MS = 15_000;

/** Sentences for the network failures a wrong Base URL produces. */
const NETWORK_SENTENCES: Record<string, (host: string) => string> = {
	ECONNREFUSED: (host) => `Nothing accepted the connection at ${host} (connection refused)`,
	ENOTFOUND: (host) => `The host name ${host} could not be found (no DNS record)`,
	EAI_AGAIN: (host) =>
		`The host name ${host} could not be looked up right now (DNS did not answer)`,
	ECONNRESET: (host) => `${host} closed the connection before answering`,
	ETIMEDOUT: (host) => `${host} did not answer in time`,
	ECONNABORTED: (host) => `${host} did not answer in time`,
	EHOSTUNREACH: (host) => `${host} cannot be reached from this n8n (no route to host)`,
	ENETUNREACH: (host) => `${host} cannot be reached from this n8n (network unreachable)`,
	CERT_HAS_EXPIRED: (host) => `The TLS certificate of ${host} has expired`,
	DEPTH_ZERO_SELF_SIGNED_CERT: (host) => `${host} presents a self-signed TLS certificate`,
	ERR_TLS_CERT_ALTNAME_INVALID: (host) => `The TLS certificate of ${host} is for another name`,
};

function networkSentence(error: unknown, root: ServiceRoot): string {
	const host = new URL(root.origin).host;
	const blocked = ssrfRefusal(error, host);
	if (blocked) return `${blocked.message}. ${blocked.hint}`;
	const code = networkCode(error) ?? (error as { code?: string })?.code;
	const sentence = code ? NETWORK_SENTENCES[code]?.(host) : undefined;
	const detail =
		sentence ??
		`Could not connect to ${host} (${code ?? (error as Error)?.message ?? 'no reason given'})`;
	return `${detail}. Check the 'Base URL' (the service's address, e.g. https://api.example.com) and that n8n can reach it.`;
}

function serviceSaid(body: unknown, apiKey: string): string {
	const said = parseErrorBody(body).apiMessage;
	return said ? ` The service said: "${redactSecrets(said, apiKey)}".` : '';
}

function isCreditsEnvelope(body: unknown): boolean {
	if (typeof body !== 'object' || body === null) return false;
	const { success, data } = body as { success?: unknown; data?: unknown };
	return (
		success === true && typeof data === 'object' && data !== null && 'available_credits' in data
	);
}

function describeBody(body: unknown): string {
	if (typeof body === 'string') return summariseText(body) || 'an empty page';
	return summariseText(JSON.stringify(body ?? null));
}

/** What an answer to GET /user/credits says about the credential. */
function verdict(answer: Answer, root: ServiceRoot, apiKey: string): INodeCredentialTestResult {
	const { statusCode, body, headers } = answer;
	const error = (message: string): INodeCredentialTestResult => ({
		status: 'Error',
		message: redactSecrets(message, apiKey),
	});
	if (statusCode >= 200 && statusCode < 300) {
		if (isCreditsEnvelope(body)) return { status: 'OK', message: 'Connection successful' };
		return error(
			`${root.origin} answered, but not the ContentGen API (got ${describeBody(body)}). Check the 'Base URL': it should be the service's address, e.g. https://api.example.com.`,
		);
	}
	if (statusCode >= 300 && statusCode < 400) {
		return error(
			`The service answered with a redirect to ${header(headers, 'location') ?? 'another address'}, which is not followed: the API key is sent only to the 'Base URL'. If the service has moved, put its new address in the 'Base URL'.`,
		);
	}
	const code = parseErrorBody(body).code;
	if (isAuthRefusal(statusCode, code)) {
		const hint = API_KEY_PATTERN.test(apiKey)
			? 'Create a new key in the service and paste it here.'
			: 'A key is "svc_" followed by 64 hexadecimal characters, copied whole when it was created.';
		return error(`The API key was not accepted.${serviceSaid(body, apiKey)} ${hint}`);
	}
	if (statusCode === 403) {
		return error(
			`The key was accepted but may not read the credit balance, which this test reads: it needs the "read" permission and the "user" scope.${serviceSaid(body, apiKey)} Operations on its other scopes may still work.`,
		);
	}
	if (statusCode === 404) {
		return error(
			`No ContentGen API at this 'Base URL': ${apiUrl(root, '/user/credits')} was not found. Check the address: it should be the service's address, e.g. https://api.example.com.`,
		);
	}
	if (statusCode === 429) {
		const wait = retryAfterSeconds(headers, Date.now());
		return {
			status: 'OK',
			message: `The key was accepted; the service is rate limiting it right now${wait ? ` (retry in ${Math.ceil(wait)} s)` : ''}`,
		};
	}
	return error(
		`The service gave an answer the test does not know (status ${statusCode}${typeof body === 'string' ? `: ${describeBody(body)}` : ''}).${serviceSaid(body, apiKey)} Try again later.`,
	);
}

/**
 * The credential's Test button: reads the credit balance, as cheap a request as the API has, and
 * tells apart a wrong address, a rejected key and a key without the scope. The key goes only to
 * the Base URL's origin over https (plain http only to this machine, or to a private address the
 * credential allows), and no redirect is followed.
 */
export async function testContentGenCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	let root: ServiceRoot;
	try {
		root = parseBaseUrl(data.baseUrl, data);
	} catch (error) {
		return { status: 'Error', message: (error as AddressError).sentence };
	}
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey.trim() : '';
	if (!apiKey)
		return {
			status: 'Error',
			message: 'Enter the API key ("svc_" followed by 64 hexadecimal characters)',
		};
	// Credential tests are given only n8n's legacy request helper.
	const { helpers } = this;
	const exchange = helpers.request({
		method: 'GET',
		uri: apiUrl(root, '/user/credits'),
		headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
		json: true,
		resolveWithFullResponse: true,
		simple: false,
		followRedirect: false,
		followAllRedirects: false,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: TEST_TIMEOUT_MS,
	}) as Promise<Answer>;
	void exchange.catch(() => undefined);
	let answer: { done: true; value: Answer } | { done: false };
	try {
		answer = await settleBefore(exchange, AbortSignal.timeout(TEST_TIMEOUT_MS));
	} catch (error) {
		return { status: 'Error', message: redactSecrets(networkSentence(error, root), apiKey) };
	}
	if (!answer.done) {
		return {
			status: 'Error',
			message: `${new URL(root.origin).host} did not answer within ${TEST_TIMEOUT_MS / 1000} s. Check the 'Base URL' and that n8n can reach it.`,
		};
	}
	return verdict(answer.value, root, apiKey);
}
