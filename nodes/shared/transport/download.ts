import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type Breakage, header, networkCause, send, settleBefore, ssrfRefusal } from './http';
import { AddressError, checkDownloadUrl, type ServiceRoot } from './origin';

const size = (bytes: number) =>
	bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/** The body, read only up to `maxBytes`: a larger file is not pulled whole into memory. */
async function readBounded(body: unknown, maxBytes: number, tooLarge: (bytes: number) => Error) {
	const stream = (
		typeof body === 'string' || body instanceof ArrayBuffer || Buffer.isBuffer(body)
			? [Buffer.isBuffer(body) ? body : Buffer.from(body as string)]
			: body
	) as AsyncIterable<Buffer | string> & { destroy?: () => void };
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

function imageFailure(message: string, detail: string) {
	const fate =
		"The content record was read, but this item was not output: an item comes with all the images asked for or not at all. Turn off 'Download Images' to get the image URLs instead.";
	return { message, description: `${detail} ${fate}`.trim() };
}

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
 * A file the service linked to (a generated image): without the key, from the addresses ./origin
 * allows, no redirect followed (its target would go unchecked), bounded in size while read, within
 * a request's deadline. One attempt: a failed image fails its item.
 */
export async function downloadFile(
	context: IExecuteFunctions,
	service: ServiceRoot,
	url: string,
	maxBytes: number,
	{ label, itemIndex, timeoutMs }: { label: string; itemIndex: number; timeoutMs: number },
): Promise<{ data: Buffer; bytes: number; mimeType?: string; fileName?: string }> {
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
	const address = `Address: ${target.toString()}`;
	const tooLarge = (bytes: number) =>
		fail(
			`The ${label} from ${host} is larger than the maximum image size (${size(bytes)} > ${size(maxBytes)})`,
			"Raise 'Max Image Size (MB)' in the options.",
		);
	const request = { method: 'GET' as const, url: target.toString(), encoding: 'stream' as const };
	const exchange = await send(context, request, timeoutMs);
	if (exchange.breakage)
		throw error(breakageFailure(label, target, exchange.breakage, exchange.reason));
	const { statusCode, body, headers } = exchange.response;
	if (statusCode < 200 || statusCode >= 300) {
		discard(body);
		if (statusCode >= 300 && statusCode < 400)
			throw refused(`${host} answered with a redirect, which is not followed`, target.toString());
		throw fail(
			`Could not download the ${label} from ${host}: it answered HTTP ${statusCode}`,
			address,
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
		const within = `no complete answer within ${Math.round(timeoutMs / 1000)} s`;
		throw fail(
			`Could not download the ${label} from ${host}: ${within}`,
			`Raise 'Request Timeout' in the options. ${address}`,
		);
	}
	const type = header(headers, 'content-type')?.split(';')[0].trim().toLowerCase();
	const fileName = fileNameOf(target);
	return { data: read.value, bytes: read.value.length, mimeType: type || undefined, fileName };
}

/** The address's last part, decoded as a file name reads (as it is when it is not valid encoding). */
function fileNameOf(url: URL): string | undefined {
	const last = url.pathname.split('/').filter(Boolean).pop();
	try {
		return last && decodeURIComponent(last);
	} catch {
		return last;
	}
}
