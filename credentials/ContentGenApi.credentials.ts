import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class ContentGenApi implements ICredentialType {
	name = 'contentGenApi';

	displayName = 'ContentGen API';

	icon: Icon = {
		light: 'file:../nodes/ContentGen/contentGen.svg',
		dark: 'file:../nodes/ContentGen/contentGen.dark.svg',
	};

	documentationUrl = 'https://github.com/contentgen/n8n-nodes-contentgen#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'svc_0123…(64 hexadecimal characters)',
			description:
				'The key shown once when it was created in the service: "svc_" followed by 64 hexadecimal characters. It needs the read permission for reads, write for generate and publish, and the scopes of the resources you use (articles, social, projects, user).',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example.com',
			description:
				'The address of the service, without /api/v1 (a trailing /api/v1 or slash is ignored). Use https://; plain http is accepted only for localhost, e.g. the local sandbox.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey.trim()}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{$credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/api\\/v1$/i, "")}}/api/v1',
			url: '/user/credits',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key was not accepted (invalid, expired or revoked). A key is "svc_" followed by 64 hexadecimal characters, copied whole when it was created.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The key is valid but lacks the "read" permission or the "user" scope this test uses. Operations on other scopes may still work; add read + user to test it here.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No ContentGen API at this Base URL (404). Check the address: it should be the service root, e.g. https://api.example.com.',
				},
			},
		],
	};
}
