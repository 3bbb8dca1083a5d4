import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { header, pause, send, settleBefore } from './http';
import { AddressError, checkDownloadUrl, type ServiceRoot } from './origin';
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
	const fail = (message: string, description?: string) =>
		new NodeOperationError(context.getNode(), message, { itemIndex, description });
	const refuse = (error: AddressError) =>
		fail(
			`The ${label} was not downloaded: ${error.message}`,
			`Generated images are fetched only from public https addresses (or the service's own address when it runs on this machine). Turn off "Download Images" to get the image URLs only. Address: ${url.slice(0, 300)}`,
		);
	const tooLarge = (bytes: number) =>
		fail(
			`The ${label} is larger than the maximum image size (${formatBytes(bytes)} > ${formatBytes(maxBytes)})`,
			'Raise "Max Image Size (MB)" in the options, or turn off "Download Images" and use the image URLs.',
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
				throw fail(`Could not download the ${label} (${exchange.reason})`, target.toString());
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
			if (++hops > MAX_HOPS) throw fail(`The ${label} was not downloaded: too many redirects`);
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
				`Could not download the ${label}: the file server answered HTTP ${statusCode}`,
				target.toString(),
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
				`Could not download the ${label}: no complete answer within ${Math.round(timeoutMs / 1000)} s`,
				target.toString(),
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
