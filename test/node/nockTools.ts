import nock from 'nock';

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
