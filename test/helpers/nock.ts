import nock from 'nock';
import { envelope } from './hostile-server';

/**
 * Counts requests that reached nock without an interceptor: with net connect disabled, these
 * are requests the node tried to send. Used to prove that invalid input sends nothing.
 */
export function countUnmatched(): { count(): number; stop(): void } {
	let unmatched = 0;
	const listener = () => {
		unmatched++;
	};
	nock.emitter.on('no match', listener);
	return {
		count: () => unmatched,
		stop: () => {
			nock.emitter.removeListener('no match', listener);
		},
	};
}

/**
 * Runs `run` and asserts that no request reached nock without an interceptor: with net
 * connect disabled, nothing was sent beyond the mocked requests (none, when none are mocked).
 */
export async function withoutStrayRequests<T>(run: () => Promise<T>): Promise<T> {
	const unmatched = countUnmatched();
	try {
		const result = await run();
		expect(unmatched.count()).toBe(0);
		return result;
	} finally {
		unmatched.stop();
	}
}

export interface NockSetup {
	/** Hosts let through to the network: a real loopback server beside the mocked service. */
	allow?: string | RegExp;
	/** Fail a test that leaves an interceptor unanswered (every mocked answer was asked for). */
	allUsed?: boolean;
}

/** Network off for the file, interceptors cleared after each test, nock removed at the end. */
// A failure played with replyWithError is given a few milliseconds of delayConnection: nock
// destroys the request on a timer that, on a loaded machine, can fire before Node has attached
// the request's listeners to its socket, and the socket's error then escapes as an unhandled event
// that ends the whole test run.
export function setupNock(setup: NockSetup = {}): void {
	beforeAll(() => {
		nock.disableNetConnect();
		if (setup.allow) nock.enableNetConnect(setup.allow);
	});
	afterEach(() => {
		const unanswered = nock.pendingMocks();
		nock.cleanAll();
		if (setup.allUsed) expect(unanswered).toEqual([]);
	});
	afterAll(() => {
		nock.cleanAll();
		nock.restore();
		nock.enableNetConnect();
	});
}

/** Records the query of every request a scope answers, in order. */
export function queryLog(): { log: Array<Record<string, string>>; capture(uri: string): void } {
	const log: Array<Record<string, string>> = [];
	return {
		log,
		capture(uri: string) {
			const url = new URL(uri, 'http://x');
			log.push(Object.fromEntries(url.searchParams.entries()));
		},
	};
}

/** Redirects the key must never follow: what it is, the status, the Location. */
export const REDIRECTS: Array<[string, number, string]> = [
	['302 to plain http on another host', 302, 'http://other.example.test/api/v1/user/credits'],
	['301 to another https host', 301, 'https://other.example.test/api/v1/user/credits'],
	['302 from https to http on the same host', 302, 'http://api.example.test/api/v1/user/credits'],
];

/** The credits route at `base` redirecting to `location`, and a target there that would answer. */
export function nockRedirect(
	base: string,
	status: number,
	location: string,
): { redirect: nock.Scope; target: nock.Scope } {
	const redirect = nock(base).get('/api/v1/user/credits').reply(status, '', { Location: location });
	const target = nock(new URL(location).origin)
		.persist()
		.get(/.*/)
		.reply(200, envelope({ available_credits: 1 }));
	return { redirect, target };
}
