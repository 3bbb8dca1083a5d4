/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test setup runs in Node, not in n8n */
// n8n-core writes its instance key file under N8N_USER_FOLDER: one folder per jest worker inside
// the run's own temporary folder (made and removed by global-setup.ts), never the home folder.
import { mkdirSync, mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const runFolder =
	process.env.CONTENTGEN_TEST_TMP ?? mkdtempSync(join(tmpdir(), 'contentgen-test-'));
const workerFolder = join(runFolder, `worker-${process.env.JEST_WORKER_ID ?? '0'}`);
mkdirSync(workerFolder, { recursive: true });
process.env.N8N_USER_FOLDER = workerFolder;
// n8n's own log lines (node errors the tests provoke on purpose) would bury the test summary.
process.env.N8N_LOG_LEVEL ??= 'silent';
