/**
 * The rules the guards hold the repository to, as pure functions of ./repo: each returns the
 * problems it finds, every one naming the place to change (a file, and the list in it). The guard
 * files expect none; ./recipes adds a throwaway operation, route or event and reads which places
 * the rules name, to check AGENTS.md's recipes.
 */
import { API_PREFIX, UUID_EXAMPLE } from '../../nodes/shared/constants';
import { requiredAccess, routeKey } from '../../nodes/shared/routes';
import { parametersOf, tableGaps, type OperationRef } from '../helpers/maps';
import type { Table } from '../helpers/tables';
import { fieldsOf, missingCase } from '../suites/cases/operations';
import {
	eventNamesOf,
	isEventTable,
	isOperationTable,
	operationsNamed,
	plain,
	type Kind,
	type Repo,
} from './repo';

/** Where a rule says the fix goes: "file: the list in it". */
export const PLACES = {
	cases: 'test/suites/cases/operations.ts: OPERATION_CASES',
	routes: 'nodes/shared/routes.ts: ROUTES',
	methods: 'nodes/shared/routes.ts: METHODS',
	sandboxRoutes: 'sandbox/routes/index.ts: ROUTES',
	sandboxPermissions: 'sandbox/routes/index.ts: PERMISSION_BY_METHOD',
	model: 'test/trigger/model.ts',
	operationsPage: 'docs/operations.md: operations table',
	eventsPage: 'docs/trigger.md: events table',
	compat: 'test/compat/cases.ts: CASES',
} as const;

/** Files that must have a table of every operation, or of every event: each told once. */
const OPERATION_TABLES: Record<string, string> = { 'docs/operations.md': PLACES.operationsPage };
const EVENT_TABLES: Record<string, string> = { 'docs/trigger.md': PLACES.eventsPage };

export interface Problem {
	place: string;
	message: string;
}

export const say = (problems: Problem[]) => problems.map((p) => `${p.place}: ${p.message}`);

/**
 * What a rule finds in `changed` and not in `base`: a self-check or a recipe check reads only what
 * its own change adds, so a real gap of the repository fails the one guard test that names it and
 * no self-check besides.
 */
export function added(rule: (repo: Repo) => Problem[], base: Repo, changed: Repo): Problem[] {
	const before = say(rule(base));
	return rule(changed).filter((problem) => {
		const at = before.indexOf(say([problem])[0]);
		if (at >= 0) before.splice(at, 1);
		return at < 0;
	});
}

/** A sample request path of a route, its `:id` a UUID. */
export const samplePath = (path: string) => `${API_PREFIX}${path.replace(/:id\b/g, UUID_EXAMPLE)}`;

/** Every operation has an entry, and every entry is an operation. */
export function caseTableProblems(repo: Repo): Problem[] {
	const gaps = tableGaps(
		repo.operations.map((o) => o.key),
		Object.keys(repo.cases),
	);
	return [
		...gaps.missing.map((key) => ({ place: PLACES.cases, message: missingCase(key) })),
		...gaps.unknown.map((key) => ({
			place: PLACES.cases,
			message: `${key} is in OPERATION_CASES but not in the node`,
		})),
	];
}

const entryProblem = (ref: OperationRef, message: string): Problem => ({
	place: PLACES.cases,
	message: `${ref.key}: ${message}`,
});

/** Every parameter a user types (all but switches) has bad values. */
export function fieldProblems(repo: Repo, ref: OperationRef): Problem[] {
	const entry = repo.cases[ref.key];
	if (!entry) return [];
	const fuzzed = new Set(fieldsOf(ref, entry).map((f) => f.path));
	return parametersOf(ref.module)
		.filter((p) => p.type !== 'boolean' && !fuzzed.has(p.path))
		.map((p) => entryProblem(ref, `${p.path} has no bad-input field`));
}

/** Its routes: its own first, of its method, each registered. */
export function sentRouteProblems(repo: Repo, ref: OperationRef): Problem[] {
	const entry = repo.cases[ref.key];
	if (!entry) return [];
	const problems: Problem[] = [];
	const [own] = entry.routes;
	if (!own) problems.push(entryProblem(ref, 'names no route'));
	else if (!own.startsWith(`${entry.method} `))
		problems.push(entryProblem(ref, `its own route ${own} is not a ${entry.method}`));
	const registered = new Set(repo.routes.map(routeKey));
	for (const name of entry.routes) {
		const method = name.slice(0, name.indexOf(' '));
		if (!repo.methods.includes(method))
			problems.push({ place: PLACES.methods, message: `${ref.key} sends ${method}, not a method` });
		if (!registered.has(name))
			problems.push({ place: PLACES.routes, message: `${ref.key} sends ${name}, not registered` });
	}
	return problems;
}

