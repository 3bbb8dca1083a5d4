/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only: n8n-core reads its settings from the environment */
// n8n-core wants an instance key; given one, it neither generates nor saves a key file.
import { tmpdir } from 'os';
import { join } from 'path';

process.env.N8N_ENCRYPTION_KEY ??= 'contentgen-bench-only';
process.env.N8N_USER_FOLDER ??= join(tmpdir(), 'contentgen-bench');
// What the trigger logs (e.g. "ContentGen Trigger is behind") is counted into its row instead.
process.env.N8N_LOG_LEVEL ??= 'silent';
