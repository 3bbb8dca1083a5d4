/**
 * The credential's `authenticate` signs a request for the Base URL's own origin however n8n spells
 * its address (`url`, the legacy `uri` of the HTTP Request node, `baseURL` plus a path, a URL
 * object), and refuses every other origin before anything is sent.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeType,
} from 'n8n-workflow';

import { ContentGenApi } from '../../credentials/ContentGenApi.credentials';
import { PACKAGE, runWorkflow, TestNodeTypes, type WorkflowJson } from '../helpers/engine';
import {
	envelope,
	type Handler,
	type HostileServer,
	json,
	startHostileServer,
} from '../helpers/hostile-server';
import { probeWorkflow, testNodeDescription } from '../helpers/probe';

const KEY = `svc_${'0f1e'.repeat(16)}`;
const credentials = { apiKey: KEY, baseUrl: 'https://api.example.com/api/v1' };

async function sign(options: IDataObject): Promise<IDataObject> {
	return (await new ContentGenApi().authenticate(
		credentials,
		options as unknown as IHttpRequestOptions,
	)) as unknown as IDataObject;
}

const OWN = 'https://api.example.com/api/v1/user/credits';

const OWN_ORIGIN: Array<[string, IDataObject]> = [
	['url', { url: OWN }],
	['uri (the HTTP Request node)', { uri: OWN }],
	['baseURL + path', { baseURL: 'https://api.example.com/api/v1', url: '/user/credits' }],
	['baseURL + relative path', { baseURL: 'https://api.example.com/api/v1/', url: 'user/credits' }],
	['baseURL + uri', { baseURL: 'https://api.example.com', uri: '/api/v1/user/credits' }],
	['baseURL alone', { baseURL: 'https://api.example.com' }],
	['a URL object as url', { url: new URL(OWN) }],
	['a URL object as uri', { uri: new URL(OWN) }],
	['a URL object as baseURL', { baseURL: new URL('https://api.example.com'), url: '/x' }],
	['upper-case host and default port', { uri: 'https://API.EXAMPLE.COM:443/api/v1/user/credits' }],
];

const OTHER_ORIGINS: Array<[string, IDataObject, string]> = [
	['url elsewhere', { url: 'https://evil.example/api/v1/user/credits' }, 'https://evil.example'],
	['uri elsewhere', { uri: 'https://evil.example/steal' }, 'https://evil.example'],
	['uri over plain http', { uri: 'http://api.example.com/api/v1' }, 'http://api.example.com'],
	['uri on another port', { uri: 'https://api.example.com:8443/' }, 'https://api.example.com:8443'],
	[
		'a look-alike host',
		{ uri: 'https://api.example.com.evil.example/' },
		'https://api.example.com.evil.example',
	],
	[
		'a protocol-relative path under baseURL',
		{ baseURL: 'https://api.example.com', url: '//evil.example/x' },
		'https://evil.example',
	],
	[
		'baseURL elsewhere',
		{ baseURL: 'https://evil.example', url: '/api/v1' },
		'https://evil.example',
	],
	['a URL object elsewhere', { uri: new URL('https://evil.example/') }, 'https://evil.example'],
	// n8n's client reads url before uri: a uri on the own origin does not vouch for another url
	[
		'url elsewhere beside an own-origin uri',
		{ url: 'https://evil.example/', uri: OWN },
		'https://evil.example',
	],
];

describe('authenticate: every spelling of the own origin is signed', () => {
	it.each(OWN_ORIGIN)('%s', async (_name, options) => {
		const signed = await sign({
			method: 'GET',
			headers: { Accept: 'application/json' },
			...options,
		});
		expect(signed.headers).toEqual({ Accept: 'application/json', Authorization: `Bearer ${KEY}` });
		expect(signed.sendCredentialsOnCrossOriginRedirect).toBe(false);
		expect(signed.disableFollowRedirect).toBe(true);
	});

	it('the legacy spelling also has its own redirect switches turned off', async () => {
		const signed = await sign({ uri: OWN, followRedirect: true, followAllRedirects: true });
		expect(signed.followRedirect).toBe(false);
		expect(signed.followAllRedirects).toBe(false);
		expect(signed.uri).toBe(OWN);
	});
});

describe('authenticate: every other origin is refused, without the key', () => {
	it.each(OTHER_ORIGINS)('%s', async (_name, options, origin) => {
		await expect(sign(options)).rejects.toThrow(
			`The ContentGen API key is sent only to https://api.example.com, not to ${origin}`,
		);
	});

	it.each([
		['no address at all', {}],
		['an unreadable address', { uri: 'not a url' }],
		['a number', { url: 42 }],
	])('%s', async (_name, options) => {
		await expect(sign(options)).rejects.toThrow(
			'The ContentGen API key is sent only to https://api.example.com, not to this address',
		);
	});
});

// ---- through n8n's legacy helper, as the HTTP Request node calls it -----------------------------

/** Calls n8n's `requestWithAuthentication` with `uri`, as the HTTP Request node (v3+) does. */
class LegacyCaller implements INodeType {
	description = testNodeDescription('legacyCaller', 'Calls requestWithAuthentication', {
		displayName: 'URI',
		name: 'uri',
		type: 'string',
		default: '',
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions -- the helper n8n's HTTP Request node calls
		const body = (await this.helpers.requestWithAuthentication.call(this, 'contentGenApi', {
			method: 'GET',
			uri: this.getNodeParameter('uri', 0) as string,
			json: true,
		})) as IDataObject;
		return [[{ json: body }]];
	}
}

function callerWorkflow(uri: string): WorkflowJson {
	const workflow = probeWorkflow({});
	workflow.nodes[1] = {
		...workflow.nodes[1],
		type: `${PACKAGE}.legacyCaller`,
		parameters: { uri },
	};
	return workflow;
}

describe("n8n's legacy request helper with this credential", () => {
	const nodeTypes = new TestNodeTypes({ [`${PACKAGE}.legacyCaller`]: new LegacyCaller() });
	let service: HostileServer;
	let other: HostileServer;
	beforeAll(async () => {
		const credits: Handler = (_request, response) =>
			json(response, 200, envelope({ available_credits: 7 }));
		service = await startHostileServer(credits);
		other = await startHostileServer(credits, 'localhost');
	});
	afterAll(async () => {
		await service.close();
		await other.close();
	});

	it('signs a request to the Base URL (uri spelling) and the service answers', async () => {
		const result = await runWorkflow(callerWorkflow(`${service.url}/api/v1/user/credits`), {
			nodeTypes,
			credentials: { apiKey: KEY, baseUrl: service.url },
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Probe')[0].json).toEqual(envelope({ available_credits: 7 }));
		expect(service.seen.map((r) => [r.path, r.authorization])).toEqual([
			['/api/v1/user/credits', `Bearer ${KEY}`],
		]);
	});

	it('refuses another origin with no request sent there', async () => {
		const result = await runWorkflow(callerWorkflow(`${other.url}/api/v1/user/credits`), {
			nodeTypes,
			credentials: { apiKey: KEY, baseUrl: service.url },
		});
		expect(result.error?.message).toBe(
			`The ContentGen API key is sent only to ${service.origin}, not to ${other.origin}`,
		);
		expect(other.seen).toEqual([]);
	});
});
