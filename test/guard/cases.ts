/**
 * Every operation and event the nodes are built from has its cases: the suites' per-operation
 * table (test/suites/cases/operations.ts), the trigger's ground-truth model (test/trigger/model.ts)
 * and the compatibility corpus's cases (test/compat/cases.ts). Adding an operation, a parameter or
 * an event without its cases fails here, naming what is missing.
 */
import { currentRepo } from './repo';
import {
	caseTableProblems,
	compatProblems,
	derivedProblems,
	fieldProblems,
	idProblems,
	modelListProblems,
	say,
	sentRouteProblems,
	watchedProblems,
} from './rules';

const repo = currentRepo();
const operations = repo.operations.map((o) => [o.key, o] as const);

describe('operations: the map against the case table', () => {
	it('finds the operations the node offers', () => {
		// a broken reading of the map would make every check below pass on nothing
		expect(repo.operations.map((o) => o.key)).toEqual(
			expect.arrayContaining(['article.generate', 'socialContent.publish', 'account.getUsage']),
		);
	});

	it('every operation has an entry, and every entry is an operation', () => {
		expect(say(caseTableProblems(repo))).toEqual([]);
	});

	it.each(operations)('%s: every parameter a user types has bad values', (_key, ref) => {
		expect(say(fieldProblems(repo, ref))).toEqual([]);
	});

	it.each(operations)('%s: names its own route first, every route registered', (_key, ref) => {
		expect(say(sentRouteProblems(repo, ref))).toEqual([]);
	});

	it.each(operations)(
		'%s: every id a read puts in a path or query, or a write names, has path tricks',
		(_key, ref) => {
			expect(say(idProblems(repo, ref))).toEqual([]);
		},
	);
});

describe('the compatibility corpus', () => {
	it('has a case of every operation and every event, for the next freeze to keep', () => {
		expect(say(compatProblems(repo))).toEqual([]);
	});
});

describe('events: the map against the trigger model', () => {
	it('the model lists every event of its kind, and no other', () => {
		expect(repo.events.length).toBeGreaterThan(5);
		expect(say(modelListProblems(repo))).toEqual([]);
	});

	it.each(repo.events.map((e) => [e.event, e] as const))(
		'%s: the model derives it from some change',
		(_event, ref) => {
			expect(say(derivedProblems(repo, ref))).toEqual([]);
		},
	);

	it.each(repo.events.filter((e) => e.kind === 'social').map((e) => [e.event, e] as const))(
		'%s: the model watches every status the trigger follows for it',
		(_event, ref) => {
			expect(say(watchedProblems(repo, ref))).toEqual([]);
		},
	);
});
