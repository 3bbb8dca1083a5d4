/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- a benchmark's fixtures: writes, packs and installs a throwaway package */
/**
 * What the static-data benchmark puts into n8n: a throwaway community package with one polling
 * node that holds a given number of bytes of static data, and a file n8n's processes load with
 * `--require` that times n8n's own calls around a poll.
 *
 * The node stands in for a change-tracking trigger whose state is stored as itself: a map of
 * records by whole UUID, each with its status as a word and two times (about 100 bytes a record,
 * as JSON), built once to the size asked and then changed on every poll (a poll counter and ten
 * records' statuses), so that n8n marks the static data changed every time. It emits one item on
 * every other poll: n8n writes a poll node's static data only when its poll emits (n8n-core's
 * PollTriggerExecutor), so the quiet polls show what a poll that finds nothing costs.
 */
import { execFileSync } from 'child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';

export const PROBE_PACKAGE = 'n8n-nodes-staticdata-probe';
export const PROBE_TYPE = `${PROBE_PACKAGE}.staticDataProbe`;
export const PROBE_NODE = 'Probe';
/** The key under which n8n keeps a node's static data: `node:<node name>`. */
export const PROBE_KEY = `node:${PROBE_NODE}`;
/** n8n refuses one cron under a minute; six at fixed seconds poll every 10 s. */
export const POLL_SECONDS = 10;

const NODE_SOURCE = String.raw`'use strict';
const STATUSES = ['queued', 'generating', 'completed', 'cms', 'needs_editing', 'failed', 'archived'];

function prng(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = Math.imul(a ^ (a >>> 15), a | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
const hex = (next, n) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
const uuid = (next) =>
	hex(next, 8) + '-' + hex(next, 4) + '-4' + hex(next, 3) + '-' + '89ab'[Math.floor(next() * 4)] +
	hex(next, 3) + '-' + hex(next, 12);

/** Records as a tracker keeps them, until their JSON reaches the bytes asked. */
function records(bytes) {
	const next = prng(bytes);
	const out = {};
	let size = 2;
	const start = Date.UTC(2026, 0, 1);
	while (size < bytes) {
		const id = uuid(next);
		const record = {
			status: STATUSES[Math.floor(next() * STATUSES.length)],
			changedAt: new Date(start + Math.floor(next() * 3e10)).toISOString(),
			seenAt: start + Math.floor(next() * 3e10),
		};
		out[id] = record;
		size += JSON.stringify(id).length + JSON.stringify(record).length + 2;
	}
	return out;
}

class StaticDataProbe {
	constructor() {
		this.description = {
			displayName: 'Static Data Probe',
			name: 'staticDataProbe',
			icon: 'fa:database',
			group: ['trigger'],
			version: 1,
			description: 'Keeps the given size of static data and changes it on every poll',
			defaults: { name: 'Static Data Probe' },
			polling: true,
			inputs: [],
			outputs: ['main'],
			properties: [
				{ displayName: 'Bytes', name: 'bytes', type: 'number', default: 65536 },
				{ displayName: 'Emit Every', name: 'emitEvery', type: 'number', default: 2 },
			],
		};
	}

	async poll() {
		const bytes = this.getNodeParameter('bytes');
		const emitEvery = this.getNodeParameter('emitEvery');
		if (this.getMode() === 'manual') return [[{ json: { bytes } }]];
		const data = this.getWorkflowStaticData('node');
		if (data.bytes !== bytes || typeof data.records !== 'object') {
			data.records = bytes > 0 ? records(bytes) : {};
			data.bytes = bytes;
		}
		data.polls = (data.polls || 0) + 1;
		data.polledAt = new Date().toISOString();
		const ids = Object.keys(data.records);
		data.recordCount = ids.length;
		for (let i = 0; i < Math.min(10, ids.length); i++) {
			const record = data.records[ids[(data.polls * 10 + i) % ids.length]];
			record.status = STATUSES[(STATUSES.indexOf(record.status) + 1) % STATUSES.length];
		}
		if (data.polls % emitEvery !== 0) return null;
		return [[{ json: { poll: data.polls, records: ids.length } }]];
	}
}
module.exports = { StaticDataProbe };
`;

/**
 * Loaded into each n8n process by NODE_OPTIONS=--require: wraps the methods named below on their
 * classes' prototypes as n8n's modules load, and appends one JSON line per call (what, how long,
 * which workflow) to $STATIC_DATA_COST_LOG; in main, each poll's line also carries the longest
 * event-loop delay since the previous poll's.
 */
