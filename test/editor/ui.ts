/* eslint-disable @n8n/community-nodes/no-restricted-globals -- browser test helper: lets the editor's debounced input settle */
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Interactions with n8n's editor (a Vue app). Elements are found by the data-test-id attributes
// n8n's own end-to-end tests use; waiting is puppeteer's (waitForSelector, waitForFunction and
// locators, which also wait for an element to stop moving before a click).
import type { ElementHandle, Page } from 'puppeteer-core';

export const NDV = '[data-test-id="ndv"]';
export const CREATOR = '[data-test-id="node-creator"]';
export const CREDENTIAL_MODAL = '[data-test-id="editCredential-modal"]';
export const CREATOR_ITEM = `${CREATOR} [data-test-id="item-iterator-item"]`;
const DROPDOWN_ITEM = '.el-select-dropdown__item';

/** `[data-test-id="…"]`, optionally inside a scope selector. */
export function tid(id: string, scope = ''): string {
	return `${scope ? `${scope} ` : ''}[data-test-id="${id}"]`;
}

/** The visible text of `selector`, whitespace collapsed, bounded for messages. */
export async function text(page: Page, selector: string, max = 600): Promise<string> {
	const value = await page
		.$eval(selector, (e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
		.catch(() => `(no ${selector})`);
	return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** First lines of the visible elements that match `selector`, in page order. */
export async function labels(page: Page, selector: string): Promise<string[]> {
	return await page.$$eval(selector, (elements) =>
		elements
			// A list still fading out is gone for the user, though it stays in the page a moment.
			.filter(
				(e) => (e as HTMLElement).offsetParent !== null && !e.closest('[class*="-leave-active"]'),
			)
			.map((e) => ((e as HTMLElement).innerText ?? '').trim().split('\n')[0].trim()),
	);
}

/** Waits until the visible labels of `selector` satisfy `accept`, and returns them. */
export async function waitForLabels(
	page: Page,
	selector: string,
	accept: (shown: string[]) => boolean,
	timeout = 15_000,
): Promise<string[]> {
	let shown: string[] = [];
	const deadline = Date.now() + timeout;
	do {
		shown = await labels(page, selector).catch(() => []);
		if (accept(shown)) return shown;
		await page.waitForNetworkIdle({ idleTime: 200, timeout: 1_000 }).catch(() => undefined);
	} while (Date.now() < deadline);
	throw new Error(`${selector} shows ${JSON.stringify(shown)} (after ${timeout / 1000} s)`);
}

/**
 * Clicks the visible element of `selector` whose first line of text is `label`, once it is still.
 * The element is marked and clicked through a locator of its mark: a list the editor draws again
 * (its options recomputed by a change that has just landed) drops the mark, and the element is
 * then found and marked again, where a handle would wait on a detached element until it timed out.
 */
export async function clickText(page: Page, selector: string, label: string, timeout = 15_000) {
	const deadline = Date.now() + timeout;
	for (let round = 1; ; round++) {
		const mark = `${Date.now()}-${round}`;
		const found = await page
			.waitForFunction(
				(s, l, m) => {
					const element = [...document.querySelectorAll<HTMLElement>(s)].find(
						(e) =>
							e.offsetParent !== null && (e.innerText ?? '').trim().split('\n')[0].trim() === l,
					);
					element?.setAttribute('data-contentgen-click', m);
					return !!element;
				},
				{ timeout: Math.max(1, deadline - Date.now()) },
				selector,
				label,
				mark,
			)
			.then(
				() => true,
				() => false,
			);
		if (!found)
			throw new Error(
				`no "${label}" among ${selector}: ${JSON.stringify(await labels(page, selector))}`,
			);
		const clicked = await page
			.locator(`[data-contentgen-click="${mark}"]`)
			.setTimeout(5_000)
			.click()
			.then(
				() => true,
				() => false,
			);
		if (clicked) return;
		if (Date.now() >= deadline)
			throw new Error(`"${label}" among ${selector} was drawn again each time before its click`);
	}
}

/** Replaces the value of an input (the editor keeps a redacted secret in it, so select all first). */
export async function fill(page: Page, selector: string, value: string) {
	const current = async () =>
		await page.$eval(selector, (e) => (e as HTMLInputElement).value).catch(() => '(gone)');
	// A field that has just appeared may still be taking its default (or be drawn again): clear the
	// element found now, until it stays empty.
	for (let attempt = 1; attempt <= 3 && (attempt === 1 || (await current()) !== ''); attempt++) {
		await page.locator(selector).click();
		await page.keyboard.down('Control');
		await page.keyboard.press('KeyA');
		await page.keyboard.up('Control');
		await page.keyboard.press('Backspace');
		await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
	}
	if ((await current()) !== '')
		throw new Error(`${selector} kept "${await current()}" after clearing`);
	await page.keyboard.type(value);
	// Leave the field so the editor commits the value (not with Tab: that would open the next select),
	// and give its debounced model update time to land before anything is saved or run.
	await page.$eval(selector, (e) => (e as HTMLInputElement).blur());
	await new Promise((resolve) => setTimeout(resolve, 400));
	if ((await current()) !== value) {
		throw new Error(`${selector} shows "${await current()}" after typing "${value}"`);
	}
}

const inputValue = async (page: Page, name: string) =>
	await page.$eval(
		`${tid(`parameter-input-${name}`, NDV)} input`,
		(e) => (e as HTMLInputElement).value,
	);

/**
 * Opens the option list of parameter `name`. A list fading out still covers the page: a click on
 * the field then lands on it and is lost, so the click waits for it to go.
 */
async function openList(page: Page, name: string) {
	await page.waitForFunction(() => !document.querySelector('[class*="-leave-active"]'), {
		timeout: 5_000,
	});
	await page.locator(tid(`parameter-input-${name}`, NDV)).click();
}

/** Picks `label` in the options parameter `name` of the open node panel. */
export async function selectOption(page: Page, name: string, label: string) {
	if ((await inputValue(page, name)) === label) return;
	await openList(page, name);
	await clickText(page, DROPDOWN_ITEM, label);
	await page.waitForFunction(
		(s, l) => (document.querySelector(s) as HTMLInputElement | null)?.value === l,
		{ timeout: 5_000 },
		`${tid(`parameter-input-${name}`, NDV)} input`,
		label,
	);
}

const ticked = async (page: Page) =>
	await page.$$eval(DROPDOWN_ITEM, (items) =>
		items
			.filter((e) => (e as HTMLElement).offsetParent !== null && e.classList.contains('selected'))
			.map((e) => ((e as HTMLElement).innerText ?? '').trim().split('\n')[0].trim()),
	);

/** Ticks every label in the multi-options parameter `name`, each one checked, then closes the list. */
export async function selectMany(page: Page, name: string, wanted: string[]) {
	await openList(page, name);
	for (const label of wanted) {
		if (!(await ticked(page)).includes(label)) await clickText(page, DROPDOWN_ITEM, label);
		await waitForLabels(page, `${DROPDOWN_ITEM}.selected`, (shown) => shown.includes(label), 5_000);
	}
	await closeDropdown(page);
}

/** Options the user can pick in the options parameter `name`, then closes the list. */
export async function optionsOf(page: Page, name: string): Promise<string[]> {
	await openList(page, name);
	const options = await waitForLabels(page, DROPDOWN_ITEM, (shown) => shown.length > 0, 10_000);
	await closeDropdown(page);
	return options;
}

/** Closes an open option list with Escape, which the list takes for itself (the panel stays). */
export async function closeDropdown(page: Page) {
	await page.keyboard.press('Escape');
	await waitForLabels(page, DROPDOWN_ITEM, (shown) => shown.length === 0, 5_000);
	if (!(await page.$(NDV)))
		throw new Error('Escape closed the node panel instead of the option list');
}

export async function setSwitch(page: Page, name: string, on: boolean) {
	const selector = `${tid(`parameter-input-${name}`, NDV)} .el-switch`;
	const isOn = async () => await page.$eval(selector, (e) => e.classList.contains('is-checked'));
	if ((await isOn()) !== on) await page.locator(selector).click();
	await page.waitForFunction(
		(s, want) => document.querySelector(s)?.classList.contains('is-checked') === want,
		{ timeout: 5_000 },
		selector,
		on,
	);
}

/**
 * Adds the option `label` to the collection parameter labelled `collection` and waits for its field.
 * A pick made while the panel is still drawing a change just before it (a switch that shows the
 * option) can be lost: then the list is closed and the option picked again, three times at most.
 */
export async function addCollectionOption(page: Page, collection: string, label: string) {
	for (let attempt = 1; ; attempt++) {
		let button: ElementHandle | null = null;
		for (const item of await page.$$(tid('parameter-item', NDV))) {
			const title = await item
				.$eval(tid('input-label'), (e) => (e as HTMLElement).innerText.trim())
				.catch(() => '');
			if (title.split('\n')[0] === collection)
				button = await item.$(tid('collection-parameter-add'));
		}
		if (!button) throw new Error(`no collection "${collection}" in the panel`);
		await button.click();
		await clickText(page, tid('collection-parameter-option'), label);
		const missed = await waitForLabels(
			page,
			tid('input-label', NDV),
			(shown) => shown.includes(label),
			5_000,
		).then(
			() => undefined,
			(error: Error) => error.message,
		);
		if (missed === undefined) return;
		if (attempt === 3) throw new Error(`${missed}, picked ${attempt} times`);
		// A list that is only fading out closes by itself; Escape then would close the panel.
		await new Promise((resolve) => setTimeout(resolve, 500));
		if ((await labels(page, DROPDOWN_ITEM)).length > 0) await closeDropdown(page);
	}
}

/** The output panel's schema view: each field with its value, one under the other. */
export async function showSchema(page: Page) {
	await page.locator(tid('radio-button-schema', tid('output-panel', NDV))).click();
	await page
		.waitForSelector(`${tid('output-panel', NDV)} ${tid('run-data-schema-item')}`, {
			visible: true,
			timeout: 10_000,
		})
		.catch(() => undefined);
}

/** Rows of the output panel's table view, as {column: cell text}. */
export async function outputRows(page: Page): Promise<Array<Record<string, string>>> {
	const output = tid('output-panel', NDV);
	const tableButton = await page.$(tid('radio-button-table', output));
	if (tableButton) await tableButton.click();
	const table = await page.waitForSelector(`${output} table`, { visible: true, timeout: 10_000 });
	return await table!.evaluate((t) => {
		const heads = [...t.querySelectorAll('thead th')].map((e) =>
			(e as HTMLElement).innerText.trim(),
		);
		return [...t.querySelectorAll('tbody > tr')].map((row) =>
			Object.fromEntries(
				[...row.querySelectorAll(':scope > td')].map((cell, i) => [
					heads[i] ?? String(i),
					(cell as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
				]),
			),
		);
	});
}

/**
 * Presses the panel's execute button ("Execute step", "Fetch Test Event") and waits until the
 * output panel shows the new run; a failed run throws with what the panel says.
 */
export async function execute(
	page: Page,
	timeout = 120_000,
): Promise<Array<Record<string, string>>> {
	const output = tid('output-panel', NDV);
	const before = await page.$eval(output, (e) => (e as HTMLElement).innerText);
	await page.locator(tid('node-execute-button', NDV)).click();
	await page
		.waitForFunction(
			(s, previous) => {
				const panel = document.querySelector<HTMLElement>(s);
				return (
					!!panel &&
					panel.innerText !== previous &&
					!!panel.querySelector(
						'[data-test-id="node-run-status-success"], [data-test-id="node-run-status-danger"], [data-test-id="node-error-message"]',
					) &&
					!/executing node/i.test(panel.innerText)
				);
			},
			{ timeout },
			output,
			before,
		)
		.catch(async () => {
			throw new Error(`no result in the output panel: ${await text(page, output)}`);
		});
	if (await page.$(tid('node-run-status-danger', output))) {
		throw new Error(`the step failed: ${await text(page, output)}`);
	}
	return await outputRows(page);
}

export async function dismissToasts(page: Page) {
	for (const close of await page.$$('.el-notification .el-notification__closeBtn')) {
		await close.click().catch(() => undefined);
	}
	await page
		.waitForFunction(() => document.querySelectorAll('.el-notification').length === 0, {
			timeout: 3_000,
		})
		.catch(() => undefined);
}

/** Opens a node's panel by double-clicking it on the canvas; `which` is e.g. `[data-node-name="…"]`. */
export async function openNode(page: Page, which: string) {
	const node = await page.locator(`[data-test-id="canvas-node"]${which}`).waitHandle();
	// The canvas may still be fitting its view when it first shows: a double click that lands
	// beside the moving node opens nothing, so it is made again on the node's new box.
	for (let attempt = 1; ; attempt++) {
		await node.evaluate((e) => e.scrollIntoView({ block: 'center' }));
		const box = await node.boundingBox();
		if (!box) throw new Error(`node ${which} has no box on the canvas`);
		await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { count: 2 });
		const opened = await page
			.waitForSelector(tid('node-parameters', NDV), { visible: true, timeout: 10_000 })
			.catch(() => null);
		if (opened) return;
		if (attempt === 3) throw new Error(`node ${which} did not open after ${attempt} double clicks`);
	}
}

export async function closeNode(page: Page) {
	await page.locator(tid('ndv-close-button')).click();
	await page.waitForFunction((s) => !document.querySelector(s), { timeout: 10_000 }, NDV);
}

/** The subtitle n8n shows under each node on the canvas, by node name. */
export async function canvasSubtitles(page: Page): Promise<Record<string, string>> {
	return await page.$$eval('[data-test-id="canvas-node"]', (nodes) =>
		Object.fromEntries(
			nodes.map((n) => [
				n.getAttribute('data-node-name') ?? '',
				(
					n.querySelector(
						'[data-test-id="canvas-node-box-subtitle"], [class*="subtitle"]',
					) as HTMLElement | null
				)?.innerText.trim() ?? '',
			]),
		),
	);
}
