/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- a benchmark: finds and drives Debian's chromium */
/// <reference lib="dom" />
/**
 * The editor opening a workflow, in headless Chromium (Debian's `chromium`, as `npm run
 * test:editor` drives it), signed in with the benchmark's owner session: the time from navigating to
 * /workflow/<id> until its node is drawn on the canvas, and the page's JavaScript heap then.
 */
import { execFileSync } from 'child_process';
import { join } from 'path';
import puppeteer, { type Browser } from 'puppeteer-core';

/** The chromium to drive: CONTENTGEN_CHROMIUM, else `chromium` on PATH; none: the page is skipped. */
export function chromiumPath(): string | undefined {
	if (process.env.CONTENTGEN_CHROMIUM) return process.env.CONTENTGEN_CHROMIUM;
	try {
		return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
	} catch {
		return undefined;
	}
}

export interface PageOpen {
	ms: number;
	heapBytes: number;
}

export class EditorPage {
	private constructor(
		private readonly browser: Browser,
		private readonly url: string,
		private readonly session: { cookie: string; browserId: string },
	) {}

	static async launch(
		executablePath: string,
		work: string,
		url: string,
		session: { cookie: string; browserId: string },
	): Promise<EditorPage> {
		const browser = await puppeteer.launch({
			executablePath,
			headless: true,
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-dev-shm-usage',
				`--user-data-dir=${join(work, 'chromium-profile')}`,
			],
			defaultViewport: { width: 1440, height: 900 },
		});
		return new EditorPage(browser, url, session);
	}

	/** Opens the workflow in a fresh tab (the browser's cache warm from earlier tabs), once. */
	async open(workflowId: string): Promise<PageOpen> {
		const page = await this.browser.newPage();
		try {
			const [name, value] = this.session.cookie.split(/=(.*)/s);
			const { hostname } = new URL(this.url);
			await page.setCookie({ name, value, domain: hostname, path: '/' });
			// n8n binds its session cookie to the browser id the editor sends, kept in localStorage
			await page.evaluateOnNewDocument((id: string) => {
				localStorage.setItem('n8n-browserId', id);
			}, this.session.browserId);
			page.on('dialog', (dialog) => void dialog.accept());
			const started = performance.now();
			await page.goto(`${this.url}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
			await page.waitForSelector('[data-test-id="canvas-node"]', {
				visible: true,
				timeout: 120_000,
			});
			const ms = performance.now() - started;
			const metrics = await page.metrics();
			return { ms, heapBytes: metrics.JSHeapUsedSize ?? NaN };
		} finally {
			await page.close();
		}
	}

	close(): Promise<void> {
		return this.browser.close();
	}
}
