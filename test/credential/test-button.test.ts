/**
 * The credential's Test button, as n8n runs it: it tells the truth about the address and the key,
 * and the key goes nowhere but the credential's own origin over https (plain http to loopback only).
 */
import nock from 'nock';

import { startSandbox, type Sandbox } from '../../sandbox';
import { pressTest } from '../helpers/credential-test';
import { refusedUrl } from '../helpers/flaky-server';
import { envelope, failure, json, startHostileServer } from '../helpers/hostile-server';
import { nockRedirect, REDIRECTS, setupNock } from '../helpers/nock';

const DAY_MS = 24 * 60 * 60 * 1000;

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ quiet: true });
});
afterAll(async () => {
	await sb.close();
});

describe('a working key', () => {
	it('passes against the service', async () => {
		expect(await pressTest({ apiKey: sb.apiKey, baseUrl: sb.url })).toMatchObject({ status: 'OK' });
	});

	it('passes with a trailing slash or /api/v1 in the Base URL', async () => {
		for (const baseUrl of [`${sb.url}/`, `${sb.url}/api/v1`, `${sb.url}/api/v1/`]) {
			expect([baseUrl, (await pressTest({ apiKey: sb.apiKey, baseUrl })).status]).toEqual([
				baseUrl,
				'OK',
			]);
		}
	});
});

describe("a rejected key says why, in the service's words", () => {
	it('an unknown key', async () => {
		const result = await pressTest({ apiKey: `svc_${'ab'.repeat(32)}`, baseUrl: sb.url });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/not accepted/i);
		expect(result.message).toContain('Invalid API key');
	});

	it('an expired key', async () => {
		const key = sb.control.createKey({ expiresInDays: 1 });
		sb.control.advance(2 * DAY_MS);
		const result = await pressTest({ apiKey: key, baseUrl: sb.url });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('This API key has expired');
	});

	it('a revoked key', async () => {
		const server = await startHostileServer((_request, response) =>
			json(response, 401, failure('UNAUTHORIZED', 'This API key has been revoked')),
		);
		try {
			const result = await pressTest({ apiKey: sb.apiKey, baseUrl: server.url });
			expect(result.status).toBe('Error');
			expect(result.message).toContain('This API key has been revoked');
		} finally {
			await server.close();
		}
	});

	it('a key without the read permission or the user scope names what it lacks', async () => {
		const key = sb.control.createKey({ permissions: ['write'], scopes: ['articles'] });
		const result = await pressTest({ apiKey: key, baseUrl: sb.url });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/"read" permission/);
		expect(result.message).toMatch(/"user" scope/);
	});
});

describe('a wrong address is named as such', () => {
	it('a web app that answers HTML with 200 is not "successful"', async () => {
		const server = await startHostileServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'text/html' });
			response.end('<html><head><title>Acme Dashboard</title></head><body>Welcome</body></html>');
		});
		try {
			const result = await pressTest({ apiKey: sb.apiKey, baseUrl: server.url });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/not the ContentGen API/i);
			expect(result.message).toContain('Acme Dashboard');
		} finally {
			await server.close();
		}
	});

	it('JSON that is not the service\'s envelope is not "successful" either', async () => {
		const server = await startHostileServer((_request, response) =>
			json(response, 200, { status: 'ok' }),
		);
		try {
			const result = await pressTest({ apiKey: sb.apiKey, baseUrl: server.url });
			expect(result).toMatchObject({
				status: 'Error',
				message: expect.stringMatching(/not the ContentGen API/i),
			});
		} finally {
			await server.close();
		}
	});

	it('a host that answers 404 for the route', async () => {
		const server = await startHostileServer((_request, response) =>
			json(response, 404, { message: 'Cannot GET /api/v1/user/credits' }),
		);
		try {
			const result = await pressTest({ apiKey: sb.apiKey, baseUrl: server.url });
			expect(result).toMatchObject({ status: 'Error', message: expect.stringMatching(/Base URL/) });
		} finally {
			await server.close();
		}
	});

	it('nothing listening: a sentence with the address and a hint, not a bare code', async () => {
		const baseUrl = await refusedUrl();
		const result = await pressTest({ apiKey: sb.apiKey, baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).not.toMatch(/^E[A-Z_]+$/);
		expect(result.message).toContain(new URL(baseUrl).host);
		expect(result.message).toMatch(/refused/i);
		expect(result.message).toMatch(/Base URL/);
	});

	it('a URL without a scheme', async () => {
		const result = await pressTest({ apiKey: sb.apiKey, baseUrl: 'api.example.com' });
		expect(result.status).toBe('Error');
		expect(result.message).not.toMatch(/ERR_INVALID_URL/);
		expect(result.message).toMatch(/https:\/\//);
	});
});

describe("the key goes only to the credential's origin, over https or to loopback", () => {
	setupNock({ allow: /127\.0\.0\.1|localhost/ });

	it.each([
		'http://api.example.test',
		'http://127.0.0.1.evil.example',
		'http://0.0.0.0',
		'http://api.localhost',
		'http://10.0.0.5',
	])('plain http to %s is refused before anything is sent', async (baseUrl) => {
		const scope = nock(new URL(baseUrl).origin)
			.persist()
			.get(/.*/)
			.reply(200, envelope({ available_credits: 1 }));
		const result = await pressTest({ apiKey: sb.apiKey, baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/plain http/i);
		expect(scope.isDone()).toBe(false);
	});

	it.each([
		['a #fragment', 'https://api.example.test/#section', /fragment|#/i],
		['a ?query', 'https://api.example.test/?tenant=1', /query|\?/i],
		[
			'a user name and password',
			'https://user:secret@api.example.test',
			/user name|password|credentials in the URL/i,
		],
	])('a Base URL with %s is refused before anything is sent', async (_what, baseUrl, reason) => {
		const scope = nock('https://api.example.test')
			.persist()
			.get(/.*/)
			.reply(200, envelope({ available_credits: 1 }));
		const result = await pressTest({ apiKey: sb.apiKey, baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(reason);
		expect(scope.isDone()).toBe(false);
	});

	it.each(REDIRECTS)('a redirect is not followed: %s', async (_what, status, location) => {
		const { redirect, target } = nockRedirect('https://api.example.test', status, location);
		const result = await pressTest({ apiKey: sb.apiKey, baseUrl: 'https://api.example.test' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/redirect/i);
		expect(redirect.isDone()).toBe(true);
		expect(target.isDone()).toBe(false);
	});

	it('https to a remote host is let through (so the refusals above are specific)', async () => {
		const scope = nock('https://api.example.test')
			.get('/api/v1/user/credits')
			.reply(200, envelope({ available_credits: 5, plan: 'Free' }));
		expect(
			await pressTest({ apiKey: sb.apiKey, baseUrl: 'https://api.example.test' }),
		).toMatchObject({
			status: 'OK',
		});
		expect(scope.isDone()).toBe(true);
	});
});
