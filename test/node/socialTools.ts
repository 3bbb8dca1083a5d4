import nock from 'nock';

import { runWorkflow, singleNodeWorkflow, TEST_API_KEY, TEST_BASE_URL } from '../helpers/engine';
import { withoutStrayRequests } from '../helpers/nock';

/** The service, answering only requests that carry the test key. */
export const api = () =>
	nock(TEST_BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } });
export const CONTENT_ID_2 = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

/** Runs the social content resource with `parameters` and expects `field` refused, nothing sent. */
export async function expectRejected(parameters: Record<string, unknown>, field: string) {
	await withoutStrayRequests(async () => {
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'socialContent', ...parameters }),
		);
		expect(result.error?.message.startsWith(`'${field}' must`)).toBe(true);
		expect(result.error?.description).toContain(`Change '${field}' for this item`);
	});
}
