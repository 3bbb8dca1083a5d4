import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { header, pause, send, settleBefore, type Breakage } from './http';
import { AddressError, checkDownloadUrl, type ServiceRoot } from './origin';
import { networkCause, ssrfRefusal } from './breakage';
import { backoffMs, retryAfterBadAnswer, retryAfterBreakage } from './retry';

export interface DownloadedFile {
	data: Buffer;
	mimeType?: string;
	fileName?: string;
	bytes: number;
}

/** Redirects a file host may use (a CDN to its storage); each hop is checked again. */
const MAX_HOPS = 3;

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

async function readBounded(
	body: unknown,
	maxBytes: number,
	tooLarge: (bytes: number) => Error,
): Promise<Buffer> {
	if (Buffer.isBuffer(body)) {
		if (body.length > maxBytes) throw tooLarge(body.length);
		return body;
	}
	if (body instanceof ArrayBuffer) return await readBounded(Buffer.from(body), maxBytes, tooLarge);
	if (typeof body === 'string') return await readBounded(Buffer.from(body), maxBytes, tooLarge);
	const stream = body as AsyncIterable<Buffer | string> & { destroy?: () => void };
	const chunks: Buffer[] = [];
	let total = 0;
	for await (const chunk of stream) {
		const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		total += piece.length;
		if (total > maxBytes) {
			// Stop reading at the bound instead of pulling the whole file into memory.
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

/** Said of every failed image: the item's fate, and the way around downloading. */
const ITEM_NOT_OUTPUT =
	"The content record was read, but this item was not output: an item comes with all the images asked for or not at all. Turn off 'Download Images' to get the image URLs instead.";

function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return 'an unreadable address';
	}
}

/** An image that could not be had: what and why in the message, then the item's fate. */
export function imageFailure(
	message: string,
	detail: string,
): { message: string; description: string } {
	return { message, description: `${detail} ${ITEM_NOT_OUTPUT}`.trim() };
}

/** A download that got no answer: the cause in words; a system error code only in the description. */
export function breakageFailure(
	label: string,
	target: URL,
	breakage: Breakage,
	reason: string,
): { message: string; description: string } {
	const head = `Could not download the ${label} from ${target.host}`;
	if (breakage.kind === 'unsent') {
		const blocked = ssrfRefusal(reason, target.host);
		if (blocked) {
			return imageFailure(
				`${head}: ${blocked.message}`,
				`${blocked.hint} Address: ${target.toString()}`,
			);
		}
		return imageFailure(
			`${head}: n8n did not send the request`,
			`Reason: ${reason}. Address: ${target.toString()}`,
		);
	}
	const cause =
		breakage.kind === 'timeout' ? 'no answer came in time' : networkCause(breakage.code);
	const code = breakage.kind === 'network' ? `System code: ${breakage.code}. ` : '';
	return imageFailure(`${head}: ${cause}`, `${code}Address: ${target.toString()}`);
}

/**
 * Downloads a file the service linked to (a generated image): no Authorization header, only from
 * public https (or the service's own loopback origin), redirects re-checked hop by hop, size
 * bounded while reading, and the same deadline as API requests.
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
	const refuse = (error: AddressError) =>
		fail(
			imageFailure(
				`The ${label} was not downloaded: ${error.message}`,
				`Generated images are fetched only from public https addresses (or the service's own address when it runs on this machine). Address: ${url.slice(0, 300)}`,
			),
		);
	const tooLarge = (bytes: number) =>
		fail(
			imageFailure(
				`The ${label} from ${hostOf(url)} is larger than the maximum image size (${formatBytes(bytes)} > ${formatBytes(maxBytes)})`,
				"Raise 'Max Image Size (MB)' in the options.",
			),
		);

	let target: URL;
	try {
		target = checkDownloadUrl(url, service);
	} catch (error) {
		throw refuse(error as AddressError);
	}
	let retries = 0;
	for (let hops = 0; ; ) {
		const exchange = await send(context, {
			request: { method: 'GET', url: target.toString(), encoding: 'stream' },
			timeoutMs,
		});
		if (exchange.breakage) {
			const retryIn = retryAfterBreakage('GET', exchange.breakage, retries);
			if (retryIn === undefined) {
				throw fail(breakageFailure(label, target, exchange.breakage, exchange.reason));
			}
			await pause(context, retryIn);
			retries++;
			continue;
		}
		const { response } = exchange;
		const { statusCode, body } = response;
		const headers = response.headers ?? {};
		if (statusCode >= 300 && statusCode < 400 && header(headers, 'location')) {
			discard(body);
			if (++hops > MAX_HOPS) {
				throw fail(
					imageFailure(
						`The ${label} was not downloaded: ${target.host} redirected more than ${MAX_HOPS} times`,
						`Address: ${target.toString()}`,
					),
				);
			}
			try {
				target = checkDownloadUrl(
					new URL(header(headers, 'location') as string, target).toString(),
					service,
				);
			} catch (error) {
				throw refuse(error as AddressError);
			}
			continue;
		}
		if (statusCode < 200 || statusCode >= 300) {
			discard(body);
			// A file host's Retry-After never shortens the backoff.
			if (retryAfterBadAnswer('GET', statusCode, headers, retries) !== undefined) {
				await pause(context, backoffMs(retries));
				retries++;
				continue;
			}
			throw fail(
				imageFailure(
					`Could not download the ${label} from ${target.host}: it answered HTTP ${statusCode}`,
					`Address: ${target.toString()}`,
				),
			);
		}
		const declared = Number(header(headers, 'content-length'));
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
		const data = read.value;
		const contentType = header(headers, 'content-type')?.split(';')[0].trim().toLowerCase();
		return {
			data,
			bytes: data.length,
			mimeType: contentType || undefined,
			fileName: fileNameOf(target),
		};
	}
}
