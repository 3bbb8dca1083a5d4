/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only CLI: reads and writes workflow files, prints an index */
// Readies workflow JSON files for `n8n import:workflow` + `n8n execute`:
// gives each a stable id n8n accepts (at most 21 characters), imports it inactive, points every
// ContentGen node at the test credential (or the fixture's meta.contentgenTest.credential), attaches
// the checks to run on its output, and writes a copy of each fixture marked `brokenVariant` that uses
// the wrong-key credential. A schedule trigger is swapped for a manual trigger of the same name, so
// `n8n execute` can run the rest of the workflow unchanged.
//
//   tsx scripts/n8n/prepare-workflows.ts --out <dir> --bad-credential <id> [--openai-credential <id>]
//       <file.json>...
// Prints one line per workflow: id <TAB> kind <TAB> name <TAB> prepared file <TAB> note
//   kind: manual (run with n8n execute), trigger (starts with our trigger: activate it), broken
//   (expected to fail), agent (its OpenAI chat model is pointed at the --openai-credential, a local
//   OpenAI-compatible double: run it), external (needs a service the test cannot reach: import only)
// Checks come from the fixture's meta.contentgenTest.expect, or for examples from
// scripts/n8n/expectations.json (keyed by file name): arguments for check-execution.ts.
import { createHash } from 'crypto';
import { readFileSync, writeFileSync } from 'fs';
import { basename, join } from 'path';

const CREDENTIAL = { id: 'contentgen-sandbox', name: 'ContentGen account' };
const TRIGGER_TYPE = 'n8n-nodes-contentgen.contentGenTrigger';
const OUR_PREFIX = 'n8n-nodes-contentgen.';
const STARTING_TYPES = ['n8n-nodes-base.manualTrigger'];
const SCHEDULE_TYPES = ['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.cron'];
// Nodes that call a third-party service with credentials of their own.
const EXTERNAL_TYPE = /^@n8n\/n8n-nodes-langchain\.(lmChat|lm|embeddings)/;
// The one of them the test can stand in for: a chat model that speaks OpenAI's API.
const OPENAI_CHAT_TYPE = '@n8n/n8n-nodes-langchain.lmChatOpenAi';

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	disabled?: boolean;
}
interface Workflow {
	id?: string;
	name: string;
	active?: boolean;
	nodes: WorkflowNode[];
	connections?: unknown;
	meta?: {
		contentgenTest?: {
			expect?: string[];
			brokenVariant?: boolean;
			credential?: { id: string; name: string };
		};
	} & Record<string, unknown>;
}

function flag(name: string, optional = false): string {
	const index = process.argv.indexOf(`--${name}`);
	if (index < 0 || process.argv[index + 1] === undefined) {
		if (optional) return '';
		throw new Error(`missing --${name}`);
	}
	return process.argv[index + 1];
}

function stableId(file: string, suffix = ''): string {
	return `cg${createHash('sha256')
		.update(basename(file) + suffix)
		.digest('hex')
		.slice(0, 14)}`;
}

function withCredential(workflow: Workflow, credential: { id: string; name: string }): Workflow {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type.startsWith(OUR_PREFIX)
				? { ...node, credentials: { contentGenApi: credential } }
				: node,
		),
	};
}

