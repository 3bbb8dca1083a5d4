/**
 * Every operation of the node's map, run through n8n's engine against the sandbox with the
 * successful runs of test/suites/cases/operations.ts: it succeeds, its items are paired with
 * the input, and it sends only the methods its case declares, only to the API's routes.
 */
import { describeEachOperation, successfulRuns } from './cases/operations';
import { isAllowedPath, runNode, seededRecords, type Records } from './helpers';

let records: Records;

beforeAll(async () => {
	records = await seededRecords(31);
});
afterAll(async () => {
	await records.sb.close();
});

describeEachOperation('engine', (ref, entry) => {
	it.each(successfulRuns(ref, entry))('runs: %s', async (_name, params) => {
		const { sb } = records;
		sb.control.resetRequests();
		const result = await runNode(sb, params(records));
		expect(result.error).toBeUndefined();
		const output = result.output('ContentGen');
		expect(output.length).toBeGreaterThan(0);
		expect(output.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		const api = sb.control.requests().filter((r) => !r.path.startsWith('/files/'));
		expect(api.filter((r) => !isAllowedPath(r.path))).toEqual([]);
		const methods = new Set(api.map((r) => r.method));
		// a POST operation may read too (Wait for Completion, Minimum Balance to Keep)
		expect(methods.has(entry.method)).toBe(true);
		if (entry.method === 'GET') expect([...methods]).toEqual(['GET']);
	});
});
