/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test setup runs in Node, not in n8n */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

/** One temporary folder for the whole run; the workers inherit its path. */
export default function globalSetup(): void {
	process.env.CONTENTGEN_TEST_TMP = mkdtempSync(join(tmpdir(), 'contentgen-test-'));
}
