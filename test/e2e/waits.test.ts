import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type RequestLogEntry, type Sandbox } from '../../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';

/** Every account holds the same other records; only how many of them are still in flight differs. */
const OTHER_RECORDS = 5000;
const ITEMS = 10;

/** The API requests of the last run, without the sandbox's own routes. */
function apiLog(sandbox: Sandbox): RequestLogEntry[] {
	return sandbox.control.requests().filter((entry) => entry.path.startsWith('/api/v1/'));
}

/**
 * Requests split into the wait's rounds: the node sends a round's requests back to back and
 * then pauses for the poll interval (1 s here), so a gap of 400 ms or more starts a new round.
 */
function rounds(log: RequestLogEntry[]): RequestLogEntry[][] {
	const groups: RequestLogEntry[][] = [];
	let last = -Infinity;
	for (const entry of log) {
		const at = Date.parse(entry.at);
		if (at - last >= 400 || groups.length === 0) groups.push([]);
		groups[groups.length - 1].push(entry);
		last = at;
	}
	return groups;
}

async function account(seed: number, kind: 'article' | 'social', inFlight: number) {
	const sandbox = await startSandbox({ port: 0, speed: kind === 'article' ? 30 : 10, seed });
	sandbox.control.setRateLimit({ perMinute: 1_000_000, perDay: -1 });
	sandbox.control.setCredits({ subscription: 10_000, purchased: 0 });
	// The seeded generations in flight finish before the wait starts.
	sandbox.control.advance(86_400_000);
	// The same number of records everywhere keeps the generation durations of the run identical.
	if (kind === 'article') {
		sandbox.control.seedArticles(OTHER_RECORDS - inFlight, { status: 'cms' });
		sandbox.control.seedArticles(inFlight, { status: 'queued' });
	} else {
		sandbox.control.seedSocial(OTHER_RECORDS - inFlight, { status: 'completed' });
		sandbox.control.seedSocial(inFlight, { status: 'generating' });
	}
	sandbox.control.resetRequests();
	return sandbox;
}

async function generateAndWait(sandbox: Sandbox, kind: 'article' | 'social') {
	const parameters: IDataObject =
		kind === 'article'
			? {
					resource: 'article',
					operation: 'generate',
					topic: '={{ $json.topic }}',
					projectId: { __rl: true, mode: 'id', value: sandbox.control.projects()[0].id },
				}
			: {
					resource: 'socialContent',
					operation: 'generate',
					sourceUrl: 'https://blog.example.com/bakery-search',
					platforms: ['instagram'],
				};
	const result = await runWorkflow(
		singleNodeWorkflow({
			...parameters,
			waitForCompletion: true,
			options: { pollInterval: 1, timeout: 120 },
		}),
		{
			credentials: { apiKey: sandbox.apiKey, baseUrl: sandbox.url },
			input: Array.from({ length: ITEMS }, (_, n) => ({ topic: `Bakery topic number ${n + 1}` })),
		},
	);
	expect(result.error).toBeUndefined();
	const items = result.output('ContentGen');
	expect(items.map((item) => item.json.timed_out)).toEqual(items.map(() => undefined));
	expect(items).toHaveLength(ITEMS);
	return apiLog(sandbox);
}

describe('a 10-item article wait costs the same whatever else the account has queued', () => {
	const counts = new Map<number, number>();
	const measure = async (queued: number) => {
		const sandbox = await account(31, 'article', queued);
		try {
			const log = await generateAndWait(sandbox, 'article');
			expect(log.filter((entry) => entry.method === 'POST')).toHaveLength(ITEMS);
			counts.set(queued, log.length);
			return log.length;
		} finally {
			await sandbox.close();
		}
	};

	beforeAll(async () => {
		await measure(0);
	});

	it.each([1200, 5000])(
		'%i other articles queued: within 10%% of a quiet account',
		async (queued) => {
			const quiet = counts.get(0)!;
			const busy = await measure(queued);
			expect(busy).toBeLessThanOrEqual(quiet * 1.1);
		},
	);
});

describe('a 10-item social wait on an account with 1,200 other generating records', () => {
	it('after the first round, no round costs more than the 10 reads by id it can always fall back on', async () => {
		const sandbox = await account(32, 'social', 1200);
		try {
			const log = await generateAndWait(sandbox, 'social');
			const waitLog = log.filter((entry) => entry.method === 'GET');
			const sizes = rounds(waitLog).map((round) => round.length);
			expect(sizes.length).toBeGreaterThan(2);
			// The first round reads one page to learn the list's size; none of the jobs may be on it.
			expect(sizes[0]).toBeLessThanOrEqual(1 + ITEMS);
			// Then 13 pages of the generating list against 10 jobs: reading each job by id is cheaper.
			expect(sizes.slice(1).filter((size) => size > ITEMS)).toEqual([]);
		} finally {
			await sandbox.close();
		}
	});
});
