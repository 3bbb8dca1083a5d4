/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- browser test helpers: files, plain errors */
/// <reference lib="dom" />
// One headless Chromium for the run, signed in to n8n as its owner, a page of it per spec file; a
// test that fails leaves a screenshot and the page's text in the work folder; nothing the suite
// prints carries the API key.
import { copyFileSync, mkdirSync, writeFileSync } from 'fs';
import { basename, join } from 'path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

import { editorState, type EditorState } from './state';
import { dismissToasts, NDV, text, tid } from './ui';

export const PACKAGE = 'n8n-nodes-contentgen';
export const ACTION = `${PACKAGE}.contentGen`;
export const TRIGGER = `${PACKAGE}.contentGenTrigger`;
/** The one version of each node, the one the editor saves a new node at. */
const VERSIONS: Record<string, number> = { [ACTION]: 2, [TRIGGER]: 1.1 };

export interface Session {
	state: EditorState;
	browser: Browser;
	page: Page;
}

/** Screenshots of the running test, copied into docs/images only once it has passed. */
const taken: string[] = [];

export const scrub = (state: EditorState, value: string) =>
	value.split(state.apiKey).join('[api key]');

const VIEWPORT = { width: 1440, height: 900 };

async function newPage(browser: Browser): Promise<Page> {
	const page = await browser.newPage();
	page.setDefaultTimeout(30_000);
	// Leaving an unsaved workflow asks before unloading the page.
	page.on('dialog', (dialog) => void dialog.accept());
	return page;
}

/**
 * Chromium for the whole run (global-setup.ts), with Debian's flags for a container (no sandbox as
 * root, no GPU, nothing fetched from the network by the browser itself) and a fresh profile,
 * signed in through n8n's own page; every spec file opens its pages in it.
 */
export async function launchSignedIn(state: EditorState): Promise<Browser> {
	const browser = await puppeteer.launch({
		executablePath: state.chromium,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
			'--lang=en-US',
			`--user-data-dir=${join(state.work, 'profile')}`,
		],
		// Scrollbars as on Windows and Linux desktops: a scrolling panel gives up their width.
		ignoreDefaultArgs: ['--hide-scrollbars'],
		defaultViewport: VIEWPORT,
	});
	const page = await newPage(browser);
	await page.goto(`${state.n8nUrl}/signin`, { waitUntil: 'domcontentloaded' });
	await page
		.locator(tid('emailOrLdapLoginId') + ' input')
		.setTimeout(60_000)
		.fill(state.ownerEmail);
	await page.locator(tid('password') + ' input').fill(state.ownerPassword);
	await page.locator(tid('form-submit-button')).click();
	await page.waitForFunction(() => !location.pathname.includes('/signin'), { timeout: 30_000 });
	await page.close();
	return browser;
}

/** A page of the run's signed-in browser for the spec file that calls this, closed after it. */
export function signedIn(): () => Session {
	let session: Session | undefined;
	beforeAll(async () => {
		const state = editorState();
		const browser = await puppeteer.connect({
			browserWSEndpoint: state.browserEndpoint,
			defaultViewport: VIEWPORT,
		});
		const page = await newPage(browser);
		// The editor's own origin, where its REST calls and node types are read.
		await page.goto(state.n8nUrl, { waitUntil: 'domcontentloaded' });
		session = { state, browser, page };
	}, 60_000);
	afterAll(async () => {
		await session?.page.close();
		await session?.browser.disconnect();
	});
	return () => {
		if (!session) throw new Error('no browser page (see beforeAll)');
		return session;
	};
}

/**
 * A test of the user's path: a failure saves the page (screenshot and text) next to the logs and
 * reports its message without the key.
 */
export function step(
	name: string,
	session: () => Session,
	body: (page: Page, state: EditorState) => Promise<void>,
	timeout?: number,
) {
	test(
		name,
		async () => {
			const { page, state } = session();
			taken.length = 0;
			try {
				await body(page, state);
				if (state.images) {
					mkdirSync(state.images, { recursive: true });
					for (const path of taken) copyFileSync(path, join(state.images, basename(path)));
				}
			} catch (error) {
				const base = join(state.work, `failure-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 50)}`);
				await page.screenshot({ path: `${base}.png` }).catch(() => undefined);
				const shown = await text(page, 'body', 20_000);
				writeFileSync(`${base}.txt`, `${page.url()}\n\n${scrub(state, shown)}\n`);
				const message = scrub(state, (error as Error).message ?? String(error));
				// The panel's text in the message too: a CI log is often all there is to read.
				const panel = (await page.$(NDV))
					? `\nthe open panel: ${scrub(state, await text(page, NDV, 1_500))}`
					: '';
				throw new Error(`${message}${panel}\n(see ${base}.png and .txt)`);
			}
		},
		timeout,
	);
}

