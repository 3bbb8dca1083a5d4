/* eslint-disable @n8n/community-nodes/no-restricted-imports -- reads the documentation from disk */
/**
 * The repository as data, for the guards' rules (./rules): the nodes' operations and events, the
 * suites' case table, the trigger model, the route registry, the sandbox's routes and the docs'
 * tables. A recipe check (./recipes) adds a throwaway operation, route or event to a copy of it.
 */
import { readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';

import { EVENTS } from '../../nodes/ContentGenTrigger/events';
import { METHODS, ROUTES, type Route } from '../../nodes/shared/routes';
import { PERMISSION_BY_METHOD, ROUTES as SANDBOX_ROUTES } from '../../sandbox/routes';
import type { Route as SandboxRoute } from '../../sandbox/routes';
import { nodeOperations, triggerEvents, type EventRef, type OperationRef } from '../helpers/maps';
import { tablesOf, type Table } from '../helpers/tables';
import { CASES as COMPAT_CASES, type Case as CompatCase } from '../compat/cases';
import { OPERATION_CASES, type OperationCase } from '../suites/cases/operations';
import {
	ARTICLE_EVENT_NAMES,
	ARTICLE_STATUSES,
	articleEventsOf,
	SOCIAL_EVENT_NAMES,
	SOCIAL_STATUSES,
	socialEventsOf,
	watchedSocial,
} from '../trigger/model';
import { ROOT } from '../helpers/sources';

export type Kind = 'article' | 'social';

export interface Repo {
	operations: OperationRef[];
	cases: Record<string, OperationCase>;
	events: Array<EventRef & { follows?: readonly string[] }>;
	/** The trigger's ground truth (test/trigger/model.ts). */
	model: {
		names: Record<Kind, readonly string[]>;
		statuses: Record<Kind, readonly string[]>;
		eventsOf: Record<Kind, (previous: string | null | undefined, status: string) => string[]>;
		watched: (events: readonly string[]) => Set<string>;
	};
	methods: readonly string[];
	routes: readonly Route[];
	sandbox: {
		routes: ReadonlyArray<Omit<SandboxRoute, 'handler'>>;
		permission: Record<string, string>;
	};
	/** Every table of README.md and docs/**. */
	tables: Table[];
	/** The compatibility corpus's cases (test/compat/cases.ts), frozen at each release. */
	compat: readonly CompatCase[];
}

export function currentRepo(): Repo {
	return {
		operations: nodeOperations(),
		cases: OPERATION_CASES,
		events: triggerEvents().map((ref) => ({
			...ref,
			follows: (EVENTS[ref.event] as { follows?: readonly string[] }).follows,
		})),
		model: {
			names: { article: ARTICLE_EVENT_NAMES, social: SOCIAL_EVENT_NAMES },
			statuses: { article: ARTICLE_STATUSES, social: SOCIAL_STATUSES },
			eventsOf: { article: articleEventsOf, social: socialEventsOf },
			watched: watchedSocial,
		},
		methods: METHODS,
		routes: ROUTES,
		sandbox: { routes: SANDBOX_ROUTES, permission: PERMISSION_BY_METHOD },
		tables: markdownFiles().flatMap((file) =>
			tablesOf(relative(ROOT, file), readFileSync(file, 'utf8')),
		),
		compat: COMPAT_CASES,
	};
}

function markdownFiles(): string[] {
	const walk = (dir: string): string[] =>
		readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
			entry.isDirectory()
				? walk(join(dir, entry.name))
				: entry.name.endsWith('.md')
					? [join(dir, entry.name)]
					: [],
		);
	return [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'))];
}

/** Plain words of a cell: no emphasis, code marks, links or parenthesised remarks. */
export const plain = (cell: string) =>
	cell
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[*_`]/g, '')
		.replace(/\([^)]*\)/g, '')
		.trim();

/** The column of a table's operations: "operation", or "operations" as README.md has it. */
export const operationColumn = (table: Table) =>
	table.header.findIndex((h) => h === 'operation' || h === 'operations');

export const isOperationTable = (table: Table) =>
	table.header.includes('resource') && operationColumn(table) >= 0;

export const isEventTable = (table: Table) => table.header[0] === 'event';

/** The operations a table names, as "Resource: Operation", for resources the node has. */
export function operationsNamed(table: Table, resources: readonly string[]): string[] {
	const r = table.header.indexOf('resource');
	const o = operationColumn(table);
	return table.rows.flatMap((row) => {
		const resource = plain(row[r] ?? '');
		if (!resources.includes(resource)) return [];
		return plain(row[o] ?? '')
			.split(',')
			.map((name) => `${resource}: ${name.trim()}`)
			.filter((name) => !name.endsWith(': '));
	});
}

/** "Social Content Scheduled / Published" names two events: the second replaces the last word. */
export function eventNamesOf(cell: string): string[] {
	const [first, ...rest] = plain(cell).split(/\s*\/\s*/);
	const stem = first.split(' ').slice(0, -1).join(' ');
	return [first, ...rest.map((word) => `${stem} ${word}`)];
}
