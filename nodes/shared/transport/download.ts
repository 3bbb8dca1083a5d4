import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { networkCause, ssrfRefusal } from './breakage';
import { type Breakage, header, pause, send, settleBefore } from './http';
import { AddressError, checkDownloadUrl, type ServiceRoot } from './origin';
import { backoffMs, retryIn } from './retry';

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
	bytes: number;
}

function formatBytes(bytes: number): string {
	return bytes >= 1024 * 1024
		? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
		: `${Math.ceil(bytes / 1024)} KB`;
}

function fileNameOf(url: URL): string | undefined {
	const last = url.pathname.split('/').filter(Boolean).pop();
	try {
		return last ? decodeURIComponent(last) : undefined;
	} catch {
		return last;
	}
}

/** The body, read only up to `maxBytes`: a larger file is not pulled whole into memory. */
async function readBounded(
	body: unknown,
	maxBytes: number,
	tooLarge: (bytes: number) => Error,
): Promise<Buffer> {
	if (typeof body === 'string' || body instanceof ArrayBuffer || Buffer.isBuffer(body)) {
		const data = Buffer.isBuffer(body) ? body : Buffer.from(body as string);
		if (data.length > maxBytes) throw tooLarge(data.length);
		return data;
	}
	const stream = body as AsyncIterable<Buffer | string> & { destroy?: () => void };
	const chunks: Buffer[] = [];
	let total = 0;
	for await (const chunk of stream) {
		const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		total += piece.length;
		if (total > maxBytes) {
			stream.destroy?.();
			throw tooLarge(total);
		}
		chunks.push(piece);
	}
	return Buffer.concat(chunks);
}

function discard(body: unknown): void {
	(body as { destroy?: () => void } | undefined)?.destroy?.();
}

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
export function breakageFailure(
	label: string,
	target: URL,
	breakage: Breakage,
	reason: string,
): { message: string; description: string } {
	const blocked = breakage.kind === 'unsent' ? ssrfRefusal(reason, target.host) : undefined;
	const cause =
		blocked?.message ??
		(breakage.kind === 'unsent'
			? 'n8n did not send the request'
			: breakage.kind === 'timeout'
				? 'no answer came in time'
				: networkCause(breakage.code));
	const detail = blocked
		? `${blocked.hint} `
		: breakage.kind === 'unsent'
			? `Reason: ${reason}. `
			: breakage.kind === 'network'
				? `System code: ${breakage.code}. `
				: '';
	return imageFailure(
		`Could not download the ${label} from ${target.host}: ${cause}`,
		`${detail}Address: ${target.toString()}`,
	);
}

/**
 * Downloads a file the service linked to (a generated image): no Authorization header, only from
 * the addresses ./origin allows, no redirect followed (its target would be fetched unchecked),
 * size bounded while reading, and the same deadline and retries as a GET of the API.
 */
export async function downloadFile(
	context: IExecuteFunctions,
	service: ServiceRoot,
	url: string,
	maxBytes: number,
	options: { label: string; itemIndex: number; timeoutMs: number },
): Promise<DownloadedFile> {
	const { label, itemIndex, timeoutMs } = options;
	const fail = (wording: { message: string; description: string }) =>
		new NodeOperationError(context.getNode(), wording.message, { itemIndex, ...wording });
	const refused = (why: string, address = url.slice(0, 300)) =>
		fail(
			imageFailure(
				`The ${label} was not downloaded: ${why}`,
				`Generated images are fetched only from public https addresses (or the service's own address when it runs on this machine). Address: ${address}`,
			),
		);
	let target: URL;
	try {
		target = checkDownloadUrl(url, service);
	} catch (error) {
		throw refused((error as AddressError).message);
	}
	const tooLarge = (bytes: number) =>
		fail(
			imageFailure(
				`The ${label} from ${target.host} is larger than the maximum image size (${formatBytes(bytes)} > ${formatBytes(maxBytes)})`,
				"Raise 'Max Image Size (MB)' in the options.",
			),
		);
	for (let transient = 0; ; transient++) {
		const exchange = await send(context, {
			request: { method: 'GET', url: target.toString(), encoding: 'stream' },
			timeoutMs,
		});
		const { response } = exchange;
		if (response && response.statusCode >= 200 && response.statusCode < 300) {
			const { body, headers } = response;
			const declared = Number(header(headers ?? {}, 'content-length'));
			if (Number.isFinite(declared) && declared > maxBytes) {
				discard(body);
				throw tooLarge(declared);
			}
			// The body streams after the headers: it gets a deadline of its own.
			const read = await settleBefore(
				readBounded(body, maxBytes, tooLarge),
				AbortSignal.timeout(timeoutMs),
			);
			if (!read.done) {
				discard(body);
				throw fail(
					imageFailure(
						`Could not download the ${label} from ${target.host}: no complete answer within ${Math.round(timeoutMs / 1000)} s`,
						`Raise 'Request Timeout' in the options. Address: ${target.toString()}`,
					),
				);
			}
			const type = header(headers ?? {}, 'content-type')
				?.split(';')[0]
				.trim()
				.toLowerCase();
			const data = read.value;
			return {
				data,
				bytes: data.length,
				mimeType: type || undefined,
				fileName: fileNameOf(target),
			};
		}
		discard(response?.body);
		// A file host's Retry-After never shortens the backoff, and its 429 is not waited out.
		const again = retryIn('GET', exchange, { transient, rateLimited: 0 }, Date.now());
		if (again && !again.rateLimited) {
			await pause(context, backoffMs(transient));
			continue;
		}
		if (exchange.breakage) {
			throw fail(breakageFailure(label, target, exchange.breakage, exchange.reason));
		}
		const { statusCode } = exchange.response;
		if (statusCode >= 300 && statusCode < 400) {
			throw refused(
				`${target.host} answered with a redirect, which is not followed`,
				target.toString(),
			);
		}
		throw fail(
			imageFailure(
				`Could not download the ${label} from ${target.host}: it answered HTTP ${statusCode}`,
				`Address: ${target.toString()}`,
			),
		);
	}
}