/**
 * A screenshot of `selector`'s box (or the page), without notifications or hover effects; from
 * `fromSelector`'s left edge (less `margin`) when given. Copied into docs/images when the run
 * refreshes the documentation's pictures and the test passes.
 */
export async function screenshot(
	page: Page,
	state: EditorState,
	name: string,
	selector?: string,
	fromSelector?: string,
	margin = 0,
) {
	await dismissToasts(page);
	await page.mouse.move(1439, 899);
	let clip;
	if (selector) {
		const box = await (await page.waitForSelector(selector, { visible: true }))?.boundingBox();
		const from = fromSelector ? await (await page.$(fromSelector))?.boundingBox() : undefined;
		if (box) {
			const left = Math.max(0, from ? from.x - margin : box.x);
			clip = { x: left, y: box.y, width: box.x + box.width - left, height: box.height };
		}
	}
	const path = join(state.screenshots, `${name}.png`);
	await page.screenshot({ path, clip });
	taken.push(path);
}

/** A GET of the sandbox's API with the suite's key: what the service itself says. */
export async function serviceGet<T>(state: EditorState, path: string): Promise<T> {
	const response = await fetch(`${state.sandboxUrl}/api/v1${path}`, {
		headers: { Authorization: `Bearer ${state.apiKey}` },
	});
	if (!response.ok) throw new Error(`sandbox ${path}: HTTP ${response.status}`);
	return ((await response.json()) as { data: T }).data;
}

/**
 * A call to n8n's own REST API in the signed-in editor session (what the editor's pages call; n8n's
 * public API needs an API key that only this API can create).
 */
export async function editorRest<T>(page: Page, method: string, path: string, body?: unknown) {
	return (await page.evaluate(
		async (m, p, b) => {
			const response = await fetch(`/rest${p}`, {
				method: m,
				credentials: 'include',
				headers: {
					'Content-Type': 'application/json',
					'browser-id': localStorage.getItem('n8n-browserId') ?? '',
				},
				body: b === undefined ? undefined : JSON.stringify(b),
			});
			if (!response.ok)
				throw new Error(`${m} /rest${p}: HTTP ${response.status} ${await response.text()}`);
			return ((await response.json()) as { data: unknown }).data;
		},
		method,
		path,
		body,
	)) as T;
}

export interface WorkflowNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	position?: [number, number];
	typeVersion?: number;
	id?: string;
	[key: string]: unknown;
}

/** Saves a workflow through the editor's API and opens it on the canvas. */
export async function openWorkflow(
	page: Page,
	state: EditorState,
	name: string,
	nodes: WorkflowNode[],
	connections: Record<string, unknown> = {},
	settings: Record<string, unknown> = {},
): Promise<string> {
	const body = {
		name,
		nodes: nodes.map((node, index) => ({
			id: `node-${index}`,
			typeVersion: VERSIONS[node.type] ?? 1,
			position: [index * 260, 0],
			...node,
		})),
		connections,
		settings,
	};
	const { id } = await editorRest<{ id: string }>(page, 'POST', '/workflows', body);
	await page.goto(`${state.n8nUrl}/workflow/${id}`, { waitUntil: 'domcontentloaded' });
	await page.waitForSelector(tid('canvas-node'), { visible: true, timeout: 60_000 });
	await page.evaluate(async () => await document.fonts.ready);
	return id;
}

/** A ContentGen API credential for the sandbox, made through the editor's API. */
export async function sandboxCredential(page: Page, state: EditorState, name: string) {
	const { id } = await editorRest<{ id: string }>(page, 'POST', '/credentials', {
		name,
		type: 'contentGenApi',
		data: { apiKey: state.apiKey, baseUrl: state.sandboxUrl },
	});
	return { id, name };
}

/** The panel's "Docs" link. */
export async function docsHref(page: Page, scope = NDV): Promise<string | null> {
	return await page.$$eval(
		`${scope} a`,
		(links) =>
			links
				.find((a) => /^docs$/i.test((a as HTMLElement).innerText.trim()))
				?.getAttribute('href') ?? null,
	);
}
