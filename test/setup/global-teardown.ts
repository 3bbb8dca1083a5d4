/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test setup runs in Node, not in n8n */
import { rmSync } from 'fs';

export default function globalTeardown(): void {
	const folder = process.env.CONTENTGEN_TEST_TMP;
	if (folder) rmSync(folder, { recursive: true, force: true });
}
