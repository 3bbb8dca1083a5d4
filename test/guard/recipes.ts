/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads AGENTS.md from disk */
/**
 * AGENTS.md's recipes, checked. A throwaway operation, route or event is added to a copy of the
 * repository (./repo), as the recipe's first steps would add it; the rules (./rules) must then name
 * exactly the places the recipe marks "Guard", and nothing once those are done in the copy too.
 * Only what the throwaway adds is read (`added`): a real gap of the repository fails the guard that
 * names it, not these checks besides. The throwaways' names (Recipe Probe, /recipe-probe) are ones no
 * real operation, event or route will take.
 */
import fc from 'fast-check';
import { readFileSync } from 'fs';
import { join } from 'path';

import type { OperationModule } from '../../nodes/ContentGen/helpers/types';
import type { TriggerEvent } from '../../nodes/ContentGenTrigger/events';
import { requiredAccess, type Route } from '../../nodes/shared/routes';
import type { OperationRef } from '../helpers/maps';
import type { OperationCase, RouteName } from '../suites/cases/operations';
import { ROOT } from '../helpers/sources';
import type { Table } from '../helpers/tables';
import { currentRepo, isEventTable, isOperationTable, type Repo } from './repo';
import { added, allProblems } from './rules';

const repo = currentRepo();

/** The places the rules name for what `changed` adds to the repository, deduplicated and sorted. */
const placesNamed = (changed: Repo) =>
	[...new Set(added(allProblems, repo, changed).map((p) => p.place))].sort();

// ---- AGENTS.md ----------------------------------------------------------------------------------

interface Recipe {
	/** The count in the heading: "(6 places)", "(10 places, 12 for PATCH or DELETE)". */
	counts: number[];
	/** Numbered steps before and after "For a PATCH or DELETE route, also:". */
	steps: Array<{ number: number; who: string; file: string }>;
	extraSteps: Array<{ number: number; who: string; file: string }>;
}

