/**
 * The cap on social records created within the look-back (`CAPS.recent`) holds when a burst of new
 * records, reported, joins those already remembered: the oldest go, and the log says so.
 */
import { CAPS } from '../../nodes/ContentGenTrigger/tracker/state/memory';
import { TrackerAccount } from './tracker-account';

const SECOND = 1000;

describe('social records created within the look-back', () => {
	it('stay within their cap when a burst joins them, the log saying so', async () => {
		const account = new Account();
		await account.poll(); // activation, on an empty account
		const notes: string[] = [];
		for (const burst of [6000, 6000]) {
			const start = account.world.now - burst;
			for (let i = 0; i < burst; i++)
				account.world.create('social', 'published', { created: start + i });
			for (let polls = 0; polls < 20; polls++) {
				const { outcome } = await account.poll(10 * SECOND);
				notes.push(...outcome.lag.notes);
				if (!outcome.lag.behind) break;
			}
		}
		const stored = account.stored as { social: { newRecords: { recent: object } } };
		expect(Object.keys(stored.social.newRecords.recent).length).toBe(CAPS.recent);
		expect(notes).toContain('too many new social records at once: some may go unreported');
	});
});

class Account extends TrackerAccount {
	constructor() {
		super(['socialFinished', 'socialFailed'], 'newest');
	}
}
