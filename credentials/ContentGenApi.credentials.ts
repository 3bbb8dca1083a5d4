import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	Icon,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import {
	type AddressError,
	parseBaseUrl,
	PRIVATE_HTTP_SETTING,
	requestOrigin,
	type ServiceRoot,
} from '../nodes/shared/transport/origin';

export class ContentGenApi implements ICredentialType {
	name = 'contentGenApi';

	displayName = 'ContentGen API';

	icon: Icon = {
		light: 'file:../nodes/ContentGen/contentGen.svg',
		dark: 'file:../nodes/ContentGen/contentGen.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-contentgen/n8n-nodes-contentgen#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'e.g. svc_0123… (64 hexadecimal characters)',
			description:
				'The key shown once when it was created in the service: "svc_" followed by 64 hexadecimal characters. It needs the read permission for reads, write for generate and publish, and the scopes of the resources you use (articles, social, projects, user).',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://api.example.com',
			description:
				'The address of the API the service gave you, starting with https://. Plain http is accepted only for the machine n8n runs on, or for an address on your own network with the setting below.',
		},
		{
			displayName: PRIVATE_HTTP_SETTING,
			name: 'allowPrivateHttp',
			type: 'boolean',
			default: false,
			description:
				"Whether to send the key over plain http to an address on your own network, such as http://192.168.1.20:8080, for a service that has no https there. Anyone on the way can read a key sent over plain http, so addresses on the internet stay refused. The key still goes only to the 'Base URL'.",
		},
	];

	/**
	 * The key is attached only to requests for the Base URL's own origin, over https or to this
	 * machine (or to a private address the credential allows), and never carried through a redirect: also when another node (such as HTTP Request,
	 * which spells the address as the legacy `uri`) uses this credential. The Test button is the
	 * ContentGen nodes' `testedBy` function.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		let root: ServiceRoot;
		try {
			root = parseBaseUrl(credentials.baseUrl, credentials);
		} catch (error) {
			throw new UserError((error as AddressError).sentence);
		}
		const target = requestOrigin(requestOptions);
		if (target !== root.origin) {
			throw new UserError(
				`The ContentGen API key is sent only to ${root.origin}, not to ${target ?? 'this address'}`,
			);
		}
		const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey.trim() : '';
		const signed: IHttpRequestOptions & IDataObject = {
			...requestOptions,
			headers: { ...(requestOptions.headers ?? {}), Authorization: `Bearer ${apiKey}` },
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		};
		// The legacy helper (n8n's HTTP Request node) reads its own redirect switches.
		if ('uri' in requestOptions) {
			signed.followRedirect = false;
			signed.followAllRedirects = false;
		}
		return signed;
	}
}
