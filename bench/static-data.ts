/** The row of `npm run bench` about the size of the trigger's static data on a large account. */
import { EVENT_NAMES } from '../nodes/ContentGenTrigger/events';
import { runPoll, type TrackerConfig } from '../nodes/ContentGenTrigger/tracker';
import { prng, World } from '../harness/trigger/world';
import { fmt, type AddRow } from './kit';

/** 100,000 records a minute apart (listed by id), then `inFlight` more in flight, half each kind. */
export async function staticDataRow(row: AddRow, inFlight: number): Promise<void> {
	const world = new World(prng(11), { socialOrder: 'id' });
	const start = world.now - 100_000 * 60_000;
	for (let i = 0; i < 50_000; i++)
		world.create('article', i % 3 ? 'cms' : 'archived', { created: start + i * 120_000 });
	for (let i = 0; i < 50_000; i++)
		world.create('social', i % 2 ? 'published' : 'completed', {
			created: start + i * 120_000 + 60_000,
		});
	world.tick(1);
	for (let i = 0; i < inFlight / 2; i++) world.create('article', 'queued');
	for (let i = 0; i < inFlight / 2; i++) world.create('social', i % 2 ? 'generating' : 'scheduled');
	const config: TrackerConfig = { events: EVENT_NAMES, scope: 'all', requestBudget: Infinity };
	let stored: unknown = {};
	for (let i = 0; i < 3; i++) {
		const outcome = await runPoll(stored, { ...config, now: world.now }, (request) =>
			world.answer(request),
		);
		stored = JSON.parse(JSON.stringify(outcome.state));
		world.tick(60_000);
	}
	const bytes = Buffer.byteLength(JSON.stringify(stored));
	row(
		'size',
		`trigger static data, 100,000 records, ${inFlight.toLocaleString('en-US')} in flight`,
		`${bytes} B (${fmt(bytes / 1024, 1)} KB)`,
		'4 MB, every cap full (docs/trigger.md)',
		fmt(bytes / 4_194_304),
		'< 1.00',
	);
}
