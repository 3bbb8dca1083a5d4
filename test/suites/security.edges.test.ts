/**
 * The key's path in a workflow: never followed through a redirect, never to a Base URL with
 * extra parts, and generated images fetched only from public https (or the sandbox's own origin).
 */
import nock from 'nock';
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, singleNodeWorkflow, TEST_API_KEY } from '../helpers/engine';
import { envelope, startHostileServer, type HostileServer } from '../helpers/hostile-server';
import { errorName } from './helpers';
import { nockRedirect, REDIRECTS, setupNock } from '../helpers/nock';

const BASE = 'https://api.example.test';
const CONTENT_ID = '0b7c6f9a-1d2e-4f3a-8b9c-0d1e2f3a4b5c';

async function run(parameters: IDataObject, baseUrl = BASE) {
	return await runWorkflow(singleNodeWorkflow(parameters), {
		credentials: { apiKey: TEST_API_KEY, baseUrl },
	});
}

setupNock({ allow: /127\.0\.0\.1/ });

describe('redirects are never followed with the key', () => {
	it.each(REDIRECTS)(
		'%s: the target never hears from us, the error names the redirect',
		async (_what, status, location) => {
			const { redirect, target } = nockRedirect(BASE, status, location);
			const result = await run({ resource: 'account', operation: 'getCredits' });
			expect(result.error?.message).toMatch(/redirect/i);
			expect(`${result.error?.message} ${result.error?.description}`).toContain(
				new URL(location).host,
			);
			expect(redirect.isDone()).toBe(true);
			expect(target.isDone()).toBe(false);
		},
	);

	it('307 on a generate: body and key are not re-sent elsewhere, and no generation is taken from the other host', async () => {
		const redirect = nock(BASE)
			.post('/api/v1/articles/generate')
			.reply(307, '', { Location: 'https://other.example.test/api/v1/articles/generate' });
		const target = nock('https://other.example.test')
			.persist()
			.post(/.*/)
			.reply(202, envelope({ article_id: CONTENT_ID, status: 'queued' }));
		const result = await run({
			resource: 'article',
			operation: 'generate',
			topic: 'Redirects and keys',
			projectId: { __rl: true, mode: 'id', value: CONTENT_ID },
		});
		expect(result.error?.message).toMatch(/redirect/i);
		expect(redirect.isDone()).toBe(true);
		expect(target.isDone()).toBe(false);
	});
});

describe('a Base URL with more than an origin and a path is refused before any request', () => {
	it.each([
		['a #fragment', `${BASE}/#section`],
		['a ?query', `${BASE}/?tenant=1`],
		['a user name and password', 'https://user:secret@api.example.test'],
		['a *.localhost name over plain http', 'http://api.localhost'],
	])('%s', async (_what, baseUrl) => {
		const scope = nock(new URL(baseUrl).origin)
			.persist()
			.get(/.*/)
			.reply(200, envelope({ available_credits: 1 }));
		const result = await run({ resource: 'account', operation: 'getCredits' }, baseUrl);
		expect(errorName(result)).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/Base URL|plain http/);
		expect(scope.isDone()).toBe(false);
	});
});

describe("images are downloaded only from public https, or from the service's own loopback origin", () => {
	let admin: HostileServer;
	beforeAll(async () => {
		admin = await startHostileServer((_request, response) => {
			response.writeHead(200, { 'Content-Type': 'image/png' });
			response.end('secret admin page');
		});
	});
	afterAll(async () => await admin.close());

	function recordWith(imageUrl: string) {
		return {
			id: CONTENT_ID,
			status: 'completed',
			platforms: { linkedin: 'A caption' },
			image_urls: { linkedin: imageUrl },
			video_urls: {},
		};
	}

	const getWithImages = {
		resource: 'socialContent',
		operation: 'get',
		contentId: CONTENT_ID,
		options: { downloadImages: true },
	};

	it.each([
		['a loopback address of another port', () => `${admin.url}/admin/export.png`],
		['a private address', () => 'https://10.1.2.3/x.png'],
		['a link-local cloud metadata address', () => 'http://169.254.169.254/latest/meta-data'],
		['an IPv6 loopback address', () => 'https://[::1]/x.png'],
		['plain http on a public host', () => 'http://cdn.example.test/x.png'],
	])('%s is refused without a request', async (_what, url) => {
		nock(BASE)
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope(recordWith(url())));
		const before = admin.seen.length;
		const result = await run(getWithImages);
		expect(result.error?.message).toMatch(/image was not downloaded/i);
		expect(admin.seen.length).toBe(before);
	});

	it('a redirect from a public https image to a loopback address is not followed', async () => {
		nock(BASE)
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope(recordWith('https://cdn.example.test/x.png')));
		nock('https://cdn.example.test')
			.get('/x.png')
			.reply(302, '', { Location: `${admin.url}/admin/export.png` });
		const before = admin.seen.length;
		const result = await run(getWithImages);
		expect(result.error?.message).toMatch(/image was not downloaded/i);
		expect(admin.seen.length).toBe(before);
	});

	it('public https images are downloaded (so the refusals above are specific)', async () => {
		nock(BASE)
			.get(`/api/v1/social/content/${CONTENT_ID}`)
			.reply(200, envelope(recordWith('https://cdn.example.test/x.png')));
		nock('https://cdn.example.test')
			.get('/x.png')
			.reply(200, Buffer.from('png'), { 'Content-Type': 'image/png' });
		const result = await run(getWithImages);
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.output('ContentGen')[0].binary ?? {})).toEqual(['image_linkedin']);
	});
});