/**
 * An id parameter gets path tricks when its operation's own route is a read (the id goes into a
 * path or query) or names a record (the id is the record a write acts on).
 */
export function idProblems(repo: Repo, ref: OperationRef): Problem[] {
	const entry = repo.cases[ref.key];
	const own = entry?.routes[0];
	if (!entry || !own) return [];
	const record = repo.routes.find((r) => routeKey(r) === own)?.record;
	if (!own.startsWith('GET ') && !own.includes(':id') && !record) return [];
	const covered = entry.ids.map((c) => JSON.stringify(c.params('<ID>')));
	return parametersOf(ref.module)
		.filter(({ path }) => /Id$/.test(path) && !covered.some((text) => hasPath(text, path)))
		.map(({ path }) => entryProblem(ref, `${path} has no id case`));
}

/** Whether serialised parameters set `path` (dotted) to the placeholder id. */
function hasPath(serialised: string, path: string): boolean {
	let value: unknown = JSON.parse(serialised);
	for (const part of path.split('.'))
		value = (value as Record<string, unknown> | undefined)?.[part];
	return String(JSON.stringify(value)).includes('<ID>');
}

/** The registry: known methods, a record for each route naming one, and the sandbox serving each. */
export function routeProblems(repo: Repo): Problem[] {
	const problems: Problem[] = [];
	const wanted = new Map(repo.routes.map((r) => [routeKey(r), r.path]));
	for (const entry of Object.values(repo.cases))
		for (const name of entry.routes) wanted.set(name, name.slice(name.indexOf(' ') + 1));
	for (const route of repo.routes) {
		const key = routeKey(route);
		if (!repo.methods.includes(route.method))
			problems.push({ place: PLACES.methods, message: `${key}: ${route.method} is not a method` });
		if (route.path.includes(':id') && !route.record)
			problems.push({ place: PLACES.routes, message: `${key} names a record but no record kind` });
	}
	for (const [key, path] of wanted) {
		const method = key.slice(0, key.indexOf(' '));
		const sample = samplePath(path);
		const served = repo.sandbox.routes.find((r) => r.method === method && r.re.test(sample));
		if (!served || served.auth !== 'bearer')
			problems.push({ place: PLACES.sandboxRoutes, message: `${key} is not a Bearer route` });
		const scope = repo.routes.find((r) => routeKey(r) === key)?.scope;
		if (served && scope && served.scope !== scope)
			problems.push({
				place: PLACES.routes,
				message: `${key}: scope ${scope}, sandbox ${served.scope}`,
			});
		const permission = requiredAccess(method, path).permission;
		if (repo.sandbox.permission[method] !== permission)
			problems.push({
				place: PLACES.sandboxPermissions,
				message: `${key} needs "${permission}", the sandbox asks "${repo.sandbox.permission[method]}"`,
			});
	}
	for (const served of repo.sandbox.routes.filter((r) => r.auth === 'bearer')) {
		const known = repo.routes.some(
			(r) => r.method === served.method && served.re.test(samplePath(r.path)),
		);
		if (!known)
			problems.push({
				place: PLACES.routes,
				message: `${served.method} ${served.re} is not registered`,
			});
	}
	return problems;
}

const modelProblem = (message: string): Problem => ({ place: PLACES.model, message });

/** The model lists every event of its kind, and no other. */
export function modelListProblems(repo: Repo): Problem[] {
	return (['article', 'social'] as Kind[]).flatMap((kind) => {
		const gaps = tableGaps(
			repo.events.filter((e) => e.kind === kind).map((e) => e.event),
			repo.model.names[kind],
		);
		return [
			...gaps.missing.map((event) => modelProblem(`${event} is not in the ${kind} events`)),
			...gaps.unknown.map((event) => modelProblem(`${event} is not an event of the trigger`)),
		];
	});
}

/**
 * The model derives the event from some change of status. An event missing from the model's list
 * is reported once, by modelListProblems; this and watchedProblems read only listed events.
 */
export function derivedProblems(repo: Repo, { event, kind }: Repo['events'][number]): Problem[] {
	if (!repo.model.names[kind].includes(event)) return [];
	const statuses = repo.model.statuses[kind];
	const previous: Array<string | null | undefined> = [undefined, null, ...statuses];
	const derived = previous.some((from) =>
		statuses.some((to) => repo.model.eventsOf[kind](from, to).includes(event)),
	);
	return derived ? [] : [modelProblem(`${event} follows from no change`)];
}

