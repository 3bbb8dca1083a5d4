import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	type Breakage,
	header,
	networkCause,
	pause,
	send,
	settleBefore,
	ssrfRefusal,
} from './http';
import { AddressError, checkDownloadUrl, type ServiceRoot } from './origin';
import { backoffMs, retryIn } from './retry';

const megabytes = (bytes: number) =>
	bytes >= 1024 * 1024
		? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
		: `${Math.ceil(bytes / 1024)} KB`;

/** The body, read only up to `maxBytes`: a larger file is not pulled whole into memory. */
async function readBounded(body: unknown, maxBytes: number, tooLarge: (bytes: number) => Error) {
	if (typeof body === 'string' || body instanceof ArrayBuffer || Buffer.isBuffer(body)) {
		const data = Buffer.isBuffer(body) ? body : Buffer.from(body as string);
		if (data.length > maxBytes) throw tooLarge(data.length);
		return data;
	}
	const stream = body as AsyncIterable<Buffer | string> & { destroy?: () => void };
	const chunks: Buffer[] = [];
	let total = 0;
	for await (const chunk of stream) {
		chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
		total += chunks[chunks.length - 1].length;
		if (total > maxBytes) {
			stream.destroy?.();
			throw tooLarge(total);
		}
	}
	return Buffer.concat(chunks);
}

const discard = (body: unknown) => (body as { destroy?: () => void } | undefined)?.destroy?.();

/** An image that could not be had: what and why in the message, then the item's fate. */
export function imageFailure(
	message: string,
	detail: string,
): { message: string; description: string } {
	const fate =
		"The content record was read, but this item was not output: an item comes with all the images asked for or not at all. Turn off 'Download Images' to get the image URLs instead.";
	return { message, description: `${detail} ${fate}`.trim() };
}

/** A download that got no answer: the cause in words; a system error code only in the description. */
export function breakageFailure(label: string, target: URL, breakage: Breakage, reason: string) {
	const blocked = breakage.kind === 'unsent' ? ssrfRefusal(reason, target.host) : undefined;
	const [cause, detail] = blocked
		? [blocked.message, `${blocked.hint} `]
		: breakage.kind === 'unsent'
			? ['n8n did not send the request', `Reason: ${reason}. `]
			: breakage.kind === 'timeout'
				? ['no answer came in time', '']
				: [networkCause(breakage.code), `System code: ${breakage.code}. `];
	return imageFailure(
		`Could not download the ${label} from ${target.host}: ${cause}`,
		`${detail}Address: ${target.toString()}`,
	);
}

/**
 * Downloads a file the service linked to (a generated image): without the key, only from the
 * addresses ./origin allows, no redirect followed (its target would go unchecked), size bounded
 * while reading, and the deadline and retries of a GET of the API.
 */
export async function downloadFile(
	context: IExecuteFunctions,
	service: ServiceRoot,
	url: string,
	maxBytes: number,
	options: { label: string; itemIndex: number; timeoutMs: number },
): Promise<{ data: Buffer; bytes: number; mimeType?: string; fileName?: string }> {
	const { label, itemIndex, timeoutMs } = options;
	const error = (wording: { message: string; description: string }) =>
		new NodeOperationError(context.getNode(), wording.message, { itemIndex, ...wording });
	const fail = (message: string, detail: string) => error(imageFailure(message, detail));
	const refused = (why: string, address: string) =>
		fail(
			`The ${label} was not downloaded: ${why}`,
			`Generated images are fetched only from public https addresses (or the service's own address when it runs on this machine). Address: ${address.slice(0, 300)}`,
		);
	let target: URL;
	try {
		target = checkDownloadUrl(url, service);
	} catch (refusal) {
		throw refused((refusal as AddressError).message, url);
	}
	const { host } = target;
	const tooLarge = (bytes: number) =>
		fail(
			`The ${label} from ${host} is larger than the maximum image size (${megabytes(bytes)} > ${megabytes(maxBytes)})`,
			"Raise 'Max Image Size (MB)' in the options.",
		);
	for (let transient = 0; ; transient++) {
		const request = { method: 'GET' as const, url: target.toString(), encoding: 'stream' as const };
		const exchange = await send(context, request, timeoutMs);
		const { response } = exchange;
		if (response && response.statusCode >= 200 && response.statusCode < 300) {
			const headers = response.headers ?? {};
			const declared = Number(header(headers, 'content-length'));
			if (Number.isFinite(declared) && declared > maxBytes) {
				discard(response.body);
				throw tooLarge(declared);
			}
			// The body streams after the headers: it gets a deadline of its own.
			const reading = readBounded(response.body, maxBytes, tooLarge);
			const read = await settleBefore(reading, AbortSignal.timeout(timeoutMs));
			if (!read.done) {
				discard(response.body);
				throw fail(
					`Could not download the ${label} from ${host}: no complete answer within ${Math.round(timeoutMs / 1000)} s`,
					`Raise 'Request Timeout' in the options. Address: ${target.toString()}`,
				);
			}
			const type = header(headers, 'content-type')?.split(';')[0].trim().toLowerCase();
			const name = target.pathname.split('/').filter(Boolean).pop();
			let fileName: string | undefined;
			try {
				fileName = name && decodeURIComponent(name);
			} catch {
				fileName = name;
			}
			return { data: read.value, bytes: read.value.length, mimeType: type || undefined, fileName };
		}
		discard(response?.body);
		// A file host's Retry-After never shortens the backoff, and its 429 is not waited out.
		const again = retryIn('GET', exchange, { transient, rateLimited: 0 }, Date.now());
		if (again && !again.rateLimited) {
			await pause(context, backoffMs(transient));
			continue;
		}
		if (exchange.breakage)
			throw error(breakageFailure(label, target, exchange.breakage, exchange.reason));
		const { statusCode } = exchange.response;
		if (statusCode >= 300 && statusCode < 400)
			throw refused(`${host} answered with a redirect, which is not followed`, target.toString());
		throw fail(
			`Could not download the ${label} from ${host}: it answered HTTP ${statusCode}`,
			`Address: ${target.toString()}`,
		);
	}
}