function recipe(title: string): Recipe {
	const text = readFileSync(join(ROOT, 'AGENTS.md'), 'utf8');
	const start = text.indexOf(`### ${title} (`);
	if (start < 0) throw new Error(`AGENTS.md has no recipe "### ${title} (N places)"`);
	const end = text.indexOf('\n#', start + 4);
	const section = text.slice(start, end < 0 ? undefined : end);
	const heading = section.slice(0, section.indexOf('\n'));
	const [common, extra = ''] = section.split(/\nFor a PATCH or DELETE route, also:\n/);
	const stepsOf = (part: string) =>
		[...part.matchAll(/^(\d+)\. \*\*(You|Guard):\*\* `([^`]+)`/gm)].map((m) => ({
			number: Number(m[1]),
			who: m[2],
			file: m[3],
		}));
	return {
		counts: (/\(([^)]*)\)/.exec(heading)?.[1].match(/\d+/g) ?? []).map(Number),
		steps: stepsOf(common),
		extraSteps: stepsOf(extra),
	};
}

const guardFiles = (steps: Recipe['steps']) =>
	[...new Set(steps.filter((s) => s.who === 'Guard').map((s) => s.file))].sort();
const filesOf = (places: string[]) => [...new Set(places.map((p) => p.split(': ')[0]))].sort();

// ---- throwaway additions ------------------------------------------------------------------------

const probe: OperationModule = {
	option: {
		name: 'Recipe Probe',
		action: 'Recipe probe an article',
		description: 'Recipe probe an article',
	},
	properties: [{ displayName: 'Article ID', name: 'articleId', type: 'string', default: '' }],
	execute: async () => [],
};
const probeRef: OperationRef = {
	key: 'article.recipeProbe',
	resource: 'article',
	operation: 'recipeProbe',
	resourceName: 'Article',
	operationName: 'Recipe Probe',
	module: probe,
};
const PROBE_PATH = '/articles/:id/recipe-probe';

/** The recipe's first two steps: the operation file and its entry in the resource's map. */
const withOperation = (base: Repo): Repo => ({
	...base,
	operations: [...base.operations, probeRef],
});

/** Its case entry, its compatibility case and a row in every operations table, naming `route` as its own. */
function withCasesAndRows(base: Repo, route: RouteName): Repo {
	const entry: OperationCase = {
		method: route.slice(0, route.indexOf(' ')) as OperationCase['method'],
		routes: [route],
		valid: (r) => ({ articleId: r.articleId }),
		ids: [
			{
				name: 'article recipe probe',
				params: (id) => ({ resource: 'article', operation: 'recipeProbe', articleId: id }),
				real: (r) => r.articleId,
			},
		],
		fields: [{ path: 'articleId', label: 'Article ID', bad: fc.constant('x') }],
	};
	const row = (t: Table) =>
		t.header.map((h) =>
			h === 'resource'
				? 'Article'
				: /^operations?$/.test(h)
					? 'Recipe Probe'
					: h === 'request'
						? route
						: h === 'permission' || h === 'scope'
							? requiredAccess(route.split(' ')[0], route.split(' ')[1])[h]
							: '',
		);
	return {
		...base,
		cases: { ...base.cases, [probeRef.key]: entry },
		tables: base.tables.map((t) => (isOperationTable(t) ? { ...t, rows: [...t.rows, row(t)] } : t)),
		compat: [
			...base.compat,
			{
				name: 'article-recipe-probe',
				node: 'contentGen',
				parameters: { resource: 'article', operation: 'recipeProbe', articleId: 'x' },
			},
		],
	};
}

/** The route in the registry and in the sandbox (and, for a new method, both method lists). */
function withRoute(base: Repo, method: string): Repo {
	const route = { method, path: PROBE_PATH, scope: 'articles', record: 'Article' };
	return {
		...base,
		methods: base.methods.includes(method) ? base.methods : [...base.methods, method],
		routes: [...base.routes, route as Route],
		sandbox: {
			routes: [
				...base.sandbox.routes,
				{
					method,
					re: /^\/api\/v1\/articles\/([^/]+)\/recipe-probe$/,
					auth: 'bearer',
					scope: 'articles',
				},
			],
			permission: { [method]: 'write', ...base.sandbox.permission },
		},
	};
}

const probeEvent = {
	event: 'recipeProbeEvent' as TriggerEvent,
	name: 'Recipe Probe Event',
	kind: 'article' as const,
};

// ---- the recipes --------------------------------------------------------------------------------

describe("AGENTS.md's recipes name what the guards ask for", () => {
	describe('an operation on an existing route', () => {
		const steps = recipe('Add an operation on an existing route');
		const named = placesNamed(withOperation(repo));

		it('names the case table, the compatibility cases and the operations table of the docs', () => {
			expect(named).toEqual([
				'docs/operations.md: operations table',
				'test/compat/cases.ts: CASES',
				'test/suites/cases/operations.ts: OPERATION_CASES',
			]);
		});

		it('the recipe marks exactly those Guard, and counts its steps', () => {
			expect(guardFiles(steps.steps)).toEqual(filesOf(named));
			expect(steps.counts).toEqual([steps.steps.length]);
			expect(steps.steps.map((s) => s.number)).toEqual(steps.steps.map((_s, i) => i + 1));
		});

		it('once done, nothing more', () => {
			expect(placesNamed(withCasesAndRows(withOperation(repo), 'GET /articles/:id'))).toEqual([]);
		});
	});

	describe('an operation on a new route', () => {
		const before = recipe('Add an operation on an existing route').steps;
		const steps = recipe('Add an operation on a new route');
		const post = withCasesAndRows(withOperation(repo), `POST ${PROBE_PATH}`);
		const patch = withCasesAndRows(withOperation(repo), `PATCH ${PROBE_PATH}` as RouteName);

		it('after the steps above, names the registry and the sandbox (the one fake of the service)', () => {
			expect(placesNamed(post)).toEqual([
				'nodes/shared/routes.ts: ROUTES',
				'sandbox/routes/index.ts: ROUTES',
			]);
		});

		it('a PATCH (or DELETE) also names the method lists', () => {
			expect(placesNamed(patch)).toEqual([
				'nodes/shared/routes.ts: METHODS',
				'nodes/shared/routes.ts: ROUTES',
				'sandbox/routes/index.ts: PERMISSION_BY_METHOD',
				'sandbox/routes/index.ts: ROUTES',
			]);
		});

		it('the recipe marks exactly those Guard, and counts its steps', () => {
			expect(guardFiles(steps.steps)).toEqual(filesOf(placesNamed(post)));
			expect(guardFiles([...steps.steps, ...steps.extraSteps])).toEqual(
				filesOf(placesNamed(patch)),
			);
			const all = [...before, ...steps.steps, ...steps.extraSteps];
			expect(steps.counts).toEqual([before.length + steps.steps.length, all.length]);
			expect(all.map((s) => s.number)).toEqual(all.map((_s, i) => i + 1));
		});

		it('once done, nothing more', () => {
			expect(placesNamed(withRoute(post, 'POST'))).toEqual([]);
			expect(placesNamed(withRoute(patch, 'PATCH'))).toEqual([]);
		});
	});

	describe('a trigger event', () => {
		const steps = recipe('Add a trigger event');
		const withEvent = { ...repo, events: [...repo.events, probeEvent] };
		const named = placesNamed(withEvent);

		it("names the trigger model, the docs' events table and the compatibility cases", () => {
			expect(named).toEqual([
				'docs/trigger.md: events table',
				'test/compat/cases.ts: CASES',
				'test/trigger/model.ts',
			]);
		});

		it('the recipe marks exactly those Guard, and counts its steps', () => {
			expect(guardFiles(steps.steps)).toEqual(filesOf(named));
			expect(steps.counts).toEqual([steps.steps.length]);
		});

		it('once done, nothing more', () => {
			const eventsOf = repo.model.eventsOf.article;
			const done: Repo = {
				...withEvent,
				model: {
					...repo.model,
					names: {
						...repo.model.names,
						article: [...repo.model.names.article, probeEvent.event],
					},
					eventsOf: {
						...repo.model.eventsOf,
						article: (previous, status) => [
							...eventsOf(previous, status),
							...(status === 'archived' && previous !== status ? [probeEvent.event] : []),
						],
					},
				},
				tables: withEvent.tables.map((t) =>
					isEventTable(t) ? { ...t, rows: [...t.rows, [probeEvent.name, 'x']] } : t,
				),
				compat: [
					...repo.compat,
					{
						name: 'trigger-recipe-probe',
						node: 'contentGenTrigger',
						parameters: { events: [probeEvent.event] },
					},
				],
			};
			expect(placesNamed(done)).toEqual([]);
		});
	});
});