const HOOK_SOURCE = String.raw`'use strict';
const out = process.env.STATIC_DATA_COST_LOG;
if (out) {
	const Module = require('module');
	const fs = require('fs');
	const { performance, monitorEventLoopDelay } = require('perf_hooks');
	const role = process.argv.includes('worker') ? 'worker' : process.argv.includes('start') ? 'main' : 'other';
	const loop = role === 'other' ? undefined : monitorEventLoopDelay({ resolution: 5 });
	loop?.enable();
	const log = (line) => fs.appendFileSync(out, JSON.stringify({ role, pid: process.pid, ...line }) + '\n');
	const workflowOf = {
		saveStaticDataById: (args) => args[0],
		getStaticDataById: (args) => args[0],
		runPollFunction: (args) => args[0] && args[0].id,
		runWorkflow: (args) => args[0] && args[0].id,
		processJob: (args) => args[0] && args[0].data && args[0].data.workflowId,
	};
	const targets = {
		WorkflowStaticDataService: ['saveStaticDataById', 'getStaticDataById'],
		TriggersAndPollers: ['runPollFunction'],
		WorkflowExecutionService: ['runWorkflow'],
		JobProcessor: ['processJob'],
	};
	const wrapped = new Set();
	const wrap = (cls, method) => {
		const original = cls.prototype[method];
		if (typeof original !== 'function') return;
		cls.prototype[method] = async function (...args) {
			const at = Date.now();
			const started = performance.now();
			const extra = {};
			if (method === 'runPollFunction' && loop) {
				extra.loopMaxMs = Math.round(loop.max / 1e5) / 10;
				loop.reset();
			}
			try {
				const result = await original.apply(this, args);
				if (method === 'runPollFunction')
					extra.items = Array.isArray(result) && Array.isArray(result[0]) ? result[0].length : 0;
				return result;
			} finally {
				const ms = Math.round((performance.now() - started) * 100) / 100;
				log({ call: method, workflowId: workflowOf[method](args), at, ms, ...extra });
			}
		};
	};
	const load = Module._load;
	Module._load = function (...args) {
		const exported = load.apply(this, args);
		if (exported && typeof exported === 'object') {
			for (const name of Object.keys(targets)) {
				if (wrapped.has(name) || !Object.prototype.hasOwnProperty.call(exported, name)) continue;
				const cls = exported[name];
				if (typeof cls !== 'function' || !cls.prototype) continue;
				wrapped.add(name);
				for (const method of targets[name]) wrap(cls, method);
			}
		}
		return exported;
	};
}
`;

export interface Probe {
	/** the packed package */
	tarball: string;
	/** the file for NODE_OPTIONS=--require */
	hook: string;
}

/** Writes the package and the hook into `folder` and packs the package with npm. */
export function writeProbe(folder: string): Probe {
	const source = join(folder, 'probe');
	mkdirSync(join(source, 'dist'), { recursive: true });
	writeFileSync(
		join(source, 'package.json'),
		JSON.stringify(
			{
				name: PROBE_PACKAGE,
				version: '0.0.1',
				description: 'A benchmark fixture: a polling node holding a given size of static data',
				license: 'MIT',
				keywords: ['n8n-community-node-package'],
				files: ['dist'],
				n8n: { n8nNodesApiVersion: 1, nodes: ['dist/StaticDataProbe.node.js'] },
			},
			null,
			2,
		),
	);
	writeFileSync(join(source, 'dist', 'StaticDataProbe.node.js'), NODE_SOURCE);
	const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', folder], {
		cwd: source,
		encoding: 'utf8',
	})
		.trim()
		.split('\n')
		.pop();
	const hook = join(folder, 'static-data-cost-hook.cjs');
	writeFileSync(hook, HOOK_SOURCE);
	return { tarball: join(folder, packed ?? ''), hook };
}

/** Installs the packed probe into an n8n user folder beside what is there, as the README installs ours. */
export function installProbe(probe: Probe, userFolder: string): void {
	const nodes = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodes, { recursive: true });
	const name = probe.tarball.split('/').pop() ?? '';
	copyFileSync(probe.tarball, join(nodes, name));
	execFileSync('npm', ['install', '--legacy-peer-deps', '--no-audit', '--no-fund', `./${name}`], {
		cwd: nodes,
		stdio: 'ignore',
	});
}

/** A workflow of the probe alone at `bytes`, polling every 10 s, inactive (for import:workflow). */
export function probeWorkflow(id: string, label: string, bytes: number) {
	const seconds = Array.from({ length: 60 / POLL_SECONDS }, (_, i) => i * POLL_SECONDS);
	return {
		id,
		name: `Static data ${label}`,
		active: false,
		nodes: [
			{
				id: `${id}-probe`,
				name: PROBE_NODE,
				type: PROBE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					bytes,
					emitEvery: 2,
					pollTimes: {
						item: seconds.map((s) => ({ mode: 'custom', cronExpression: `${s} * * * * *` })),
					},
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}