/** The model watches every status the trigger follows for the event. */
export function watchedProblems(
	repo: Repo,
	{ event, kind, follows }: Repo['events'][number],
): Problem[] {
	if (!repo.model.names[kind].includes(event)) return [];
	const watched = repo.model.watched([event]);
	return (follows ?? [])
		.filter((status) => !watched.has(status))
		.map((status) => modelProblem(`${event} follows ${status}, which is not watched`));
}

/**
 * docs/operations.md has a table of every operation, docs/trigger.md of every event. The
 * operations table's columns that the route registry decides (request; the permission and scope
 * a key needs) agree with the operation's own route.
 */
export function docsProblems(repo: Repo): Problem[] {
	const problems: Problem[] = [];
	const resources = [...new Set(repo.operations.map((o) => o.resourceName))];
	const operations = repo.operations.map((o) => `${o.resourceName}: ${o.operationName}`);
	const events = repo.events.map((e) => e.name);
	const check = (
		kind: string,
		is: (t: Table) => boolean,
		required: Record<string, string>,
		wanted: string[],
		named: (t: Table) => string[],
	) => {
		const tables = repo.tables.filter(is);
		for (const [file, place] of Object.entries(required))
			if (!tables.some((t) => t.file === file)) problems.push({ place, message: 'missing' });
		for (const table of tables) {
			const place = required[table.file] ?? `${table.file}: ${kind} table`;
			const gaps = tableGaps(wanted, named(table));
			for (const name of gaps.missing) problems.push({ place, message: `no row for ${name}` });
			for (const name of gaps.unknown) problems.push({ place, message: `${name} is not offered` });
		}
	};
	// A "request" column gives each operation's own route, as its case names it; "permission" and
	// "scope" begin with what that route needs.
	const refs = new Map(repo.operations.map((o) => [`${o.resourceName}: ${o.operationName}`, o]));
	for (const table of repo.tables.filter(isOperationTable)) {
		const place = OPERATION_TABLES[table.file] ?? `${table.file}: operations table`;
		const cell = (row: string[], header: string) =>
			table.header.includes(header) ? plain(row[table.header.indexOf(header)] ?? '') : undefined;
		for (const row of table.rows) {
			const [name, ...more] = operationsNamed({ ...table, rows: [row] }, resources);
			const own = repo.cases[refs.get(name)?.key ?? '']?.routes[0];
			if (!own || more.length > 0) continue;
			const written = cell(row, 'request');
			if (written !== undefined && written !== own)
				problems.push({ place, message: `${name} sends ${own}, not ${written}` });
			const [method, path] = own.split(' ');
			for (const [header, wanted] of Object.entries(requiredAccess(method, path))) {
				const text = cell(row, header);
				if (text !== undefined && text.split(' ')[0] !== wanted)
					problems.push({ place, message: `${name} needs ${header} ${wanted}, not ${text}` });
			}
		}
	}
	check('operations', isOperationTable, OPERATION_TABLES, operations, (t) =>
		operationsNamed(t, resources),
	);
	check('events', isEventTable, EVENT_TABLES, events, (t) =>
		t.rows.flatMap((row) => eventNamesOf(row[0])),
	);
	return problems;
}

/**
 * Every operation of the action node and every event of the trigger is in a workflow of the
 * compatibility corpus's cases, so the next freeze keeps it (scripts/freeze-compat.ts).
 */
export function compatProblems(repo: Repo): Problem[] {
	const operations = new Set(
		repo.compat
			.filter((c) => c.node === 'contentGen')
			.map((c) => `${String(c.parameters.resource)}.${String(c.parameters.operation)}`),
	);
	const events = new Set(
		repo.compat
			.filter((c) => c.node === 'contentGenTrigger')
			.flatMap((c) => (c.parameters.events as string[] | undefined) ?? []),
	);
	return [
		...repo.operations
			.filter((o) => !operations.has(o.key))
			.map((o) => ({
				place: PLACES.compat,
				message: `${o.key} has no case: add action('<name>', '${o.resource}', '${o.operation}', {...}) with every parameter it offers set away from its default`,
			})),
		...repo.events
			.filter((e) => !events.has(e.event))
			.map((e) => ({
				place: PLACES.compat,
				message: `${e.event} has no case: add it to the events of a contentGenTrigger case`,
			})),
	];
}

/** Every problem of every rule. */
export function allProblems(repo: Repo): Problem[] {
	return [
		...caseTableProblems(repo),
		...repo.operations.flatMap((ref) => [
			...fieldProblems(repo, ref),
			...sentRouteProblems(repo, ref),
			...idProblems(repo, ref),
		]),
		...routeProblems(repo),
		...modelListProblems(repo),
		...repo.events.flatMap((e) => [...derivedProblems(repo, e), ...watchedProblems(repo, e)]),
		...docsProblems(repo),
		...compatProblems(repo),
	];
}
