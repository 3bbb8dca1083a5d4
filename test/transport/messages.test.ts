/**
 * n8n's error classes replace any message that contains a system error code (ENOTFOUND,
 * ECONNREFUSED, ...; in any letter case, anywhere) with their own generic sentence. Every message
 * the package builds is passed through NodeApiError and NodeOperationError here and must come out
 * as written; the codes live in descriptions. Image download failures name the image (platform
 * and host), the cause, and whether the rest of the item was returned.
 */
import nock from 'nock';
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { breakageFailure } from '../../nodes/shared/transport/download';
import { describeFailure } from '../../nodes/shared/transport/refusals';
import { shortfall, type WalkEnd } from '../../nodes/shared/transport/pages';
import {
	type Breakage,
	networkCause,
	ssrfRefusal,
	unsentWording,
} from '../../nodes/shared/transport/http';
import { runWorkflow, singleNodeWorkflow, TEST_API_KEY } from '../helpers/engine';
import { setupNock } from '../helpers/nock';
import { fromList } from '../suites/cases/locators';

const node = {
	id: 'n',
	name: 'ContentGen',
	type: 'n8n-nodes-contentgen.contentGen',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
} as INode;

/** The message as n8n's two error classes leave it, for an error built the package's way. */
function throughN8n(message: string): string[] {
	return [
		new NodeOperationError(node, message, { description: 'd' }).message,
		new NodeApiError(node, { message }, { message, description: 'd' }).message,
		new NodeApiError(node, { message, code: 'X' }, { message, httpCode: '500' }).message,
	];
}

const CODES = [
	'ENOTFOUND',
	'ECONNREFUSED',
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EAI_AGAIN',
	'CERT_HAS_EXPIRED',
	'EPROTO',
];

const UUID = '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
const IMAGE = new URL('https://cdn.images.example/img/instagram.png');

/** Every answer wording: statuses x error codes x methods x routes. */
function answerMessages(): string[] {
	const out = new Set<string>();
	const statuses = [301, 302, 400, 401, 402, 403, 404, 409, 418, 422, 429, 500, 502, 503, 504];
	const codes = [undefined, 'UNAUTHORIZED', 'NOT_FOUND', 'NO_PROJECT', 'INSUFFICIENT_CREDITS'];
	const routes = ['/articles', `/articles/${UUID}`, `/social/content/${UUID}`, '/user/credits'];
	for (const statusCode of statuses)
		for (const code of codes)
			for (const method of ['GET', 'POST'])
				for (const endpoint of routes) {
					const body = code ? { success: false, error: { code, message: 'm' } } : 'oops';
					const headers = { location: 'https://moved.example/', 'retry-after': '5' };
					const failure = describeFailure({
						statusCode,
						body,
						headers,
						method,
						endpoint,
						apiKey: `svc_${'ab'.repeat(32)}`,
					});
					out.add(failure.message);
				}
	return [...out];
}

function downloadFailures(): Array<[string, ReturnType<typeof breakageFailure>]> {
	const breakages: Array<[string, Breakage, string]> = [
		...CODES.map((code): [string, Breakage, string] => [code, { kind: 'network', code }, code]),
		['a timeout', { kind: 'timeout' }, 'timed out'],
		[
			'a refusal quoting a code',
			{ kind: 'unsent', reason: 'connect ECONNREFUSED 127.0.0.1:9' },
			'connect ECONNREFUSED 127.0.0.1:9',
		],
		[
			"n8n's SSRF guard",
			{
				kind: 'unsent',
				reason: 'The request was blocked because it resolves to a restricted IP address',
			},
			'The request was blocked because it resolves to a restricted IP address',
		],
	];
	return breakages.map(([name, breakage, reason]) => [
		name,
		breakageFailure('instagram image', IMAGE, breakage, reason),
	]);
}

function shortfalls(): string[] {
	const ends: WalkEnd[] = ['complete', 'ceiling', 'growth', 'repeat', 'empty'];
	return ends
		.flatMap((end) =>
			[{ total: 10_000 }, {}].map(
				(counts) =>
					shortfall({ records: 2000, pages: 2000, firstTotal: 400, end, ...counts }) ?? '',
			),
		)
		.filter((sentence) => sentence !== '');
}

describe('the test can fail', () => {
	it("n8n does replace a message that quotes a code, and one with 'preexisting' in it", () => {
		expect(throughN8n('Could not download the tiktok image (ENOTFOUND)')[0]).toBe(
			'The connection cannot be established, this usually occurs due to an incorrect host (domain) value',
		);
		expect(throughN8n('Title: "preexisting conditions"')[0]).toBe(
			'The file or directory already exists',
		);
	});
});

describe("every message of the package survives n8n's error classes as written", () => {
	const messages: Array<[string, string]> = [
		...answerMessages().map((m): [string, string] => ['answer', m]),
		...downloadFailures().map(([name, w]): [string, string] => [`download: ${name}`, w.message]),
		...CODES.map((code): [string, string] => [`cause ${code}`, networkCause(code)]),
		[
			'SSRF',
			ssrfRefusal('The request was blocked because it resolves to a restricted IP address', 'h')
				?.message ?? '',
		],
		['unsent with a code', unsentWording('getaddrinfo ENOTFOUND api.example.com').message],
		...shortfalls().map((m): [string, string] => ['shortfall', m]),
	];

	it('the table is not empty', () => {
		expect(messages.length).toBeGreaterThan(40);
		expect(messages.every(([, m]) => m.length > 0)).toBe(true);
	});

	it.each(messages)('%s: %s', (_kind, message) => {
		expect(throughN8n(message)).toEqual([message, message, message]);
	});
});

describe('image download failures name the image, its host and the cause', () => {
	it.each(downloadFailures())('%s', (name, wording) => {
		expect(wording.message).toMatch(
			/^Could not download the instagram image from cdn\.images\.example: \S/,
		);
		// the code, when there is one, is in the description with the address and the item's fate
		if (CODES.includes(name)) expect(wording.description).toContain(`System code: ${name}.`);
		expect(wording.description).toContain(IMAGE.toString());
		expect(wording.description).toContain('this item was not output');
	});
});

describe('through the node', () => {
	setupNock();

	it('a refused connection keeps the words; the system error code goes to the description', async () => {
		// A real refusal on this machine (port 9 has no listener), not a simulated socket error.
		nock.enableNetConnect('127.0.0.1');
		const result = await runWorkflow(
			singleNodeWorkflow({ resource: 'account', operation: 'getCredits' }),
			{ credentials: { apiKey: TEST_API_KEY, baseUrl: 'http://127.0.0.1:9' } },
		);
		nock.disableNetConnect();
		expect(result.error?.message).toBe('Could not reach the service [item 0]');
		expect(result.error?.description).toContain('System code: ECONNREFUSED.');
	});

	it("an invalid value quoting the user's words keeps its message", async () => {
		const result = await runWorkflow(
			singleNodeWorkflow({
				resource: 'article',
				operation: 'generate',
				topic: 'Preexisting conditions',
				projectId: fromList('preexisting-EPERM-project'),
			}),
		);
		expect(result.error?.message).toMatch(/preexisting-EPERM-project/);
	});
});
