/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only browser test: reads its environment and files, prints PASS/FAIL lines, sets the exit code */
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The browser half of `npm run test:editor` (scripts/editor/test-editor.sh starts n8n and the
// sandbox and hands their addresses over in the environment). Drives n8n's editor in headless
// Chromium as a user would and asserts on what the page shows; what it expects comes from the node
// descriptions n8n serves to its editor and from the sandbox's own answers.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

import { checkLabels, readmeAnchors, type NodeDescription } from './checks';
import {
	addCollectionOption,
	clickText,
	closeNode,
	CREATOR,
	CREDENTIAL_MODAL,
	dismissToasts,
	execute,
	fill,
	labels,
	NDV,
	openNode,
	optionsOf,
	selectMany,
	selectOption,
	setSwitch,
	showSchema,
	text,
	tid,
	until,
	visible,
} from './ui';

function required(name: string): string {
	const value = process.env[name];
	if (!value)
		throw new Error(`${name} is not set (run this through scripts/editor/test-editor.sh)`);
	return value;
}

const N8N_URL = required('CONTENTGEN_EDITOR_N8N_URL');
const OWNER_EMAIL = required('CONTENTGEN_EDITOR_OWNER_EMAIL');
const OWNER_PASSWORD = required('CONTENTGEN_N8N_OWNER_PASSWORD');
const WORK = required('CONTENTGEN_EDITOR_WORK');
const CHROMIUM = required('CONTENTGEN_CHROMIUM');
const IMAGES = process.env.CONTENTGEN_EDITOR_IMAGES;
const SANDBOX = JSON.parse(readFileSync(required('CONTENTGEN_EDITOR_SANDBOX'), 'utf8')) as {
	url: string;
	apiKey: string;
};
const README = join(__dirname, '..', '..', 'README.md');
const SHOTS = join(WORK, 'screenshots');

const PACKAGE = 'n8n-nodes-contentgen';
const ACTION = `${PACKAGE}.contentGen`;
const TRIGGER = `${PACKAGE}.contentGenTrigger`;
const TOPIC = 'Pour-over coffee at home';
const PROJECT_SEARCH = 'coffee';
const PLATFORMS = { Instagram: 'instagram', LinkedIn: 'linkedin', 'X (Twitter)': 'twitter' };

let failed = 0;
let failures = 0;
function pass(message: string) {
	console.log(`PASS ${message}`);
}
function fail(message: string) {
	failed++;
	console.log(`FAIL ${message}`);
}
/** A check that does not stop the run. */
function check(ok: boolean, message: string, detail: string) {
	if (ok) pass(message);
	else fail(`${message}: ${detail}`);
}
const scrub = (value: string) => value.split(SANDBOX.apiKey).join('[api key]');

/** Saves a screenshot and the page text next to the logs, for a failure. */
async function evidence(page: Page, name: string) {
	failures++;
	const base = join(WORK, `failure-${failures}-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}`);
	await page.screenshot({ path: `${base}.png` }).catch(() => undefined);
	const body = await page.evaluate(() => document.body.innerText).catch(() => '(no page text)');
	writeFileSync(`${base}.txt`, `${page.url()}\n\n${scrub(body)}\n`);
	console.log(`    see ${base}.png and .txt`);
}

/**
 * Runs one step of the user's path. A step that throws is a failure (with evidence saved) and
 * ends the path: later steps build on it. Returns whether the path may go on.
 */
async function step(page: Page, name: string, body: () => Promise<void>): Promise<boolean> {
	try {
		await body();
		return true;
	} catch (error) {
		fail(`${name}: ${scrub((error as Error).message)}`);
		await evidence(page, name);
		return false;
	}
}

const shots: string[] = [];
/** A screenshot of `selector`'s box (or the page), without notifications over it. */
async function screenshot(
	page: Page,
	name: string,
	selector?: string,
	fromSelector?: string,
	margin = 0,
) {
	await dismissToasts(page);
	// No hover effects in the picture.
	await page.mouse.move(1439, 899);
	let clip;
	if (selector) {
		const box = await (await visible(page, selector)).boundingBox();
		const from = fromSelector ? await (await page.$(fromSelector))?.boundingBox() : undefined;
		if (box) {
			const left = Math.max(0, from ? from.x - margin : box.x);
			clip = { x: left, y: box.y, width: box.x + box.width - left, height: box.height };
		}
	}
	const path = join(SHOTS, `${name}.png`);
	await page.screenshot({ path, clip });
	shots.push(path);
}

async function api<T>(path: string): Promise<T> {
	const response = await fetch(`${SANDBOX.url}/api/v1${path}`, {
		headers: { Authorization: `Bearer ${SANDBOX.apiKey}` },
	});
	if (!response.ok) throw new Error(`sandbox ${path}: HTTP ${response.status}`);
	return ((await response.json()) as { data: T }).data;
}

const sameSet = (a: string[], b: string[]) =>
	JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/** Docs links must open the section they name: a fragment, if any, must be a heading of the README. */
function checkDocsLink(where: string, href: string | null, anchors: Set<string>) {
	if (!href) return fail(`${where}: no docs link`);
	const fragment = decodeURIComponent(new URL(href).hash.slice(1));
	check(
		fragment === '' || anchors.has(fragment),
		`${where} docs link opens the README section it names (${href})`,
		`"#${fragment}" is not a heading of the README, so the page opens at its top`,
	);
}

async function docsHref(page: Page, scope: string, label: RegExp): Promise<string | null> {
	return await page.$$eval(
		`${scope} a`,
		(links, source) => {
			const pattern = new RegExp(source, 'i');
			return (
				links
					.find((a) => pattern.test((a as HTMLElement).innerText.trim()))
					?.getAttribute('href') ?? null
			);
		},
		label.source,
	);
}

async function userPath(page: Page, types: NodeDescription[]): Promise<boolean> {
	const action = types.find((t) => t.name === ACTION);
	const trigger = types.find((t) => t.name === TRIGGER);
	if (!action || !trigger) throw new Error(`n8n does not serve ${ACTION} and ${TRIGGER}`);
	const anchors = readmeAnchors(readFileSync(README, 'utf8'));
	// n8n adds a "Custom API Call" entry (it points to the HTTP Request node); it is no action of ours.
	const ours = (o: { value: string }) => o.value !== '__CUSTOM_API_CALL__';
	const resources = (action.properties.find((p) => p.name === 'resource')?.options ?? []).filter(
		ours,
	);
	const actionsByResource = Object.fromEntries(
		resources.map((resource) => [
			resource.name,
			(
				action.properties.find(
					(p) =>
						p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
				)?.options ?? []
			)
				.filter(ours)
				.map((o) => o.action ?? o.name),
		]),
	);
	const events = trigger.properties.find((p) => p.name === 'events')?.options ?? [];

	if (
		!(await step(page, 'first-node search finds the ContentGen Trigger', async () => {
			await page.goto(`${N8N_URL}/workflow/new`, { waitUntil: 'domcontentloaded' });
			await (await visible(page, tid('canvas-plus-button'), 60_000)).click();
			await (await visible(page, tid('node-creator-search-bar'))).type('ContentGen');
			const found = await until(
				async () =>
					await page
						.$$eval(`${CREATOR} [data-test-id="item-iterator-item"]`, (items) =>
							items.map((i) => (i as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
						)
						.then((items) => (items.some((i) => i.includes(trigger.description)) ? items : null)),
				15_000,
				async () => `no entry with the trigger's description: ${await text(page, CREATOR)}`,
			);
			pass(`first-node search "ContentGen" lists the trigger: ${found.join(' / ')}`);
			await clickText(page, `${CREATOR} [data-test-id="item-iterator-item"]`, 'ContentGen');
			const expected = events.map((e) => `on ${e.name.toLowerCase()}`);
			const shown = await until(
				async () => {
					const items = (
						await labels(page, `${CREATOR} [data-test-id="node-creator-item-name"]`)
					).map((l) => l.toLowerCase());
					return expected.every((e) => items.includes(e)) ? items : null;
				},
				10_000,
				async () =>
					`its entry does not list the events ${JSON.stringify(expected)}: ${await text(page, CREATOR)}`,
			);
			pass(
				`its entry lists the ${events.length} events as triggers (${shown.filter((s) => expected.includes(s)).length} shown)`,
			);
			await clickText(
				page,
				`${CREATOR} [data-test-id="item-iterator-item"]`,
				`On ${events[0].name.toLowerCase()}`,
			);
			await visible(page, tid('parameter-input-events', NDV));
			const chosen = await text(page, tid('parameter-input-events', NDV));
			if (!chosen.includes(events[0].name))
				throw new Error(`the trigger panel opened with Events "${chosen}"`);
			pass(
				`choosing "On ${events[0].name.toLowerCase()}" adds the trigger and opens its panel with Events = ${chosen}`,
			);
			checkDocsLink('the trigger panel', await docsHref(page, NDV, /^docs$/), anchors);
			await closeNode(page);
		}))
	)
		return false;

	if (
		!(await step(page, '"What happens next?" lists the actions by resource', async () => {
			await (await visible(page, tid('canvas-handle-plus-wrapper'))).click();
			await until(
				async () =>
					(await text(page, tid('nodes-list-header', CREATOR))).includes('What happens next?'),
				15_000,
				async () => `no "What happens next?" panel: ${await text(page, CREATOR)}`,
			);
			await (await visible(page, tid('node-creator-search-bar'))).type('ContentGen');
			await clickText(page, `${CREATOR} [data-test-id="item-iterator-item"]`, 'ContentGen');
			const total = Object.values(actionsByResource).flat().length;
			await until(
				async () =>
					(await labels(page, tid('node-creator-category-item', CREATOR))).includes(
						`Actions (${total})`,
					),
				10_000,
				async () =>
					`its entry has no "Actions (${total})" (the node has ${JSON.stringify(actionsByResource)}): ${await text(page, CREATOR)}`,
			);
			const rows = await labels(page, `${CREATOR} [data-test-id="item-iterator-item"]`);
			const groups: Record<string, string[]> = {};
			let current = '';
			for (const row of rows) {
				const header = /^(.*) actions$/i.exec(row);
				if (header) current = header[1].toLowerCase();
				else if (current) groups[current] = [...(groups[current] ?? []), row];
			}
			const wrong = Object.entries(actionsByResource).filter(
				([resource, names]) => !sameSet(groups[resource.toLowerCase()] ?? [], names),
			);
			check(
				wrong.length === 0 && Object.keys(groups).length === resources.length,
				`its entry lists all ${total} actions grouped by resource: ${Object.entries(groups)
					.map(([g, a]) => `${g} (${a.length})`)
					.join(', ')}`,
				`expected ${JSON.stringify(actionsByResource)}, shown ${JSON.stringify(groups)}`,
			);
			check(
				(groups.article ?? []).includes('Generate an article') &&
					(groups['social content'] ?? []).includes('Publish social content'),
				'"Generate an article" is listed under Article and "Publish social content" under Social Content',
				JSON.stringify(groups),
			);
			await screenshot(page, 'picker-actions', CREATOR, '[data-test-id="canvas-node"]', 300);
			await clickText(
				page,
				`${CREATOR} [data-test-id="item-iterator-item"]`,
				'Generate an article',
			);
			await visible(page, tid('parameter-input-operation', NDV));
			const resource = await page.$eval(
				tid('parameter-input-resource', NDV) + ' input',
				(e) => (e as HTMLInputElement).value,
			);
			const operation = await page.$eval(
				tid('parameter-input-operation', NDV) + ' input',
				(e) => (e as HTMLInputElement).value,
			);
			if (resource !== 'Article' || operation !== 'Generate') {
				throw new Error(`"Generate an article" opened ${resource} → ${operation}`);
			}
			pass(
				`adding "Generate an article" opens its panel (${await text(page, tid('node-title-container', NDV))}: Article → Generate)`,
			);
			const agentControls = (await page.$$(tid('from-ai-override-button', NDV))).length;
			check(
				agentControls === 0,
				'the panel has no agent-only "let the model define this" buttons',
				`${agentControls} shown`,
			);
			checkDocsLink('the action node panel', await docsHref(page, NDV, /^docs$/), anchors);
		}))
	)
		return false;

	if (
		!(await step(page, 'credential created from the panel, tested by n8n', async () => {
			await (await visible(page, tid('node-credentials-empty-state', NDV))).click();
			await visible(page, CREDENTIAL_MODAL);
			checkDocsLink(
				'the credential dialog',
				await docsHref(page, CREDENTIAL_MODAL, /^docs$/),
				anchors,
			);
			const wrongKey = `svc_${'0'.repeat(64)}`;
			await fill(page, tid('parameter-input-apiKey', CREDENTIAL_MODAL) + ' input', wrongKey);
			await fill(page, tid('parameter-input-baseUrl', CREDENTIAL_MODAL) + ' input', SANDBOX.url);
			await (await visible(page, tid('credential-save-button', CREDENTIAL_MODAL))).click();
			await clickText(
				page,
				`${CREDENTIAL_MODAL} a, ${CREDENTIAL_MODAL} span`,
				'More details',
				30_000,
			);
			const message = await until(
				async () => {
					const shown = await text(page, CREDENTIAL_MODAL, 2000);
					return /not accepted/i.test(shown) ? shown : null;
				},
				15_000,
				async () =>
					`no "not accepted" message for a wrong key: ${await text(page, CREDENTIAL_MODAL)}`,
			);
			check(
				!message.includes(wrongKey),
				`a wrong key: the credential test shows the node's message (${/The API key[^.]*\./.exec(message)?.[0] ?? 'not accepted'})`,
				'the key is shown',
			);
			await fill(page, tid('parameter-input-apiKey', CREDENTIAL_MODAL) + ' input', SANDBOX.apiKey);
			await (await visible(page, tid('credential-save-button', CREDENTIAL_MODAL))).click();
			// n8n closes the dialog by itself when the saved credential passes its test.
			await until(
				async () => !(await page.$(CREDENTIAL_MODAL)),
				30_000,
				async () => `the dialog stayed open: ${await text(page, CREDENTIAL_MODAL)}`,
			);
			const selected = await page.$eval(
				tid('node-credentials-select', NDV) + ' input',
				(e) => (e as HTMLInputElement).value,
			);
			pass(`the right key: the test passes, the dialog closes and the node uses "${selected}"`);
			await (await visible(page, tid('credential-edit-button', NDV))).click();
			await visible(page, CREDENTIAL_MODAL);
			await clickText(page, `${CREDENTIAL_MODAL} button`, 'Retry');
			const banner = tid('credentials-config-container-test-success', CREDENTIAL_MODAL);
			const verdict = await until(
				async () => {
					const shown = await text(page, banner);
					return /tested successfully/i.test(shown) && !/retrying/i.test(shown) ? shown : null;
				},
				30_000,
				async () => `no success after Retry: ${await text(page, CREDENTIAL_MODAL)}`,
			);
			pass(`reopened and retested: "${verdict.replace(/\s*Retry$/, '')}"`);
			await screenshot(page, 'credential-test', CREDENTIAL_MODAL);
			await (await visible(page, `${CREDENTIAL_MODAL} .el-dialog__headerbtn`)).click();
			await until(
				async () => !(await page.$(CREDENTIAL_MODAL)),
				10_000,
				() => 'the credential dialog did not close',
			);
		}))
	)
		return false;

	if (
		!(await step(page, 'Project picker lists and searches the sandbox projects', async () => {
			const all = (await api<Array<{ business_name: string }>>('/projects?limit=100')).map(
				(p) => p.business_name,
			);
			const matching = (
				await api<Array<{ business_name: string }>>(`/projects?limit=100&search=${PROJECT_SEARCH}`)
			).map((p) => p.business_name);
			await (await visible(page, tid('rlc-input', tid('resource-locator-projectId', NDV)))).click();
			const listed = await until(
				async () => {
					const items = await labels(page, tid('rlc-item'));
					return sameSet(items, all) ? items : null;
				},
				20_000,
				async () =>
					`"From list" shows ${JSON.stringify(await labels(page, tid('rlc-item')))}, the sandbox has ${JSON.stringify(all)}`,
			);
			pass(`"From list" lists the sandbox's ${listed.length} projects: ${listed.join(', ')}`);
			await (await visible(page, tid('rlc-search'))).type(PROJECT_SEARCH);
			await until(
				async () => {
					const items = await labels(page, tid('rlc-item'));
					return items.length < all.length && sameSet(items, matching) ? items : null;
				},
				20_000,
				async () =>
					`searching "${PROJECT_SEARCH}" shows ${JSON.stringify(await labels(page, tid('rlc-item')))}, expected ${JSON.stringify(matching)}`,
			);
			pass(`its search "${PROJECT_SEARCH}" filters the list to ${matching.join(', ')}`);
			await clickText(page, tid('rlc-item'), matching[0]);
		}))
	)
		return false;

	if (
		!(await step(page, 'Execute step: Article → Generate with Wait for Completion', async () => {
			await fill(page, tid('parameter-input-topic', NDV) + ' input', TOPIC);
			await setSwitch(page, 'waitForCompletion', true);
			await addCollectionOption(page, 'Options', 'Poll Interval');
			await fill(page, tid('parameter-input-pollInterval', NDV) + ' input', '1');
			await screenshot(page, 'generate-panel', NDV, tid('node-parameters', NDV));
			const started = Date.now();
			const [article] = await execute(page);
			check(
				['cms', 'needs_editing'].includes(article?.status) && article?.title === TOPIC,
				`Execute step generated and waited for the article in ${Math.round((Date.now() - started) / 1000)} s: status ${article?.status}, title "${article?.title}"`,
				JSON.stringify(article),
			);
			await showSchema(page);
			await screenshot(page, 'article-output', NDV, tid('node-parameters', NDV));
		}))
	)
		return false;

	if (
		!(await step(page, 'Execute step: Social Content → Generate for 3 platforms', async () => {
			await selectOption(page, 'resource', 'Social Content');
			await selectOption(page, 'operation', 'Generate');
			await fill(
				page,
				tid('parameter-input-sourceUrl', NDV) + ' input',
				'https://northwind-coffee.example/blog/pour-over',
			);
			await selectMany(page, 'platforms', Object.keys(PLATFORMS));
			await setSwitch(page, 'waitForCompletion', false);
			const [social] = await execute(page);
			const platforms = Object.values(PLATFORMS);
			check(
				social?.credits_spent === '1.8' && platforms.every((p) => social?.platforms?.includes(p)),
				`Execute step generated social content for ${platforms.join(', ')}: credits_spent ${social?.credits_spent}, status ${social?.status}`,
				JSON.stringify(social),
			);
		}))
	)
		return false;

	if (
		!(await step(page, 'Execute step: Account → Get Credits', async () => {
			await selectOption(page, 'resource', 'Account');
			await selectOption(page, 'operation', 'Get Credits');
			const [credits] = await execute(page);
			const service = await api<{ available_credits: number }>('/user/credits');
			check(
				credits?.available_credits === String(service.available_credits),
				`Execute step shows the balance: available_credits ${credits?.available_credits} (the service says ${service.available_credits})`,
				JSON.stringify(credits),
			);
		}))
	)
		return false;

	if (
		!(await step(page, 'trigger panel: events and Fetch Test Event', async () => {
			await closeNode(page);
			const edges = (await page.$$(tid('edge'))).length;
			check(
				edges === 1,
				'on the canvas the action node is connected to the trigger',
				`${edges} connections`,
			);
			await openNode(page, `[data-node-type="${TRIGGER}"]`);
			const credential = await page.$eval(
				tid('node-credentials-select', NDV) + ' input',
				(e) => (e as HTMLInputElement).value,
			);
			check(
				credential !== '',
				`the trigger picked up the credential "${credential}"`,
				'no credential selected',
			);
			const offered = await optionsOf(page, 'events');
			check(
				sameSet(
					offered,
					events.map((e) => e.name),
				),
				`the trigger's Events list offers ${offered.length} events: ${offered.join(', ')}`,
				`expected ${JSON.stringify(events.map((e) => e.name))}`,
			);
			const [item] = await execute(page);
			check(
				events.some((e) => e.value === item?.event),
				`Fetch Test Event shows an item with event "${item?.event}" (previousStatus ${item?.previousStatus}, status ${item?.status})`,
				JSON.stringify(item),
			);
			await showSchema(page);
			await screenshot(page, 'trigger-test-event', NDV, tid('node-parameters', NDV));

			const platformFilter = async () => await page.$(tid('parameter-input-platform', NDV));
			check(
				!(await platformFilter()),
				'with only an article event selected, the trigger shows no Platform filter',
				'a Platform filter is shown for Article Completed',
			);
			await selectMany(page, 'events', ['Article Completed', 'Social Content Finished']);
			await visible(page, tid('parameter-input-platform', NDV), 5_000).catch(() => undefined);
			const platformLabels = (await platformFilter()) ? await optionsOf(page, 'platform') : [];
			check(
				['LinkedIn', 'X (Twitter)', 'TikTok'].every((l) => platformLabels.includes(l)),
				`with Social Content Finished selected, the Platform filter appears with the action node's labels (${platformLabels.slice(0, 6).join(', ')}, ...)`,
				JSON.stringify(platformLabels),
			);
			await closeNode(page);
			const subtitle = await text(page, `[data-node-type="${TRIGGER}"]`);
			check(
				subtitle.includes('Article Completed, Social Content Finished'),
				'on the canvas the trigger is subtitled with its events as the picker names them',
				JSON.stringify(subtitle),
			);
		}))
	)
		return false;
	return true;
}

async function main() {
	mkdirSync(SHOTS, { recursive: true });
	let browser: Browser | undefined;
	let pathCompleted = false;
	try {
		browser = await puppeteer.launch({
			executablePath: CHROMIUM,
			headless: true,
			// Root in CI containers cannot use Chromium's sandbox; /dev/shm is small there.
			args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--lang=en-US'],
			// Scrollbars as on Windows and Linux desktops: a scrolling panel gives up their width.
			ignoreDefaultArgs: ['--hide-scrollbars'],
			defaultViewport: { width: 1440, height: 900 },
		});
		const page = await browser.newPage();
		page.setDefaultTimeout(30_000);
		// Leaving an unsaved workflow asks before unloading the page.
		page.on('dialog', (dialog) => void dialog.accept());

		const signedIn = await step(page, 'sign in', async () => {
			await page.goto(`${N8N_URL}/signin`, { waitUntil: 'domcontentloaded' });
			await (await visible(page, tid('emailOrLdapLoginId') + ' input', 60_000)).type(OWNER_EMAIL);
			await (await visible(page, tid('password') + ' input')).type(OWNER_PASSWORD);
			await (await visible(page, tid('form-submit-button'))).click();
			await until(
				async () => !page.url().includes('/signin'),
				30_000,
				async () => `still on the sign-in page: ${await text(page, 'body')}`,
			);
			pass(`signed in as ${OWNER_EMAIL} (${new URL(page.url()).pathname})`);
		});
		if (signedIn) {
			// What the editor itself knows about our nodes: the expectations follow the descriptions.
			const types = (await page.evaluate(
				async () => (await (await fetch('/types/nodes.json')).json()) as unknown[],
			)) as NodeDescription[];
			pathCompleted = await userPath(page, types);
			await step(page, 'labels at the default panel width', async () => {
				const { cut, inspected, empty } = await checkLabels(page, N8N_URL, types, [
					ACTION,
					TRIGGER,
				]);
				check(
					inspected > 0 && empty.length === 0,
					`the label check measured parameters in every panel (${inspected} in all)`,
					`no parameter found in: ${empty.join('; ') || 'any panel'}`,
				);
				check(
					inspected > 0 && cut.length === 0,
					'no parameter label is cut off at the default panel width, in the panel of any operation',
					`cut off with "…": ${cut.join('; ')}`,
				);
			});
		}
	} catch (error) {
		fail(`unexpected error: ${scrub((error as Error).stack ?? String(error))}`);
	} finally {
		await browser?.close().catch(() => undefined);
	}
	if (IMAGES) {
		if (pathCompleted) {
			mkdirSync(IMAGES, { recursive: true });
			for (const shot of shots) copyFileSync(shot, join(IMAGES, shot.split('/').pop() as string));
			console.log(
				`screenshots written to ${IMAGES}: ${shots.map((s) => s.split('/').pop()).join(', ')}`,
			);
		} else {
			console.log('screenshots not updated: the user path did not reach its end');
		}
	}
	console.log(`(browser checks done; screenshots in ${SHOTS})`);
	process.exit(failed === 0 ? 0 : 1);
}

void main();
