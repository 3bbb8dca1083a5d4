/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev-only: reads the corpus files, and the environment for another corpus folder */
/**
 * The compatibility corpus: workflows as n8n saves them, frozen per release
 * (`test/compat/corpus/<release>/<name>.json`, importable into n8n), each with what the build that
 * froze it made of it (`<name>.expected.json`):
 *   - `read`: the node's parameters as it reads them, defaults filled in the way n8n's Workflow
 *     does when it loads a saved workflow. A renamed or removed parameter, a removed option or a
 *     changed default shows here first.
 *   - `observed`: what a run against the corpus's account (./service.ts) did: every POST (what
 *     is charged or published), the reads (paging left out), the items and their shape, the
 *     binaries, the error; for the trigger the events it reported over a scenario of changes and
 *     the filters it sent.
 * A later build passes when every frozen parameter is read the same, the same POSTs go out, every
 * frozen read is still made, the same items come out and every frozen output field keeps its type.
 * New parameters, reads and output fields are allowed: they are what a change without a new node
 * version may add (AGENTS.md, "Versioning").
 */
import { createHash } from 'crypto';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';

import type { INode, INodeParameters, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { commonPollingParameters } from 'n8n-core/dist/nodes-loader/constants';

import { at } from '../../harness/clock';
import { PACKAGE, runWorkflow, TestNodeTypes, type WorkflowJson } from '../../harness/engine';
import { pollHarness } from '../../harness/trigger/poll';
import type { Case } from './cases';
import { CompatService, IDS, type Served } from './service';

/** The corpus folder; CONTENTGEN_COMPAT_CORPUS points the test at another one (a trial freeze). */
export const CORPUS = process.env.CONTENTGEN_COMPAT_CORPUS ?? join(__dirname, 'corpus');
const CREDENTIAL = { id: 'compatCredential01', name: 'ContentGen account' };

/** The node classes of one build: this checkout's sources, or another build's `dist`. */
export interface Build {
	label: string;
	action: () => INodeType;
	trigger: () => INodeType;
}

export interface Observation {
	posts: string[];
	reads: string[];
	items: number;
	shape: Record<string, string>;
	binaries: string[];
	error?: string;
	/**
	 * trigger only: `event id` of each change reported over the scenario, how many items repeated
	 * one (none is a promise, as many as at-least-once delivery takes is not), the filters sent,
	 * Fetch Test Event's item
	 */
	events?: string[];
	repeats?: number;
	filters?: string[];
	testEvent?: Record<string, string>;
}

export interface Expected {
	frozenBy: string;
	/** the instant the run was frozen at, ISO 8601: a replay runs at it (what the queue's "next free slot" means depends on it) */
	frozenAt: string;
	node: string;
	typeVersion: number;
	read: INodeParameters;
	observed: Observation;
}

export interface SavedWorkflow extends WorkflowJson {
	name: string;
	nodes: INode[];
}

export interface Frozen {
	release: string;
	name: string;
	workflow: SavedWorkflow;
	expected: Expected;
}

/** A node type's description as n8n serves it: a poll trigger gains its Poll Times. */
export function served(type: INodeType): INodeTypeDescription {
	const description = type.description;
	if (!type.poll || description.properties.some((p) => p.name === 'pollTimes')) return description;
	return { ...description, properties: [...commonPollingParameters, ...description.properties] };
}

export const versionsOf = (description: INodeTypeDescription): number[] =>
	Array.isArray(description.version) ? description.version : [description.version];

/** Parameters as n8n's editor saves them (defaults left out) or as the node reads them. */
export function parameters(
	type: INodeType,
	node: Pick<INode, 'typeVersion' | 'parameters'>,
	as: 'saved' | 'read',
): INodeParameters {
	const description = served(type);
	const result = NodeHelpers.getNodeParameters(
		description.properties,
		node.parameters,
		as === 'read',
		false,
		node,
		description,
	);
	return result ?? {};
}

const nodeId = (seed: string) => {
	const h = createHash('sha256').update(seed).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** The workflow n8n would save for a case, at a node version. */
export function saveCase(build: Build, c: Case, typeVersion: number): SavedWorkflow {
	const type = c.node === 'contentGen' ? build.action() : build.trigger();
	const name = c.node === 'contentGen' ? 'ContentGen' : 'ContentGen Trigger';
	const ours: INode = {
		parameters: parameters(type, { typeVersion, parameters: c.parameters }, 'saved'),
		id: nodeId(`${c.name}@${typeVersion}`),
		name,
		type: `${PACKAGE}.${c.node}`,
		typeVersion,
		position: [220, 0],
		credentials: { contentGenApi: CREDENTIAL },
	};
	const other: INode =
		c.node === 'contentGen'
			? {
					parameters: {},
					id: nodeId(`${c.name}@${typeVersion}/start`),
					name: "When clicking 'Execute workflow'",
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
				}
			: {
					parameters: {},
					id: nodeId(`${c.name}@${typeVersion}/next`),
					name: 'Next step',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [440, 0],
				};
	const [first, second] = c.node === 'contentGen' ? [other, ours] : [ours, other];
	return {
		name: `Compatibility: ${c.name} (v${typeVersion})`,
		nodes: [first, second],
		connections: { [first.name]: { main: [[{ node: second.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

export const ourNode = (workflow: SavedWorkflow) =>
	workflow.nodes.find((n) => n.type.startsWith(PACKAGE))!;

/** Every workflow of the corpus, oldest release first. */
export function loadCorpus(corpus = CORPUS): Frozen[] {
	if (!existsSync(corpus)) return [];
	const releases = readdirSync(corpus).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
	return releases.flatMap((release) =>
		readdirSync(join(corpus, release))
			.filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
			.map((f) => {
				const name = f.slice(0, -'.json'.length);
				const read = (file: string) =>
					JSON.parse(readFileSync(join(corpus, release, file), 'utf8'));
				return {
					release,
					name,
					workflow: read(f) as SavedWorkflow,
					expected: read(`${name}.expected.json`) as Expected,
				};
			}),
	);
}

/** The output's shape: every field path with the JSON types seen there. */
export function shapeOf(values: unknown[]): Record<string, string> {
	const types = new Map<string, Set<string>>();
	const walk = (value: unknown, path: string) => {
		const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
		if (path) types.set(path, (types.get(path) ?? new Set()).add(type));
		if (Array.isArray(value)) value.forEach((v) => walk(v, `${path}[]`));
		else if (type === 'object')
			for (const [key, v] of Object.entries(value as object))
				walk(v, path ? `${path}.${key}` : key);
	};
	values.forEach((v) => walk(v, ''));
	return Object.fromEntries([...types].sort().map(([p, t]) => [p, [...t].sort().join('|')]));
}

const sortedQuery = (query: Record<string, string>, skip: string[]) =>
	Object.keys(query)
		.filter((k) => !skip.includes(k))
		.sort()
		.map((k) => `${k}=${query[k]}`)
		.join('&');

function traffic(served: Served[]): Pick<Observation, 'posts' | 'reads'> {
	const posts = served
		.filter((s) => s.method === 'POST')
		.map((s) => `POST ${s.url} ${JSON.stringify(s.body)}`)
		.sort();
	const reads = served
		.filter((s) => s.method === 'GET')
		.map(
			(s) =>
				`GET ${s.url}${sortedQuery(s.query, ['page', 'limit']) ? '?' : ''}${sortedQuery(s.query, ['page', 'limit'])}`,
		);
	return { posts, reads: [...new Set(reads)].sort() };
}

/** Runs a saved workflow against a fresh copy of the corpus's account, with the clock at `instant`. */
export async function observe(
	build: Build,
	workflow: SavedWorkflow,
	instant: string,
): Promise<Observation> {
	return await at(instant, async () => {
		const service = new CompatService();
		service.start();
		try {
			const node = ourNode(workflow);
			return node.type === `${PACKAGE}.contentGen`
				? await observeAction(build, workflow, service)
				: await observeTrigger(build, node, service);
		} finally {
			service.stop();
		}
	});
}

async function observeAction(
	build: Build,
	workflow: SavedWorkflow,
	service: CompatService,
): Promise<Observation> {
	const nodeTypes = new TestNodeTypes({ [`${PACKAGE}.contentGen`]: build.action() });
	// n8n's Workflow fills the parameters in place: the saved copy stays as it was
	const result = await runWorkflow(JSON.parse(JSON.stringify(workflow)) as WorkflowJson, {
		nodeTypes,
	});
	const items = result.error ? [] : result.output(ourNode(workflow).name);
	return {
		...traffic(service.served),
		items: items.length,
		shape: shapeOf(items.map((i) => i.json)),
		binaries: [
			...new Set(
				items.flatMap((i) =>
					Object.entries(i.binary ?? {}).map(([key, b]) => `${key} ${b.mimeType}`),
				),
			),
		].sort(),
		...(result.error ? { error: result.error.message } : {}),
	};
}

/**
 * The trigger over a scenario: Fetch Test Event, activation, then changes in two rounds with a poll
 * after each, and an idle poll.
 */
async function observeTrigger(
	build: Build,
	node: INode,
	service: CompatService,
): Promise<Observation> {
	const trigger = pollHarness(node.parameters, undefined, {
		trigger: build.trigger(),
		typeVersion: node.typeVersion,
	});
	const emitted: Array<Record<string, unknown>> = [];
	const poll = async (mode?: 'manual') =>
		(await trigger.poll(mode))?.[0].map((item) => item.json) ?? [];
	const testEvent = await poll('manual');
	const activation = await poll();
	service.change('article', IDS.articleQueued, 'cms');
	service.add('article', 'queued');
	service.change('social', IDS.contentGenerating, 'completed');
	service.change('social', IDS.contentScheduled, 'scheduled');
	service.change('social', IDS.content, 'published');
	emitted.push(...(await poll()));
	const born = service.add('social', 'generating');
	await poll();
	service.change('social', born, 'failed');
	service.change('article', IDS.article, 'archived');
	emitted.push(...(await poll()));
	emitted.push(...(await poll()));
	const changes = [
		...new Set(emitted.map((json) => `${String(json.event)} ${String(json.id)}`)),
	].sort();
	const filters = service.served.flatMap((s) =>
		['project_id', 'platform'].filter((k) => s.query[k]).map((k) => `${k}=${s.query[k]}`),
	);
	return {
		...traffic([]),
		items: changes.length,
		shape: shapeOf(emitted),
		binaries: [],
		events: [
			`test event: ${testEvent.length} item(s)`,
			`activation: ${activation.length} item(s)`,
			...changes,
		],
		...(emitted.length > changes.length ? { repeats: emitted.length - changes.length } : {}),
		filters: [...new Set(filters)].sort(),
		testEvent: shapeOf(testEvent),
	};
}

/** What differs between the frozen run and this one, in words; empty when it reads the same. */
export function differences(
	expected: Expected,
	saved: INodeParameters,
	read: INodeParameters,
	now: Observation,
): string[] {
	const found: string[] = [];
	const flat = (value: unknown, path: string, into: Map<string, string>) => {
		if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
			for (const [k, v] of Object.entries(value)) flat(v, path ? `${path}.${k}` : k, into);
		} else into.set(path, JSON.stringify(value));
		return into;
	};
	const then = flat(expected.read, '', new Map());
	const current = flat(read, '', new Map());
	const set = flat(saved, '', new Map());
	for (const [path, value] of then) {
		// A default the user never set may stop being read (a parameter hidden where it does not
		// apply): what the node does without it shows in the run. A value the user set may not.
		if (!current.has(path)) {
			if (set.has(path)) found.push(`parameter ${path}: set to ${value}, no longer read`);
		} else if (current.get(path) !== value)
			found.push(`parameter ${path}: read as ${value} then, as ${current.get(path)} now`);
	}
	const was = expected.observed;
	// POSTs charge or publish: the same ones, as many times
	const unsent = [...was.posts];
	for (const post of now.posts) {
		const at = unsent.indexOf(post);
		if (at === -1) found.push(`sent now, not then: ${post}`);
		else unsent.splice(at, 1);
	}
	for (const post of unsent) found.push(`sent then, not now: ${post}`);
	for (const r of was.reads) if (!now.reads.includes(r)) found.push(`no longer read: ${r}`);
	if (was.items !== now.items) found.push(`items: ${was.items} then, ${now.items} now`);
	const shapes = [
		['output', was.shape, now.shape],
		["Fetch Test Event's output", was.testEvent ?? {}, now.testEvent ?? {}],
	] as const;
	for (const [label, then, current] of shapes)
		for (const [path, type] of Object.entries(then)) {
			if (!(path in current)) found.push(`${label} field ${path} (${type}) is gone`);
			else if (current[path] !== type)
				found.push(`${label} field ${path}: ${type} then, ${current[path]} now`);
		}
	for (const [label, a, b] of [
		['binaries', was.binaries, now.binaries],
		['events', was.events, now.events],
		['filters', was.filters, now.filters],
	] as const)
		if (JSON.stringify(a) !== JSON.stringify(b))
			found.push(`${label}: ${JSON.stringify(a)} then, ${JSON.stringify(b)} now`);
	if (!was.repeats && now.repeats)
		found.push(`trigger: each change once then, ${now.repeats} repeated item(s) now`);
	if (was.error !== now.error)
		found.push(`error: ${was.error ?? 'none'} then, ${now.error ?? 'none'} now`);
	return found;
}

/** The build of this checkout (the node sources, as the tests load them). */
export function sourceBuild(): Build {
	const types = () => new TestNodeTypes();
	return {
		label: 'this checkout',
		action: () => types().types[`${PACKAGE}.contentGen`],
		trigger: () => types().types[`${PACKAGE}.contentGenTrigger`],
	};
}
