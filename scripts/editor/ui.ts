/* eslint-disable @n8n/community-nodes/no-restricted-globals -- dev-only browser driver: waits with timers */
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Small, bounded interactions with n8n's editor (a Vue app). Elements are found by the
// data-test-id attributes n8n's own end-to-end tests use; every wait has a deadline and a failure
// says what was on the page instead.
import type { ElementHandle, Page } from 'puppeteer-core';

export const NDV = '[data-test-id="ndv"]';
export const CREATOR = '[data-test-id="node-creator"]';
export const CREDENTIAL_MODAL = '[data-test-id="editCredential-modal"]';

/** `[data-test-id="…"]`, optionally inside a scope selector. */
export function tid(id: string, scope = ''): string {
	return `${scope ? `${scope} ` : ''}[data-test-id="${id}"]`;
}

export const pause = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns something truthy; throws `describe()` after `timeoutMs`. */
export async function until<T>(
	probe: () => Promise<T | undefined | null | false>,
	timeoutMs: number,
	describe: () => Promise<string> | string,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe().catch(() => undefined);
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`${await describe()} (after ${timeoutMs / 1000} s)`);
		await pause(200);
	}
}

export async function visible(page: Page, selector: string, timeoutMs = 20_000) {
	return await until(
		async () => {
			const element = await page.$(selector);
			return element && (await element.isVisible()) ? element : null;
		},
		timeoutMs,
		() => `${selector} did not appear`,
	);
}

/** First lines of the visible elements that match `selector`, in page order. */
export async function labels(page: Page, selector: string): Promise<string[]> {
	return await page.$$eval(selector, (elements) =>
		elements
			.filter((e) => (e as HTMLElement).offsetParent !== null)
			.map((e) => ((e as HTMLElement).innerText ?? '').trim().split('\n')[0].trim()),
	);
}

/** Clicks the visible element of `selector` whose first line of text is `text` (waits for it). */
export async function clickText(page: Page, selector: string, text: string, timeoutMs = 15_000) {
	const element = await until(
		async () => {
			for (const candidate of await page.$$(selector)) {
				const [label, shown] = await candidate.evaluate((e) => [
					((e as HTMLElement).innerText ?? '').trim().split('\n')[0].trim(),
					(e as HTMLElement).offsetParent !== null,
				]);
				if (shown && label === text) return candidate;
			}
			return null;
		},
		timeoutMs,
		async () => `no "${text}" among ${selector}: ${JSON.stringify(await labels(page, selector))}`,
	);
	await element.click();
}

/** Replaces the value of an input (the editor keeps a redacted secret in it, so select all first). */
export async function fill(page: Page, selector: string, value: string) {
	const input = await visible(page, selector);
	await input.click();
	await page.keyboard.down('Control');
	await page.keyboard.press('KeyA');
	await page.keyboard.up('Control');
	await page.keyboard.press('Backspace');
	await input.type(value);
	// Leave the field so the editor commits the value before anything else happens (not with Tab:
	// that would focus, and so open, the next select).
	await input.evaluate((e) => (e as HTMLInputElement).blur());
	await pause(300);
}

/** Picks `label` in the options parameter `name` of the open node panel. */
export async function selectOption(page: Page, name: string, label: string) {
	const input = tid(`parameter-input-${name}`, NDV);
	const value = async () =>
		await page.$eval(`${input} input`, (e) => (e as HTMLInputElement).value);
	// A click while the list is still sliding open can miss: try again, a bounded number of times.
	for (let attempt = 1; attempt <= 3 && (await value()) !== label; attempt++) {
		await (await visible(page, input)).click();
		await pause(400);
		await clickText(page, '.el-select-dropdown__item', label);
		await until(
			async () => (await value()) === label,
			3_000,
			() => '',
		).catch(() => undefined);
	}
	if ((await value()) !== label) {
		throw new Error(
			`parameter ${name} did not take the value ${label} (it shows "${await value()}")`,
		);
	}
}

/** Options the user can pick in the options parameter `name`, then closes the list. */
export async function optionsOf(page: Page, name: string): Promise<string[]> {
	await (await visible(page, tid(`parameter-input-${name}`, NDV))).click();
	const options = await until(
		async () => {
			const found = await labels(page, '.el-select-dropdown__item');
			return found.length > 0 ? found : null;
		},
		10_000,
		() => `the list of ${name} did not open`,
	);
	await closeDropdown(page);
	return options;
}

