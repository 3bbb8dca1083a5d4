/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- the suites listen on the Node process itself */
/**
 * Shared by the fault suites: the sandbox's books (requests sent, charges made) read as "what
 * happened since this mark", the money check, and a collector of rejections nobody handled.
 */
import axios from 'axios';

import type { LedgerEntry, RequestLogEntry, Sandbox } from '../../sandbox';
import { seededRecords, type Records } from './helpers';

/**
 * Jest gives a test file a copy of \`process\` whose listeners never hear of a rejection, so the
 * collector goes on the Node process itself, loaded past jest's module registry. (Jest's own
 * listener there also fails the test that caused a rejection.)
 */
export const nodeProcess = (
	require('module') as { _load(request: string, parent: null, isMain: boolean): NodeJS.Process }
)._load('process', null, false);
export const unhandled: unknown[] = [];
export const collect = (reason: unknown) => {
	unhandled.push(reason);
};

const GENERATE_PATH = /^\/api\/v1\/(articles|social)\/generate$/;

export interface Mark {
	ledger: number;
	log: number;
}

/** The sandbox's request log and ledger, read from a mark. */
export class Books {
	constructor(private readonly sb: Sandbox) {}

	api() {
		return axios.create({
			baseURL: `${this.sb.url}/api/v1`,
			headers: { Authorization: `Bearer ${this.sb.apiKey}` },
			validateStatus: () => true,
		});
	}

	mark(): Mark {
		return { ledger: this.sb.control.ledger().length, log: this.sb.control.requests().length };
	}

	sent(from: { log: number }, method?: string): RequestLogEntry[] {
		return this.sb.control
			.requests()
			.slice(from.log)
			.filter((r) => method === undefined || r.method === method);
	}

	/**
	 * The money check: charges made since `from` may not outnumber the distinct generate requests
	 * (bodies) that were sent. A client that sends the same generate twice and gets charged twice
	 * fails it. Returns the problems found.
	 */
	doubleCharges(from: Mark): string[] {
		const charges: LedgerEntry[] = this.sb.control.ledger().slice(from.ledger);
		const posts = this.sent(from, 'POST').filter((r) => GENERATE_PATH.test(r.path));
		const intents = new Set(posts.map((r) => `${r.path} ${JSON.stringify(r.body)}`));
		const ids = new Set(charges.map((c) => c.recordId));
		const problems: string[] = [];
		if (charges.length > intents.size) {
			problems.push(`${charges.length} charges for ${intents.size} distinct generate requests`);
		}
		if (ids.size !== charges.length) problems.push('a record was charged more than once');
		return problems;
	}
}

export interface FaultSuite {
	records: Records;
	sb: Sandbox;
	books: Books;
}

/**
 * A fault suite's lifecycle: a seeded sandbox, faults cleared and unhandled rejections checked
 * after each test. The returned object is filled before the first test.
 */
export function faultSuite(seed: number): FaultSuite {
	const suite = {} as FaultSuite;
	beforeAll(async () => {
		nodeProcess.on('unhandledRejection', collect);
		suite.records = await seededRecords(seed);
		suite.sb = suite.records.sb;
		suite.books = new Books(suite.sb);
	});
	afterEach(async () => {
		suite.sb.control.clearFaults();
		// a rejection nobody handled is reported after the current macrotask
		await new Promise((resolve) => setImmediate(resolve));
		expect(unhandled).toEqual([]);
	});
	afterAll(async () => {
		nodeProcess.off('unhandledRejection', collect);
		await suite.sb.close();
	});
	return suite;
}
