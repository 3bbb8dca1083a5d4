/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test helper: reads the state file global-setup.ts wrote */
import { readFileSync } from 'fs';

/** What global-setup.ts started, for the specs. */
export interface EditorState {
	n8nUrl: string;
	n8nVersion: string;
	/** n8n's own output, to check that the key never shows in it. */
	n8nLog: string;
	ownerEmail: string;
	ownerPassword: string;
	sandboxUrl: string;
	apiKey: string;
	chromium: string;
	/** The run's signed-in Chromium, for puppeteer.connect. */
	browserEndpoint: string;
	/** The run's folder: logs, n8n's user folder, screenshots, failure evidence. */
	work: string;
	screenshots: string;
	/** docs/images when the run should refresh the documentation's screenshots. */
	images?: string;
}

export function editorState(): EditorState {
	const file = process.env.CONTENTGEN_EDITOR_STATE;
	if (!file)
		throw new Error('CONTENTGEN_EDITOR_STATE is not set: run the suite with npm run test:editor');
	return JSON.parse(readFileSync(file, 'utf8')) as EditorState;
}