/** Closes an open option list with Escape, which the list takes for itself (the panel stays). */
export async function closeDropdown(page: Page) {
	await page.keyboard.press('Escape');
	await until(
		async () => (await labels(page, '.el-select-dropdown__item')).length === 0,
		5_000,
		() => 'the option list did not close',
	);
	if (!(await page.$(NDV)))
		throw new Error('Escape closed the node panel instead of the option list');
}

export async function setSwitch(page: Page, name: string, on: boolean) {
	const control = await visible(page, `${tid(`parameter-input-${name}`, NDV)} .el-switch`);
	const isOn = await control.evaluate((e) => e.classList.contains('is-checked'));
	if (isOn !== on) await control.click();
	await until(
		async () => (await control.evaluate((e) => e.classList.contains('is-checked'))) === on,
		5_000,
		() => `switch ${name} did not turn ${on ? 'on' : 'off'}`,
	);
}

/** Adds the option `label` to the collection parameter labelled `collection` and waits for its field. */
export async function addCollectionOption(page: Page, collection: string, label: string) {
	const items = await page.$$(tid('parameter-item', NDV));
	let button: ElementHandle | null = null;
	for (const item of items) {
		const title = await item
			.$eval(tid('input-label'), (e) => (e as HTMLElement).innerText.trim())
			.catch(() => '');
		if (title.split('\n')[0] === collection) button = await item.$(tid('collection-parameter-add'));
	}
	if (!button) throw new Error(`no collection "${collection}" in the panel`);
	await button.click();
	await clickText(page, tid('collection-parameter-option'), label);
	await pause(300);
}

/** The output panel's schema view: each field with its value, one under the other. */
export async function showSchema(page: Page) {
	await (await visible(page, tid('radio-button-schema', tid('output-panel', NDV)))).click();
	await pause(500);
}

/** Rows of the output panel's table view, as {column: cell text}. */
export async function outputRows(page: Page): Promise<Array<Record<string, string>>> {
	const output = tid('output-panel', NDV);
	const tableButton = await page.$(tid('radio-button-table', output));
	if (tableButton) await tableButton.click();
	const table = await visible(page, `${output} table`, 10_000);
	return await table.evaluate((t) => {
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
 * output panel shows the new run: its text changes and it holds a table or an error.
 */
export async function execute(
	page: Page,
	timeoutMs = 120_000,
): Promise<Array<Record<string, string>>> {
	const output = tid('output-panel', NDV);
	const before = await page.$eval(output, (e) => (e as HTMLElement).innerText);
	await (await visible(page, tid('node-execute-button', NDV))).click();
	await until(
		async () =>
			await page.$eval(
				output,
				(e, previous) =>
					(e as HTMLElement).innerText !== previous &&
					!!e.querySelector(
						'[data-test-id="node-run-status-success"], [data-test-id="node-run-status-danger"], [data-test-id="node-error-message"]',
					) &&
					!/executing node/i.test((e as HTMLElement).innerText),
				before,
			),
		timeoutMs,
		async () => `no result in the output panel: ${await text(page, output)}`,
	);
	const failed = await page.$(tid('node-run-status-danger', output));
	if (failed) throw new Error(`the step failed: ${await text(page, output)}`);
	return await outputRows(page);
}

/** The visible text of `selector`, whitespace collapsed, bounded for messages. */
export async function text(page: Page, selector: string, max = 600): Promise<string> {
	const value = await page
		.$eval(selector, (e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ').trim())
		.catch(() => `(no ${selector})`);
	return value.length > max ? `${value.slice(0, max)}…` : value;
}

export async function dismissToasts(page: Page) {
	for (const close of await page.$$('.el-notification .el-notification__closeBtn')) {
		await close.click().catch(() => undefined);
	}
	await pause(400);
}

/** Opens a node's panel by double-clicking it on the canvas; `which` is e.g. `[data-node-name="…"]`. */
export async function openNode(page: Page, which: string) {
	const node = await visible(page, `[data-test-id="canvas-node"]${which}`);
	await node.evaluate((e) => e.scrollIntoView({ block: 'center' }));
	const box = await node.boundingBox();
	if (!box) throw new Error(`node ${which} has no box on the canvas`);
	await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { count: 2 });
	await visible(page, tid('node-parameters', NDV));
}

export async function closeNode(page: Page) {
	await (await visible(page, tid('ndv-close-button'))).click();
	await until(
		async () => !(await page.$(NDV)),
		10_000,
		() => 'the node panel did not close',
	);
}
