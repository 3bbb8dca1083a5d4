/**
 * Every parameter of every operation, fuzzed with values the service would reject (or that do not
 * belong in a URL): each run must stop with a NodeOperationError naming the field, and send
 * nothing at all (the sandbox's request log stays empty). Runs through n8n's engine. The
 * operations come from the node's map, their bad values from test/suites/cases/operations.ts.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { byId, errorName, fromList, runNode, seededRecords, type Records } from './helpers';
import { describeEachOperation, fieldsOf } from './cases/operations';

const RUNS = 12;

let records: Records;
let sb: Records['sb'];

beforeAll(async () => {
	records = await seededRecords(7);
	sb = records.sb;
});
afterAll(async () => {
	await sb.close();
});

function withValue(base: IDataObject, path: string, value: unknown): IDataObject {
	const out = structuredClone(base);
	const parts = path.split('.');
	let target = out;
	for (const part of parts.slice(0, -1)) {
		target[part] = { ...((target[part] as IDataObject | undefined) ?? {}) };
		target = target[part] as IDataObject;
	}
	target[parts[parts.length - 1]] = value as IDataObject[string];
	return out;
}

function describeValue(value: unknown): string {
	const text =
		typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * Runs the node and says what is wrong, if anything: the run must stop before any request with
 * a NodeOperationError naming the field. An empty required field may instead be refused by n8n
 * itself before the node runs (WorkflowHasIssuesError, "Parameter \"Topic\" is required.").
 */
async function rejection(parameters: IDataObject, label: string): Promise<string | undefined> {
	sb.control.resetRequests();
	let name: string | undefined;
	let message = '';
	try {
		const result = await runNode(sb, parameters);
		name = result.error ? errorName(result) : undefined;
		message = result.error?.message ?? '';
	} catch (error) {
		name = (error as Error).name;
		message = (error as Error).message;
	}
	const sent = sb.control.requests().map((r) => `${r.method} ${r.path}`);
	const accepted =
		(name === 'NodeOperationError' && message.includes(label)) ||
		(name === 'WorkflowHasIssuesError' && message.includes(`"${label}" is required`));
	if (accepted && sent.length === 0) return undefined;
	return `${name ?? 'no error'} "${message}", requests: ${JSON.stringify(sent)}`;
}

describeEachOperation('bad-input', (ref, entry) => {
	const { resource, operation } = ref;
	const valid = () => entry.valid(records);

	it('sends a request when every parameter is valid (so the zero-request check is live)', async () => {
		sb.control.resetRequests();
		const result = await runNode(sb, { resource, operation, ...valid() });
		expect(result.error).toBeUndefined();
		expect(sb.control.requests().length).toBeGreaterThan(0);
	});

	const fields = fieldsOf(ref, entry);
	if (fields.length === 0) return;
	it.each(fields.map((field) => [field.path, field] as const))(
		'rejects bad %s before any request, naming the field',
		async (_path, field) => {
			await fc.assert(
				fc.asyncProperty(field.bad, async (value) => {
					const parameters = withValue(
						{ resource, operation, ...valid(), ...field.with },
						field.path,
						value,
					);
					const verdict = await rejection(parameters, field.label);
					if (verdict) throw new Error(`${field.path} = ${describeValue(value)}: ${verdict}`);
				}),
				{ numRuns: field.runs ?? RUNS, seed: 20261 },
			);
		},
	);
});

describe('batches and n8n-side checks', () => {
	it('spends nothing when one item of a batch is invalid (without Continue On Fail)', async () => {
		sb.control.resetRequests();
		const ledger = sb.control.ledger().length;
		const result = await runNode(
			sb,
			{
				resource: 'article',
				operation: 'generate',
				topic: '={{ $json.topic }}',
				projectId: fromList(records.projectId),
			},
			{ input: [{ topic: 'First valid topic' }, { topic: 'no' }, { topic: 'Third valid topic' }] },
		);
		expect(errorName(result)).toBe('NodeOperationError');
		expect(result.error?.message).toContain('Topic');
		expect(sb.control.requests()).toEqual([]);
		expect(sb.control.ledger().length).toBe(ledger);
	});

	it('under Continue On Fail, fails only the invalid item and sends only the valid ones', async () => {
		sb.control.resetRequests();
		const result = await runNode(
			sb,
			{ resource: 'article', operation: 'get', articleId: '={{ $json.id }}' },
			{ input: [{ id: records.articleId }, { id: '../user/credits' }], continueOnFail: true },
		);
		const output = result.output('ContentGen');
		expect(output[0].json.id).toBe(records.articleId);
		expect(output[1].json.error).toContain('Article ID');
		expect(output[1].pairedItem).toEqual({ item: 1 });
		expect(sb.control.requests().map((r) => r.path)).toEqual([
			`/api/v1/articles/${records.articleId}`,
		]);
	});

	it('a project typed in ID mode is checked by n8n itself before the node runs', async () => {
		sb.control.resetRequests();
		await expect(
			runNode(sb, { resource: 'project', operation: 'get', projectId: byId('../user/credits') }),
		).rejects.toThrow(/Not a valid project ID/);
		expect(sb.control.requests()).toEqual([]);
	});

	it('an unknown operation is refused without a request', async () => {
		sb.control.resetRequests();
		const result = await runNode(sb, { resource: 'account', operation: '../user/credits' });
		expect(result.error?.message).toContain('not supported');
		expect(sb.control.requests()).toEqual([]);
	});
});
