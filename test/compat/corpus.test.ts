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

test.each(corpus.map((f) => [`${f.release}/${f.name}`, f] as const))(
	'%s reads and runs as it did when it was frozen',
	async (_name, frozen) => {
		const node = ourNode(frozen.workflow);
		const type = node.type.endsWith('Trigger') ? build.trigger() : build.action();
		// a version a saved workflow names stays available
		expect(versionsOf(served(type))).toContain(node.typeVersion);
		const read = parameters(type, node, 'read');
		const now = await observe(build, frozen.workflow);
		expect(differences(frozen.expected, node.parameters, read, now)).toEqual([]);
	},
);
