import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { pollHarness, type PollHarness } from '../../harness/trigger/poll';
import { useVirtualClock, VirtualService } from '../../harness/trigger/virtual';
import format2 from './fixtures/format-2.json';
import format3 from './fixtures/format-3.json';
import { accountAtSave, FIXTURE_EVENTS, MINUTE, type FixtureAccount } from './fixtures/world';

/*
 * A trigger active under an earlier build, n8n stopped, the package updated, n8n started: the
 * state that build stored (recorded by its own code: ./fixtures/README.md) is read by this one,
 * and every change made while n8n was down is reported once.
 */

const NODE_KEY = 'node:ContentGen Trigger';

let account: FixtureAccount;
let stopClock: () => void;
let trigger: PollHarness;

function activeWith(stored: unknown): void {
	account = accountAtSave();
	stopClock = useVirtualClock(account.world);
	const service = new VirtualService(account.world);
	trigger = pollHarness({ events: [...FIXTURE_EVENTS] }, undefined, { http: service.http });
	trigger.load({ [NODE_KEY]: { tracker: stored } } as IDataObject);
}
afterEach(() => stopClock());

/** The update: three articles complete and three social records finish while n8n is down. */
function changesDuringUpdate(): void {
	const { world, queued, generating } = account;
	world.tick(2 * MINUTE);
	world.set('article', queued[0], 'cms');
	world.set('article', queued[1], 'needs_editing');
	world.set('article', queued[2], 'cms');
	world.set('social', generating[0], 'completed');
	world.set('social', generating[1], 'ready');
	world.set('social', generating[2], 'completed');
	world.tick(3 * MINUTE);
}

const reported = (output: INodeExecutionData[][] | null) =>
	(output?.[0] ?? []).map((item) => [item.json.event, item.json.id, item.json.previousStatus]);

function expected(): unknown[] {
	const { queued, generating } = account;
	return [
		...queued.slice(0, 3).map((id) => ['articleCompleted', id, 'queued']),
		...generating.slice(0, 3).map((id) => ['socialFinished', id, 'generating']),
	];
}

/** What was in flight when the state was saved is still followed: its next move is reported. */
async function followsOn(): Promise<void> {
	account.world.tick(MINUTE);
	expect(await trigger.poll()).toBeNull();
	account.world.set('article', account.queued[3], 'cms');
	account.world.set('social', account.generating[3], 'completed');
	account.world.tick(MINUTE);
	expect(reported(await trigger.poll()).sort()).toEqual(
		[
			['articleCompleted', account.queued[3], 'queued'],
			['socialFinished', account.generating[3], 'generating'],
		].sort(),
	);
	account.world.tick(MINUTE);
	expect(await trigger.poll()).toBeNull();
	expect((trigger.staticData()[NODE_KEY] as IDataObject).tracker).toMatchObject({ v: 4 });
}

/** The changes of the update window, with the status each left unknown (null). */
const unknownPrevious = () =>
	expected()
		.map((row) => [(row as unknown[])[0], (row as unknown[])[1], null])
		.sort();

describe.each<[number, unknown, string]>([
	[2, format2, 'f7b4117 and later: keys cut from the UUID itself'],
	[3, format3, 'ids packed into keys of a width fitted to the space left'],
])('state saved in format %i (%s)', (format, stored) => {
	it('is caught up from its time: every change made during the update reported once, none lost, then it follows on', async () => {
		activeWith(stored);
		changesDuringUpdate();
		const first = await trigger.poll();
		expect(reported(first).sort()).toEqual(unknownPrevious());
		expect(trigger.warnings()).toEqual([]);
		expect(trigger.infos()).toEqual([
			expect.stringMatching(
				new RegExp(
					`state format ${format}, written by an earlier version.*every change since .*2025-01-01T00:03:00.000Z.*saved in format 4`,
				),
			),
		]);
		await followsOn();
	});
});

describe('state saved by a newer version (a downgrade)', () => {
	it('warns, naming the format found and the ones read, and reports the changes since its last poll', async () => {
		const newer = { ...format2, v: 7, future: { shape: 'unknown here' } };
		activeWith(newer);
		changesDuringUpdate();
		const first = await trigger.poll();
		expect(trigger.warnings()).toEqual([
			expect.stringMatching(/state format 7.*newer version.*reads format 4\./),
		]);
		// The previous status is not known from a state it cannot read.
		expect(reported(first).sort()).toEqual(unknownPrevious());
		account.world.tick(MINUTE);
		expect(await trigger.poll()).toBeNull();
		expect(trigger.warnings()).toEqual([]);
	});

	it('without the time of its last poll, warns that the changes since then are not reported', async () => {
		activeWith({ v: 5, scope: '|' });
		changesDuringUpdate();
		expect(await trigger.poll()).toBeNull();
		expect(trigger.warnings()).toEqual([expect.stringMatching(/state format 5.*not reported/)]);
	});
});

describe('state saved in format 1 (0.1.0: no time of its last poll)', () => {
	// Its shape as 0.1.0 stored it: the articles' cursor and records, the social count.
	const format1 = {
		v: 1,
		k: '|',
		a: { c: Date.parse('2025-01-01T00:03:00.000Z'), m: '' },
		s: { e: 'g', f: 'g', m: '', w: 0, n: 6, p: '' },
	};

	it('starts from now as at activation, warning that the changes since its last poll are not reported, then follows on', async () => {
		activeWith(format1);
		changesDuringUpdate();
		expect(await trigger.poll()).toBeNull();
		expect(trigger.warnings()).toEqual([
			expect.stringMatching(
				/state format 1, written by an earlier version.*reads format 4\. It starts again from now: the changes made since that version's last poll are not reported/,
			),
		]);
		expect((trigger.staticData()[NODE_KEY] as IDataObject).tracker).toMatchObject({ v: 4 });
	});
});
