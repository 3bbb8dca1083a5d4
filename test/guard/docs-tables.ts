/**
 * The documentation's tables of operations and events name exactly what the nodes offer.
 * docs/operations.md has the table of every operation ("resource" and "operation" or "operations"
 * columns), docs/trigger.md one of every event (first column "event"); any other table of that
 * shape in the docs is held to the same.
 */
import { tablesOf } from '../helpers/tables';
import { currentRepo, eventNamesOf, isOperationTable, operationsNamed } from './repo';
import { added, docsProblems, PLACES, say } from './rules';

const repo = currentRepo();

describe('documentation tables match the maps', () => {
	it('reads the one table that lists operations, docs/operations.md', () => {
		const files = repo.tables.filter(isOperationTable).map((t) => t.file);
		expect([...new Set(files)]).toEqual(['docs/operations.md']);
	});

	it('every operation and every event has its row, and no row names anything else', () => {
		expect(say(docsProblems(repo))).toEqual([]);
	});
});

describe('the table reader can fail', () => {
	const text = [
		'| resource | operations | scope |',
		'|---|---|---|',
		'| Article | Get, **Get Many** (filters) | articles |',
		'| Trigger | all events | any |',
		'',
		'| event | fires when |',
		'|---|---|',
		'| Social Content Scheduled / Published | x |',
	].join('\n');
	const [ops, events] = tablesOf('x.md', text);

	it('reads names out of markup and remarks, skipping rows of other things', () => {
		expect(operationsNamed(ops, ['Article'])).toEqual(['Article: Get', 'Article: Get Many']);
	});

	it('expands a shared stem', () => {
		expect(eventNamesOf(events.rows[0][0])).toEqual([
			'Social Content Scheduled',
			'Social Content Published',
		]);
	});

	it('names a missing row, a wrong request, a wrong permission, and a file that lost its table', () => {
		const withoutRow = {
			...repo,
			tables: repo.tables.map((t) =>
				t.file === 'docs/operations.md' && isOperationTable(t)
					? { ...t, rows: t.rows.filter((row) => !row.join('|').includes('Get Usage')) }
					: t,
			),
		};
		expect(say(added(docsProblems, repo, withoutRow))).toEqual([
			`${PLACES.operationsPage}: no row for Account: Get Usage`,
		]);
		const wrongRequest = {
			...repo,
			tables: repo.tables.map((t) =>
				t.file === 'docs/operations.md' && isOperationTable(t)
					? { ...t, rows: t.rows.map((row) => row.map((c) => c.replace('/user/usage', '/user'))) }
					: t,
			),
		};
		expect(say(added(docsProblems, repo, wrongRequest))).toEqual([
			`${PLACES.operationsPage}: Account: Get Usage sends GET /user/usage, not GET /user`,
		]);
		const wrongNeeds = {
			...repo,
			tables: repo.tables.map((t) =>
				t.file === 'docs/operations.md' && isOperationTable(t)
					? {
							...t,
							rows: t.rows.map((row) =>
								row.includes('Publish') ? row.map((c) => c.replace(/^write/, 'read')) : row,
							),
						}
					: t,
			),
		};
		expect(say(added(docsProblems, repo, wrongNeeds))).toEqual([
			`${PLACES.operationsPage}: Social Content: Publish needs permission write, not read`,
		]);
		const withoutTable = {
			...repo,
			tables: repo.tables.filter((t) => t.file !== 'docs/operations.md'),
		};
		expect(say(added(docsProblems, repo, withoutTable))).toEqual([
			`${PLACES.operationsPage}: missing`,
		]);
	});
});
