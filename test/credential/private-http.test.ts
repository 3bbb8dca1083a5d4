/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: reads this machine's network addresses */
/**
 * "Allow Plain HTTP to a Private Address", the credential's setting for a service on the user's
 * own network (the sandbox reached from n8n in Docker as http://host.docker.internal:8787): off,
 * plain http goes only to this machine; on, also to a private or internal address; a public
 * address over plain http is refused either way. The key goes to the Base URL's origin only,
 * on every path: the Test button, a node's requests, another node using the credential, and
 * never with a download.
 */
import nock from 'nock';
import { networkInterfaces } from 'os';
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { ContentGenApi } from '../../credentials/ContentGenApi.credentials';
import { parseBaseUrl } from '../../nodes/shared/transport/origin';
import { startSandbox, type Sandbox } from '../../sandbox';
import { pressTest } from '../helpers/credential-test';
import { runWorkflow, singleNodeWorkflow, TEST_API_KEY } from '../helpers/engine';
import { envelope } from '../helpers/hostile-server';

const CREDITS = { available_credits: 12.5, plan: 'Free' };
const CONTENT_ID = '0b7c6f9a-1d2e-4f3a-8b9c-0d1e2f3a4b5c';

const PRIVATE = [
	'http://host.docker.internal:8787',
	'http://10.0.0.5',
	'http://172.17.0.1:8787',
	'http://192.168.1.20:8787',
	'http://169.254.10.1',
	'http://[fd12:3456::1]:8787',
	'http://[fe80::1]:8787',
	'http://contentgen.local',
	'http://sandbox:8787',
];
const PUBLIC = [
	'http://api.example.test',
	'http://203.0.113.7',
	'http://8.8.8.8',
	'http://100.64.0.1',
	'http://172.32.0.1',
	'http://api.internal.example.com',
	'http://0.0.0.0',
];

/** A nock for every request to `origin`, recording the Authorization header each carried. */
function service(origin: string) {
	const seen: Array<string | undefined> = [];
	const scope = nock(origin)
		.persist()
		.get(/.*/)
		.reply(function () {
			seen.push(this.req.headers.authorization as string | undefined);
			return [200, envelope(CREDITS)];
		});
	return { scope, seen };
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => {
	nock.restore();
	nock.enableNetConnect();
});

describe('the Test button', () => {
	it.each(PRIVATE)(
		'%s: refused while the setting is off, naming it; nothing is sent',
		async (baseUrl) => {
			const { seen } = service(new URL(baseUrl).origin);
			const result = await pressTest({ apiKey: TEST_API_KEY, baseUrl });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/^Refusing to send the API key over plain http to a remote host/,
			);
			expect(result.message).toContain("'Allow Plain HTTP to a Private Address'");
			expect(seen).toEqual([]);
		},
	);

	it.each(PRIVATE)(
		'%s: with the setting on, the key goes there and the test passes',
		async (baseUrl) => {
			const { seen } = service(new URL(baseUrl).origin);
			const result = await pressTest({ apiKey: TEST_API_KEY, baseUrl, allowPrivateHttp: true });
			expect(result).toEqual({ status: 'OK', message: 'Connection successful' });
			expect(seen).toEqual([`Bearer ${TEST_API_KEY}`]);
		},
	);

	it.each(PUBLIC)('%s: refused even with the setting on; nothing is sent', async (baseUrl) => {
		const { seen } = service(new URL(baseUrl).origin);
		const result = await pressTest({ apiKey: TEST_API_KEY, baseUrl, allowPrivateHttp: true });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			/^Refusing to send the API key over plain http to a public address: .*covers private and internal addresses only/,
		);
		expect(seen).toEqual([]);
	});

	it('the setting is on only when exactly true (a text "true" from an old export is not)', async () => {
		const { seen } = service('http://10.0.0.5');
		for (const value of ['true', 1, 'yes']) {
			const result = await pressTest({
				apiKey: TEST_API_KEY,
				baseUrl: 'http://10.0.0.5',
				allowPrivateHttp: value as unknown as boolean,
			});
			expect([value, result.status]).toEqual([value, 'Error']);
		}
		expect(seen).toEqual([]);
	});

	it('with the setting on, a redirect from the private service is still not followed', async () => {
		nock('http://host.docker.internal:8787')
			.get('/api/v1/user/credits')
			.reply(302, '', { Location: 'http://10.9.9.9/api/v1/user/credits' });
		const { seen } = service('http://10.9.9.9');
		const result = await pressTest({
			apiKey: TEST_API_KEY,
			baseUrl: 'http://host.docker.internal:8787',
			allowPrivateHttp: true,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/redirect/);
		expect(seen).toEqual([]);
	});
});

