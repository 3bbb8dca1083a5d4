/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- test helper reads n8n-core's binary store */
/**
 * Binary data in engine tests. prepareBinaryData goes through n8n-core's BinaryDataService from
 * n8n-core's DI container; left uninitialised (no storage manager registered) it keeps the bytes
 * inline as base64, which is n8n's in-memory "default" mode, so no setup is needed. Reading back
 * through the service works in that mode and in the filesystem mode alike.
 */
import { BinaryDataService } from 'n8n-core';
import type { IBinaryData } from 'n8n-workflow';

/** The DI container n8n-core itself uses (it may resolve its own copy of @n8n/di). */
function coreContainer(): { get<T>(type: new (...args: never[]) => T): T } {
	const path = require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] });
	return (require(path) as { Container: { get<T>(type: new (...args: never[]) => T): T } })
		.Container;
}

export async function binaryBuffer(binary: IBinaryData | undefined): Promise<Buffer> {
	if (!binary) throw new Error('No binary data');
	return await coreContainer().get(BinaryDataService).getAsBuffer(binary);
}
