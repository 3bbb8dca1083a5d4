// The credential, created from the node's panel as a user would, tested by n8n as it saves it.
import { ACTION, docsHref, signedIn, openWorkflow, screenshot, step } from './browser';
import { docsLinkProblem } from './described';
import { clickText, CREDENTIAL_MODAL, fill, NDV, openNode, text, tid } from './ui';

const current = signedIn();

const field = (name: string) => `${tid(`parameter-input-${name}`, CREDENTIAL_MODAL)} input`;

describe('credential', () => {
	step(
		"a wrong key shows the node's message, the right one passes and retests",
		current,
		async (page, state) => {
			await openWorkflow(page, state, 'Credential', [
				{
					name: 'Generate an article',
					type: ACTION,
					parameters: { resource: 'article', operation: 'generate' },
				},
			]);
			await openNode(page, '[data-node-name="Generate an article"]');
			// A credential made by another test is picked by itself: then a new one comes from the list.
			if (await page.$(tid('node-credentials-empty-state', NDV))) {
				await page.locator(tid('node-credentials-empty-state', NDV)).click();
			} else {
				await page.locator(tid('node-credentials-select', NDV)).click();
				await page.locator(tid('node-credentials-select-item-new')).click();
			}
			await page.waitForSelector(CREDENTIAL_MODAL, { visible: true });
			expect(docsLinkProblem(await docsHref(page, CREDENTIAL_MODAL))).toBeUndefined();

			const wrongKey = `svc_${'0'.repeat(64)}`;
			await fill(page, field('apiKey'), wrongKey);
			await fill(page, field('baseUrl'), state.sandboxUrl);
			await page.locator(tid('credential-save-button', CREDENTIAL_MODAL)).click();
			await clickText(
				page,
				`${CREDENTIAL_MODAL} a, ${CREDENTIAL_MODAL} span`,
				'More details',
				30_000,
			);
			await page.waitForFunction(
				(s) => /not accepted/i.test(document.querySelector<HTMLElement>(s)?.innerText ?? ''),
				{ timeout: 15_000 },
				CREDENTIAL_MODAL,
			);
			const message = await text(page, CREDENTIAL_MODAL, 2_000);
			expect(message).toMatch(/The API key[^.]*not accepted/i);
			expect(message).not.toContain(wrongKey);

			await fill(page, field('apiKey'), state.apiKey);
			await page.locator(tid('credential-save-button', CREDENTIAL_MODAL)).click();
			// n8n closes the dialog by itself when the saved credential passes its test.
			await page.waitForFunction(
				(s) => !document.querySelector(s),
				{ timeout: 30_000 },
				CREDENTIAL_MODAL,
			);
			const selected = await page.$eval(
				`${tid('node-credentials-select', NDV)} input`,
				(e) => (e as HTMLInputElement).value,
			);
			expect(selected).not.toBe('');

			await page.locator(tid('credential-edit-button', NDV)).click();
			await page.waitForSelector(CREDENTIAL_MODAL, { visible: true });
			await clickText(page, `${CREDENTIAL_MODAL} button`, 'Retry');
			const banner = tid('credentials-config-container-test-success', CREDENTIAL_MODAL);
			await page.waitForFunction(
				(s) => {
					const shown = document.querySelector<HTMLElement>(s)?.innerText ?? '';
					return /tested successfully/i.test(shown) && !/retrying/i.test(shown);
				},
				{ timeout: 30_000 },
				banner,
			);
			await screenshot(page, state, 'credential-test', CREDENTIAL_MODAL);
			await page.locator(`${CREDENTIAL_MODAL} .el-dialog__headerbtn`).click();
			await page.waitForFunction(
				(s) => !document.querySelector(s),
				{ timeout: 10_000 },
				CREDENTIAL_MODAL,
			);
		},
	);
});
