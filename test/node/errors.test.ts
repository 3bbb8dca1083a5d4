/**
 * Errors in n8n's structure: the message says what happened, names the parameter by its display
 * name in single quotes and ends with the item (`[item 2]`); the description says how to go on.
 */
import nock from 'nock';

import { runWorkflow, singleNodeWorkflow, TEST_BASE_URL } from '../helpers/engine';
import { setupNock } from '../helpers/nock';
import { ARTICLE_ID } from './fixtures';

describe('errors in n8n structure', () => {
	setupNock();

	const serveStatus = () => {
		const status = { article_id: ARTICLE_ID, status: 'queued', progress: 10, is_complete: false };
		nock(TEST_BASE_URL)
			.get(`/api/v1/articles/${ARTICLE_ID}/status`)
			.times(2)
			.reply(200, { success: true, data: status });
	};

	const input = [{ id: ARTICLE_ID }, { id: ARTICLE_ID }, { id: 'not-an-id' }];

	it('an input refused on item 2 says so, with the parameter in single quotes', async () => {
		// Items 0 and 1 are read (reads go out as their items are checked); item 2 stops the node.
		serveStatus();
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'article',
				operation: 'getStatus',
				articleId: '={{ $json.id }}',
			}),
			{ input },
		);
		expect(result.error?.message).toBe(
			`'Article ID' must be a UUID such as 3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f, got "not-an-id" [item 2]`,
		);
		expect(result.error?.description).toBe(
			"Change 'Article ID' for this item (its value or its expression) and run the node again. Nothing was sent to the service and no credits were spent.",
		);
	});

	it('under Continue On Fail only item 2 is an error item, and it names itself', async () => {
		serveStatus();
		const result = await runWorkflow(
			singleNodeWorkflow(
				{ resource: 'article', operation: 'getStatus', articleId: '={{ $json.id }}' },
				{ continueOnFail: true },
			),
			{ input },
		);
		const items = result.output('ContentGen').map((item) => item.json);
		expect(items.map((json) => json.error ?? json.status)).toEqual([
			'queued',
			'queued',
			`'Article ID' must be a UUID such as 3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f, got "not-an-id" [item 2]`,
		]);
	});
});
