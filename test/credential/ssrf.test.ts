/* eslint-disable @typescript-eslint/no-require-imports, @n8n/community-nodes/no-restricted-imports -- n8n's own SSRF error class, from the copy n8n-core uses */
/**
 * With n8n's SSRF guard on (N8N_SSRF_PROTECTION_ENABLED) and the service's address not allowed,
 * n8n refuses the request with its own error. The credential test and the node then say that
 * n8n's SSRF protection blocked the address and name the two allow settings; the Base URL is not
 * blamed, and nothing is retried.
 */
import type { ICredentialTestFunctions, INode } from 'n8n-workflow';
import { dirname } from 'path';

import { breakageError } from '../../nodes/shared/transport/refusals';
import { testContentGenCredential } from '../../nodes/shared/credentialTest';

const { SsrfBlockedIpError, SsrfBlockedHostnameError } = require(
	require.resolve('@n8n/backend-network', { paths: [dirname(require.resolve('n8n-core'))] }),
) as {
	SsrfBlockedIpError: new (ip: string, hostname?: string) => Error;
	SsrfBlockedHostnameError: new (hostname: string) => Error;
};

const BASE = 'https://contentgen.internal';
const KEY = `svc_${'5a'.repeat(32)}`;

const BLOCKS: Array<[string, () => Error]> = [
	['a restricted IP address', () => new SsrfBlockedIpError('10.0.0.7', 'contentgen.internal')],
	['a restricted host name', () => new SsrfBlockedHostnameError('contentgen.internal')],
];

function expectSsrfWording(text: string): void {
	expect(text).toContain("n8n's SSRF protection blocked the request to contentgen.internal");
	expect(text).toContain('N8N_SSRF_ALLOWED_HOSTNAMES');
	expect(text).toContain('N8N_SSRF_ALLOWED_IP_RANGES');
	expect(text).not.toMatch(/Check the Base URL|could not be sent/i);
}

describe("n8n's SSRF guard refusing the service's address", () => {
	// n8n's helper refuses before anything is sent: the Test button is given a helper that does so
	// (through a mocked socket the refusal of n8n's legacy helper escapes as an unhandled event).
	const refusing = (error: Error) =>
		({
			helpers: { request: async () => await Promise.reject(error) },
		}) as unknown as ICredentialTestFunctions;

	it.each(BLOCKS)(
		'the credential test names the guard and its settings: %s',
		async (_name, block) => {
			const result = await testContentGenCredential.call(refusing(block()), {
				id: 'ssrf',
				name: 'ContentGen account',
				type: 'contentGenApi',
				data: { apiKey: KEY, baseUrl: BASE },
			});
			expect(result.status).toBe('Error');
			expectSsrfWording(result.message);
		},
	);

	// The node's wording, built from n8n's own refusal as the transport receives it. Through a mocked
	// socket this refusal races the socket's own error event; the real n8n leg
	// (test/n8n/settings3.leg.ts) runs it in n8n itself with the guard on.
	const node = { name: 'ContentGen', type: 'n8n-nodes-contentgen.contentGen' } as INode;
	const refused = (reason: string) =>
		breakageError(node, {
			breakage: { kind: 'unsent', reason },
			reason,
			method: 'GET',
			endpoint: '/user/credits',
			origin: BASE,
			apiKey: KEY,
		});

	it.each(BLOCKS)('the node names the guard and its settings: %s', (_name, block) => {
		const error = refused(block().message);
		expect(error.message).toBe("n8n's SSRF protection blocked the request to contentgen.internal");
		expectSsrfWording(`${error.message}. ${error.description}`);
	});

	it('another failure to send is still reported as such (the wording is specific)', () => {
		expect(refused('proxy refused the tunnel').message).toBe(
			'The request could not be sent: proxy refused the tunnel',
		);
	});
});