describe("the credential's authenticate (any node using it)", () => {
	const credential = new ContentGenApi();
	const sign = (baseUrl: string, url: string, allowPrivateHttp?: boolean) =>
		credential.authenticate(
			{ apiKey: TEST_API_KEY, baseUrl, ...(allowPrivateHttp ? { allowPrivateHttp } : {}) },
			{
				url,
			} as IHttpRequestOptions,
		);

	it('offers the setting, off by default, and says why the internet stays refused', () => {
		const setting = credential.properties.find((p) => p.name === 'allowPrivateHttp');
		expect(setting).toMatchObject({
			displayName: 'Allow Plain HTTP to a Private Address',
			type: 'boolean',
			default: false,
		});
		expect(setting?.description).toMatch(
			/Anyone on the way can read a key sent over plain http, so addresses on the internet stay refused/,
		);
	});

	it('signs a request for the private origin only when the setting is on', async () => {
		const url = 'http://host.docker.internal:8787/api/v1/user/credits';
		await expect(sign('http://host.docker.internal:8787', url)).rejects.toThrow(
			/Refusing to send the API key over plain http to a remote host/,
		);
		const signed = await sign('http://host.docker.internal:8787', url, true);
		expect(signed.headers).toEqual({ Authorization: `Bearer ${TEST_API_KEY}` });
		expect(signed.disableFollowRedirect).toBe(true);
	});

	it.each([
		['another private host', 'http://10.0.0.6/api/v1/user/credits', 'http://10.0.0.6'],
		['another port', 'http://host.docker.internal:9000/x', 'http://host.docker.internal:9000'],
		[
			'https on the same host',
			'https://host.docker.internal:8787/x',
			'https://host.docker.internal:8787',
		],
		['a public host', 'http://api.example.test/x', 'http://api.example.test'],
	])('with the setting on, the key still goes nowhere else: %s', async (_what, url, origin) => {
		await expect(sign('http://host.docker.internal:8787', url, true)).rejects.toThrow(
			`The ContentGen API key is sent only to http://host.docker.internal:8787, not to ${origin}`,
		);
	});

	it('a public Base URL over plain http is refused with the setting on', async () => {
		await expect(
			sign('http://api.example.test', 'http://api.example.test/x', true),
		).rejects.toThrow(/plain http to a public address/);
	});
});

describe('the node', () => {
	const BASE = 'http://host.docker.internal:8787';
	const run = (parameters: IDataObject, allowPrivateHttp?: boolean) =>
		runWorkflow(singleNodeWorkflow(parameters), {
			credentials: { apiKey: TEST_API_KEY, baseUrl: BASE, allowPrivateHttp },
		});

	it('refuses the private Base URL before any request while the setting is off', async () => {
		const { seen } = service(BASE);
		const result = await run({ resource: 'account', operation: 'getCredits' });
		expect(result.error?.message).toBe(
			'Refusing to send the API key over plain http to a remote host [item 0]',
		);
		expect(result.error?.description).toContain("'Allow Plain HTTP to a Private Address'");
		expect(seen).toEqual([]);
	});

	it('works against it with the setting on', async () => {
		const { seen } = service(BASE);
		const result = await run({ resource: 'account', operation: 'getCredits' }, true);
		expect(result.error).toBeUndefined();
		expect(result.output('ContentGen')[0].json).toMatchObject({ available_credits: 12.5 });
		expect(seen).toEqual([`Bearer ${TEST_API_KEY}`]);
	});

	it("downloads the service's own images without the key, and refuses another private host", async () => {
		const record = (imageUrl: string) => ({
			id: CONTENT_ID,
			status: 'completed',
			platforms: { linkedin: 'A caption' },
			image_urls: { linkedin: imageUrl },
			video_urls: {},
		});
		const get = {
			resource: 'socialContent',
			operation: 'get',
			contentId: CONTENT_ID,
			options: { downloadImages: true },
		};
		const own = nock(BASE, { badheaders: ['authorization'] })
			.get(`/files/${CONTENT_ID}/linkedin.png`)
			.reply(200, Buffer.from('png bytes'), { 'Content-Type': 'image/png' });
		nock(BASE, { reqheaders: { authorization: `Bearer ${TEST_API_KEY}` } })
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope(record(`${BASE}/files/${CONTENT_ID}/linkedin.png`)));
		const result = await run(get, true);
		expect(result.error).toBeUndefined();
		expect(own.isDone()).toBe(true);
		expect(Object.keys(result.output('ContentGen')[0].binary ?? {})).toHaveLength(1);

		const other = nock('http://10.0.0.9').get(/.*/).reply(200, 'secret');
		nock(BASE)
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope(record('http://10.0.0.9/admin.png')));
		const refused = await run(get, true);
		expect(refused.error?.message).toBe(
			'The linkedin image was not downloaded: 10.0.0.9 is plain http; only https addresses are fetched [item 0]',
		);
		expect(other.isDone()).toBe(false);
	});
});

