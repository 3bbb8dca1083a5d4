/**
 * A service or a proxy that echoes the Authorization header: wherever the echo sits in an answer
 * and however it is spelt, the key never reaches what n8n keeps or shows. The cases are one table,
 * places x forms; each runs through n8n's engine (or the trigger's poll) against a loopback server
 * that answers with the echo, and everything the run left behind is searched for the key: items,
 * the stored error with all its own properties (response, messages, cause, stack) and warnings.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow } from '../helpers/engine';
import {
	envelope,
	failure,
	type Handler,
	type HostileServer,
	json,
	startHostileServer,
} from '../helpers/hostile-server';
import { pollHarness } from '../../harness/trigger/poll';
import { fromList } from './helpers';

const KEY = `svc_${createHash('sha256').update('echoed key').digest('hex')}`;
const SECRET = KEY.slice(4).toLowerCase();
/** Shortest run of the secret that counts as leaked (a field may cut the key short). */
const LEAK_RUN = 12;

const ARTICLE_ID = '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';
const PROJECT_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

// ---- the forms an echo takes -------------------------------------------------------------------

const unicodeEscape = (text: string) =>
	text.replace(/[^0-9a-z]/gi, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const escapeAll = (text: string) =>
	[...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

const FORMS: Array<[string, (key: string) => string]> = [
	['plain', (key) => key],
	['after Bearer', (key) => `Bearer ${key}`],
	['JSON-escaped', (key) => unicodeEscape(`Bearer ${key}`)],
	['JSON-escaped to the last character', (key) => escapeAll(`Bearer ${key}`)],
	['URL-encoded', (key) => encodeURIComponent(`Bearer ${key}`).replace(/_/g, '%5F')],
	['cut at the end of a field', (key) => `Authorization: Bearer ${key.slice(0, 4 + 20)}`],
];

// ---- the detector ------------------------------------------------------------------------------

function decode(text: string): string {
	return text
		.replace(/\\u([0-9a-f]{4})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
		.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
		.toLowerCase();
}

/** Every string reachable from a value, own non-enumerable properties (stack, cause) included. */
function strings(value: unknown, out: string[] = [], seen = new Set<unknown>()): string[] {
	if (typeof value === 'string') out.push(value);
	if (typeof value !== 'object' || value === null || seen.has(value)) return out;
	seen.add(value);
	if (Buffer.isBuffer(value)) return out;
	for (const name of Object.getOwnPropertyNames(value)) {
		out.push(name);
		strings((value as Record<string, unknown>)[name], out, seen);
	}
	return out;
}

/** The texts that hold a run of the secret at least LEAK_RUN long, in any spelling. */
function leaks(values: unknown[]): string[] {
	const found: string[] = [];
	for (const text of strings(values)) {
		const plain = decode(text);
		for (let at = 0; at + LEAK_RUN <= SECRET.length; at++) {
			if (plain.includes(SECRET.slice(at, at + LEAK_RUN))) {
				found.push(text.slice(0, 300));
				break;
			}
		}
	}
	return found;
}

// ---- the places an echo lands ------------------------------------------------------------------

type Answer = (request: Parameters<Handler>[0], response: Parameters<Handler>[1]) => void;

interface Place {
	/** How the server answers, with the echo somewhere in it. */
	answer(echo: string): Answer;
	/** Runs the node or the trigger; returns everything the run left behind, and what proves it ran. */
	run(baseUrl: string): Promise<{ kept: unknown[]; ran: unknown }>;
}

const plenty = { available_credits: 1000, subscription_credits: 1000, purchased_credits: 0 };

/** Runs one ContentGen node; the stored error and every task's data are what n8n keeps. */
async function node(baseUrl: string, parameters: IDataObject, continueOnFail = false) {
	const result = await runWorkflow(
		singleNodeWorkflow(parameters, continueOnFail ? { continueOnFail: true } : {}),
		{ credentials: { apiKey: KEY, baseUrl } },
	);
	const kept = [result.run.data.resultData.runData, result.run.data.resultData.error];
	const ran = continueOnFail ? result.output('ContentGen')[0]?.json.error : result.error;
	return { kept, ran: ran ?? result.output('ContentGen')[0]?.json };
}

const credits = { resource: 'account', operation: 'getCredits' };
const generate = {
	resource: 'article',
	operation: 'generate',
	topic: 'Echoes',
	projectId: fromList(PROJECT_ID),
};

/** Answers the generate POST with `post`, and any credit check with plenty. */
const onGenerate =
	(post: Answer): Answer =>
	(request, response) =>
		request.method === 'POST' ? post(request, response) : json(response, 200, envelope(plenty));

const PLACES: Array<[string, Place]> = [
	[
		'error.message of a 401',
		{
			answer: (echo) => (_r, res) => json(res, 401, failure('UNAUTHORIZED', `Invalid key ${echo}`)),
			run: async (url) => await node(url, credits),
		},
	],
	[
		'error.code of a 400',
		{
			answer: (echo) => (_r, res) => json(res, 400, failure(`BAD_${echo}`, 'Bad request')),
			run: async (url) => await node(url, credits),
		},
	],
	[
		'meta.request_id of a 403',
		{
			answer: (echo) => (_r, res) =>
				json(res, 403, {
					success: false,
					error: { code: 'FORBIDDEN', message: 'Not allowed' },
					meta: { request_id: `req-${echo}` },
				}),
			run: async (url) => await node(url, credits),
		},
	],
	[
		'X-Request-Id header of a 404',
		{
			answer: (echo) => (_r, res) =>
				json(
					res,
					404,
					{ success: false, error: { code: 'NOT_FOUND', message: 'Gone' } },
					{ 'X-Request-Id': `req-${echo}` },
				),
			run: async (url) => await node(url, credits),
		},
	],
	[
		'Location header of a redirect',
		{
			answer: (echo) => (_r, res) => {
				res.writeHead(302, { Location: `https://elsewhere.example/login?auth=${echo}` });
				res.end();
			},
			run: async (url) => await node(url, credits),
		},
	],
	[
		"a gateway's HTML page for a generate",
		{
			answer: (echo) =>
				onGenerate((_r, res) => {
					res.writeHead(502, { 'Content-Type': 'text/html' });
					res.end(`<html><head><title>Bad gateway ${echo}</title></head></html>`);
				}),
			run: async (url) => await node(url, generate),
		},
	],
	[
		'a 202 generate answer without a usable id (error)',
		{
			answer: (echo) =>
				onGenerate((_r, res) => json(res, 202, envelope({ status: 'queued', trace: echo }))),
			run: async (url) => await node(url, generate),
		},
	],
	[
		'a 202 generate answer without a usable id (Continue On Fail item)',
		{
			answer: (echo) =>
				onGenerate((_r, res) => json(res, 202, envelope({ status: 'queued', trace: echo }))),
			run: async (url) => await node(url, generate, true),
		},
	],
	[
		'a record field (article get)',
		{
			answer: (echo) => (_r, res) =>
				json(res, 200, envelope({ id: ARTICLE_ID, title: `Echo ${echo}`, status: 'cms' })),
			run: async (url) =>
				await node(url, { resource: 'article', operation: 'get', articleId: ARTICLE_ID }),
		},
	],
	[
		'a trigger item (Fetch Test Event)',
		{
			answer: (echo) => (_r, res) =>
				json(
					res,
					200,
					envelope(
						[
							{
								id: ARTICLE_ID,
								title: `Echo ${echo}`,
								status: 'cms',
								created_at: '2026-11-20T10:00:00Z',
								updated_at: '2026-11-20T11:00:00Z',
							},
						],
						{ page: 1, limit: 100, total: 1, total_pages: 1, has_more: false },
					),
				),
			run: async (url) => {
				const trigger = pollHarness(
					{ events: ['articleCompleted'] },
					{ apiKey: KEY, baseUrl: url },
				);
				const items = await trigger.poll('manual');
				return { kept: [items, trigger.warnings(), trigger.staticData()], ran: items?.[0]?.[0] };
			},
		},
	],
];

// ---- the table ---------------------------------------------------------------------------------

let answer: Answer = (_r, res) => json(res, 500, {});
let server: HostileServer;
beforeAll(async () => {
	server = await startHostileServer((request, response) => answer(request, response));
});
afterAll(async () => await server.close());

describe('the detector can fail', () => {
	it.each(FORMS)('flags the key %s, anywhere in a stored value', (_form, spell) => {
		const stored = { error: Object.assign(new Error('x'), { errorResponse: { v: spell(KEY) } }) };
		expect(leaks([stored])).toHaveLength(1);
	});

	it('passes the masked key and other hex', () => {
		expect(leaks([{ a: 'svc_…', b: 'Bearer …', c: SECRET.slice(0, LEAK_RUN - 1) }])).toEqual([]);
	});
});

const CASES = PLACES.flatMap(([place, spec]) =>
	FORMS.map(([form, spell]) => [place, form, spec, spell] as const),
);

describe('an echoed key is never kept', () => {
	it.each(CASES)('%s, the key %s', async (_place, _form, spec, spell) => {
		server.seen.length = 0;
		answer = spec.answer(spell(KEY));
		const { kept, ran } = await spec.run(server.url);
		// the case is live: the key went out signed, and the run produced an error or an item
		expect(server.seen.length).toBeGreaterThan(0);
		expect(server.seen[0].authorization).toBe(`Bearer ${KEY}`);
		expect(ran).toBeDefined();
		expect(leaks(kept)).toEqual([]);
	});
});

describe('an echo with every character escaped', () => {
	it('is masked in its field, and the rest of the record is kept', async () => {
		answer = (_r, res) =>
			json(res, 200, envelope({ id: ARTICLE_ID, title: `Echo ${escapeAll(KEY)}`, status: 'cms' }));
		const { kept, ran } = await node(server.url, {
			resource: 'article',
			operation: 'get',
			articleId: ARTICLE_ID,
		});
		expect(ran).toMatchObject({ id: ARTICLE_ID, title: 'Echo svc_…', status: 'cms' });
		expect(leaks(kept)).toEqual([]);
	});
});
