/**
 * Every operation and event the nodes are built from has its cases: the suites' per-operation
 * table (test/suites/cases/operations.ts) and the trigger's ground-truth model
 * (test/trigger/model.ts). Adding an operation, a parameter or an event without its cases fails
 * here, naming what is missing.
 */
import {
	ARTICLE_STATUSES,
	articleEventsOf,
	ARTICLE_EVENT_NAMES,
	SOCIAL_EVENT_NAMES,
	SOCIAL_STATUSES,
	socialEventsOf,
	watchedSocial,
} from '../trigger/model';
import { EVENTS } from '../../nodes/ContentGenTrigger/events';
import { nodeOperations, parametersOf, tableGaps, triggerEvents } from '../helpers/maps';
import { fieldsOf, missingCase, OPERATION_CASES } from '../suites/cases/operations';

const operations = nodeOperations();

describe('operations: the map against the case table', () => {
	it('finds the operations the node offers', () => {
		// a broken reading of the map would make every check below pass on nothing
		expect(operations.map((o) => o.key)).toEqual(
			expect.arrayContaining(['article.generate', 'socialContent.publish', 'account.getUsage']),
		);
	});

	it('every operation has an entry, and every entry is an operation', () => {
		const gaps = tableGaps(
			operations.map((o) => o.key),
			Object.keys(OPERATION_CASES),
		);
		expect({
			missing: gaps.missing.map(missingCase),
			unknown: gaps.unknown.map((key) => `${key} is in OPERATION_CASES but not in the node`),
		}).toEqual({ missing: [], unknown: [] });
	});

	it.each(operations.map((o) => [o.key, o] as const))(
		'%s: every parameter a user types has bad values',
		(_key, ref) => {
			const entry = OPERATION_CASES[ref.key];
			if (!entry) throw new Error(missingCase(ref.key));
			const fuzzed = new Set(fieldsOf(ref, entry).map((f) => f.path));
			const typed = parametersOf(ref.module).filter((p) => p.type !== 'boolean');
			const unfuzzed = typed.filter((p) => !fuzzed.has(p.path)).map((p) => p.path);
			expect(unfuzzed.map((path) => `${ref.key}: ${path} has no bad-input field`)).toEqual([]);
		},
	);

	it.each(operations.map((o) => [o.key, o] as const))(
		'%s: every id a read puts in a path or query has path tricks',
		(_key, ref) => {
			const entry = OPERATION_CASES[ref.key];
			if (!entry) throw new Error(missingCase(ref.key));
			const idPaths = parametersOf(ref.module)
				.map((p) => p.path)
				.filter((path) => /Id$/.test(path));
			const wanted = entry.method === 'GET' || ref.operation === 'publish' ? idPaths : [];
			const covered = entry.ids.map((c) => JSON.stringify(c.params('<ID>')));
			const uncovered = wanted.filter((path) => !covered.some((text) => hasPath(text, path)));
			expect(uncovered.map((path) => `${ref.key}: ${path} has no id case`)).toEqual([]);
		},
	);
});

/** Whether serialised parameters set `path` (dotted) to the placeholder id. */
function hasPath(serialised: string, path: string): boolean {
	let value: unknown = JSON.parse(serialised);
	for (const part of path.split('.'))
		value = (value as Record<string, unknown> | undefined)?.[part];
	return String(JSON.stringify(value)).includes('<ID>');
}

describe('events: the map against the trigger model', () => {
	const events = triggerEvents();
	const model = { article: ARTICLE_EVENT_NAMES, social: SOCIAL_EVENT_NAMES };

	it('the model lists every event of its kind, and no other', () => {
		for (const kind of ['article', 'social'] as const) {
			const gaps = tableGaps(
				events.filter((e) => e.kind === kind).map((e) => e.event),
				model[kind],
			);
			expect({
				kind,
				missing: gaps.missing.map((e) => `${e} is not in test/trigger/model.ts`),
				unknown: gaps.unknown,
			}).toEqual({ kind, missing: [], unknown: [] });
		}
	});

	it.each(events.map((e) => [e.event, e] as const))(
		'%s: the model derives it from some change',
		(event, { kind }) => {
			const statuses = kind === 'article' ? ARTICLE_STATUSES : SOCIAL_STATUSES;
			const eventsOf = kind === 'article' ? articleEventsOf : socialEventsOf;
			const previous: Array<string | null | undefined> = [undefined, null, ...statuses];
			const derived = previous.some((from) =>
				statuses.some((to) => eventsOf(from, to).includes(event)),
			);
			expect([event, derived]).toEqual([event, true]);
		},
	);

	it.each(events.filter((e) => e.kind === 'social').map((e) => [e.event] as const))(
		'%s: the model watches every status the trigger follows for it',
		(event) => {
			const follows: readonly string[] =
				(EVENTS[event] as { follows?: readonly string[] }).follows ?? [];
			const watched = watchedSocial([event]);
			expect(follows.filter((status) => !watched.has(status))).toEqual([]);
		},
	);
});