function main(): void {
	const out = flag('out');
	const badCredential = { id: flag('bad-credential'), name: 'ContentGen wrong key' };
	const openAiCredential = flag('openai-credential', true);
	const files = process.argv
		.slice(2)
		.filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
	const expectations = JSON.parse(
		readFileSync(join(__dirname, '..', '..', 'test', 'n8n', 'expectations.json'), 'utf8'),
	) as Record<string, string[]>;
	const seen = new Set<string>();

	for (const file of files) {
		const original = JSON.parse(readFileSync(file, 'utf8')) as Workflow;
		if (!Array.isArray(original.nodes)) throw new Error(`${file}: not a workflow (no nodes array)`);
		for (const node of original.nodes) {
			const reference = node.credentials?.contentGenApi;
			const wanted = original.meta?.contentgenTest?.credential ?? CREDENTIAL;
			if (node.type.startsWith(OUR_PREFIX) && reference?.id !== wanted.id) {
				console.error(
					`note: ${basename(file)} node "${node.name}" uses credential ${JSON.stringify(reference ?? null)}; the test points it at ${wanted.id}`,
				);
			}
		}
		const id =
			original.id && original.id.length <= 21 && !seen.has(original.id)
				? original.id
				: stableId(file);
		seen.add(id);
		const notes: string[] = [];
		let nodes = original.nodes;
		const schedule = nodes.find((n) => SCHEDULE_TYPES.includes(n.type));
		if (
			schedule &&
			!nodes.some((n) => STARTING_TYPES.includes(n.type) || n.type === TRIGGER_TYPE)
		) {
			nodes = nodes.map((n) =>
				n === schedule ? { ...n, type: STARTING_TYPES[0], typeVersion: 1, parameters: {} } : n,
			);
			notes.push(`schedule trigger "${schedule.name}" run as a manual trigger`);
		}
		// The examples ship their publishing nodes switched off; the sandbox posts nowhere.
		const switchedOff = (n: WorkflowNode) => n.type.startsWith(OUR_PREFIX) && n.disabled === true;
		if (nodes.some(switchedOff)) {
			nodes = nodes.map((n) => (switchedOff(n) ? { ...n, disabled: false } : n));
			notes.push('its switched-off ContentGen nodes turned on');
		}
		const standIn = (n: WorkflowNode) => openAiCredential !== '' && n.type === OPENAI_CHAT_TYPE;
		const external = nodes
			.filter((n) => EXTERNAL_TYPE.test(n.type) && !standIn(n))
			.map((n) => n.name);
		const startsWithTrigger =
			nodes.some((n) => n.type === TRIGGER_TYPE) &&
			!nodes.some((n) => STARTING_TYPES.includes(n.type));
		let kind = startsWithTrigger ? 'trigger' : 'manual';
		if (nodes.some(standIn)) {
			nodes = nodes.map((n) =>
				standIn(n)
					? {
							...n,
							credentials: { openAiApi: { id: openAiCredential, name: 'OpenAI (local double)' } },
						}
					: n,
			);
			kind = 'agent';
			notes.push(
				`model: ${nodes
					.filter(standIn)
					.map((n) => `"${n.name}"`)
					.join(', ')} answered by a scripted OpenAI-compatible double`,
			);
		}
		if (external.length > 0) {
			kind = 'external';
			notes.push(`needs ${external.join(', ')}`);
		}
		const expect = original.meta?.contentgenTest?.expect ?? expectations[basename(file)] ?? [];
		const credential = original.meta?.contentgenTest?.credential ?? CREDENTIAL;
		const prepared: Workflow = {
			...withCredential({ ...original, nodes }, credential),
			id,
			active: false,
			meta: { ...original.meta, contentgenTest: { expect } },
		};
		const target = join(out, `${id}.json`);
		writeFileSync(target, JSON.stringify(prepared, null, 2));
		console.log([id, kind, original.name, target, notes.join('; ')].join('\t'));

		if (original.meta?.contentgenTest?.brokenVariant) {
			const brokenId = stableId(file, 'wrong-key');
			const broken: Workflow = {
				...withCredential({ ...original, nodes }, badCredential),
				id: brokenId,
				name: `${original.name} (wrong API key)`,
				active: false,
				meta: { ...original.meta, contentgenTest: { expect } },
			};
			const brokenTarget = join(out, `${brokenId}.json`);
			writeFileSync(brokenTarget, JSON.stringify(broken, null, 2));
			console.log([brokenId, 'broken', broken.name, brokenTarget, 'wrong API key'].join('\t'));
		}
	}
}

main();
