// The leg "1.x line": the packed package in the maintained n8n 1.x release (test/n8n/versions.json,
// line1), one process on SQLite running on the Node that release needs (22, from the npm registry;
// this test itself runs on 24). `n8n execute` runs the credits smoke workflow, its wrong-key copy
// (which must fail, saying why) and the content-pipeline example (generate with Wait for
// Completion, social posts, scheduling, credits); then in `n8n start`: the types n8n serves and the
// credential test as the editor runs it.
import { execute, importCredentials, importWorkflows } from './harness/cli';
import { Deployment } from './harness/deployment';
import { judgeRun } from './harness/judge';
import { prepareWorkflows } from './harness/prepare';
import { report } from './harness/report';
import {
	ACCOUNT,
	accountCredentials,
	exampleFile,
	fixture,
	editorTests,
	importAndWrongKeyTests,
	WRONG,
} from './harness/single';
import { pin } from './harness/versions';

const deployment = new Deployment({
	pin: pin('line1'),
	mode: 'single',
	workers: 0,
	settings: () => ({}),
});
const prepared = prepareWorkflows(
	[fixture('smoke-credits.json'), exampleFile('content-pipeline.json')],
	{ account: ACCOUNT, wrongKey: WRONG },
);
let listing: string[] = [];
const outputs: string[] = [];

beforeAll(async () => {
	await deployment.prepare();
	await importCredentials(deployment, accountCredentials(deployment.sandbox));
	listing = await importWorkflows(
		deployment,
		prepared.map((p) => ({ ...p.workflow, id: p.id })),
	);
});

afterAll(async () => {
	await deployment.stop();
});

importAndWrongKeyTests(deployment, prepared, () => listing, outputs);

test.each(prepared.filter((p) => p.kind === 'manual').map((p) => [p.name, p] as const))(
	'n8n execute runs "%s" and its output meets the checks',
	async (_name, p) => {
		const result = await execute(deployment, p.id);
		outputs.push(result.stdout, result.stderr);
		const verdict = judgeRun(result, p.expect, deployment.sandbox.apiKey);
		verdict.notes.forEach((n) => report(`${p.name}: ${n}`));
		expect(verdict.failures).toEqual([]);
	},
);

describe('n8n start', () => {
	beforeAll(async () => {
		await deployment.launchAndSignIn();
	});

	editorTests(deployment, 'n8n 1.x', 'editor');

	test("the API key never appears in n8n's logs", () => {
		const key = deployment.sandbox.apiKey;
		expect(deployment.logs().includes(key)).toBe(false);
		expect(outputs.some((o) => o.includes(key))).toBe(false);
	});
});
