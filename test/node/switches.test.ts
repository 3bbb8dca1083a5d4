import nock from 'nock';

import { runWorkflow, singleNodeWorkflow, TEST_BASE_URL } from '../helpers/engine';
import { setupNock } from '../helpers/nock';

// Boolean parameters can be set by expressions; anything but true/false is refused by name.
describe('switch parameters set by expressions', () => {
	setupNock();

	it.each([
		[
			{ resource: 'article', operation: 'getMany', returnAll: '={{ "yes" }}' },
			`'Return All' must be true or false, got "yes" [item 0]`,
		],
		[
			{
				resource: 'socialContent',
				operation: 'get',
				contentId: { __rl: true, mode: 'id', value: '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' },
				options: { splitByPlatform: '={{ 1 }}' },
			},
			"'Split by Platform' must be true or false, got 1 [item 0]",
		],
		[
			{
				resource: 'article',
				operation: 'generate',
				topic: 'A fine topic',
				projectId: { __rl: true, mode: 'id', value: '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' },
				waitForCompletion: '={{ "later" }}',
			},
			`'Wait for Completion' must be true or false, got "later" [item 0]`,
		],
	])('%j is refused before any request', async (parameters, message) => {
		const result = await runWorkflow(singleNodeWorkflow(parameters));
		expect(result.error?.message).toBe(message);
	});

	it('the text "true" from an expression counts as true', async () => {
		const scope = nock(TEST_BASE_URL)
			.get('/api/v1/articles')
			.query({ page: '1', limit: '100' })
			.reply(200, {
				success: true,
				data: [],
				pagination: { total: 0, page: 1, limit: 100, total_pages: 0, has_more: false },
			});
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'article', operation: 'getMany', returnAll: '={{ "true" }}' }),
		);
		expect(result.error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});
});