/** A private address of this machine (Docker's bridge, a LAN or an IPv6 unique-local one), if any. */
function privateAddressOfThisMachine(): string | undefined {
	for (const addresses of Object.values(networkInterfaces())) {
		for (const a of addresses ?? []) {
			if (a.internal) continue;
			const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
			if (a.family === 'IPv6' && a.address.startsWith('fe80')) continue; // needs a zone id
			const url = `http://${host}`;
			try {
				parseBaseUrl(url, { allowPrivateHttp: true });
			} catch {
				continue;
			}
			return host;
		}
	}
	return undefined;
}

const HOST = privateAddressOfThisMachine();
const withAddress = HOST ? describe : describe.skip;

withAddress(
	`the sandbox on every interface, reached over plain http at ${HOST ?? 'a private address (this machine has none)'}`,
	() => {
		let sb: Sandbox;
		beforeAll(async () => {
			nock.enableNetConnect();
			nock.restore();
			sb = await startSandbox({ speed: 1000, quiet: true, host: '::', seed: 21 });
			sb.control.setRateLimit({ perMinute: 1_000_000, perDay: -1 });
			sb.control.advance(86_400_000);
		});
		afterAll(async () => {
			await sb.close();
			nock.activate();
			nock.disableNetConnect();
		});

		const baseUrl = () => `http://${HOST}:${new URL(sb.url).port}`;

		it('the Test button passes with the setting and refuses without it', async () => {
			expect(
				await pressTest({ apiKey: sb.apiKey, baseUrl: baseUrl(), allowPrivateHttp: true }),
			).toEqual({
				status: 'OK',
				message: 'Connection successful',
			});
			expect((await pressTest({ apiKey: sb.apiKey, baseUrl: baseUrl() })).status).toBe('Error');
		});

		it("a Get with Download Images fetches the sandbox's images from the address n8n used", async () => {
			const [contentId] = sb.control.seedSocial(1, {
				status: 'completed',
				platforms: ['linkedin'],
			});
			sb.control.resetRequests();
			const result = await runWorkflow(
				singleNodeWorkflow({
					resource: 'socialContent',
					operation: 'get',
					contentId,
					options: { downloadImages: true },
				}),
				{ credentials: { apiKey: sb.apiKey, baseUrl: baseUrl(), allowPrivateHttp: true } },
			);
			expect(result.error).toBeUndefined();
			const [item] = result.output('ContentGen');
			expect(String((item.json.image_urls as IDataObject).linkedin)).toMatch(
				new RegExp(`^${baseUrl().replace(/[[\]]/g, '\\$&')}/files/`),
			);
			expect(Object.keys(item.binary ?? {})).toHaveLength(1);
			const requests = sb.control.requests().map((r) => r.path);
			expect(requests).toEqual([
				`/api/v1/social/content/${contentId}`,
				`/files/${contentId}/linkedin.png`,
			]);
		});
	},
);
