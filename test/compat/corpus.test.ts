/**
 * Every workflow of the compatibility corpus (./corpus.ts), as saved under an earlier build, is read
 * and run by this build as it was then: the same parameters, the same POSTs, every read it made,
 * the same items, every output field with its type, the same trigger events.
 */
import {
	differences,
	loadCorpus,
	observe,
	ourNode,
	parameters,
	served,
	sourceBuild,
	versionsOf,
} from './corpus';
import { setupNock } from '../helpers/nock';
import { TEST_API_KEY, TEST_BASE_URL } from '../../harness/engine';
import { CompatService, IDS } from './service';

const corpus = loadCorpus();
const build = sourceBuild();

setupNock();

test('the corpus holds workflows of both nodes, frozen by at least one release', () => {
	const types = new Set(corpus.map((f) => ourNode(f.workflow).type));
	expect([...types].sort()).toEqual([
		'n8n-nodes-contentgen.contentGen',
		'n8n-nodes-contentgen.contentGenTrigger',
	]);
});

interface Answer {
	data?: Array<{ id: string }>;
	error?: { message: string };
}

test("the corpus's account is the sandbox: its route table answers, with the corpus's records", async () => {
	const account = new CompatService();
	account.start();
	try {
		const get = async (path: string) => {
			const response = await fetch(`${TEST_BASE_URL}/api/v1${path}`, {
				headers: { Authorization: `Bearer ${TEST_API_KEY}` },
			});
			return { status: response.status, body: (await response.json()) as Answer };
		};
		const missing = await get('/no-such-route');
		expect([missing.status, missing.body.error?.message]).toEqual([
			404,
			'Route GET /api/v1/no-such-route not found',
		]);
		const projects = await get('/projects');
		expect(projects.body.data?.map((p) => p.id)).toEqual([IDS.otherProject, IDS.project]);
	} finally {
		account.stop();
	}
});

test.each(corpus.map((f) => [`${f.release}/${f.name}`, f] as const))(
	'%s reads and runs as it did when it was frozen',
	async (_name, frozen) => {
		const node = ourNode(frozen.workflow);
		const type = node.type.endsWith('Trigger') ? build.trigger() : build.action();
		// a version a saved workflow names stays available
		expect(versionsOf(served(type))).toContain(node.typeVersion);
		const read = parameters(type, node, 'read');
		const now = await observe(build, frozen.workflow, frozen.expected.frozenAt);
		expect(differences(frozen.expected, node.parameters, read, now)).toEqual([]);
	},
);
