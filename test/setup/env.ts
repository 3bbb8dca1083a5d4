// n8n-core writes its instance key file under N8N_USER_FOLDER: keep it out of the home folder.
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

if (!process.env.N8N_USER_FOLDER) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'contentgen-n8n-'));
}
