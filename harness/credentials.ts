/**
 * n8n's credentials helper as the tests need it: decrypted data handed over as given, and the
 * credential's generic `authenticate` block applied with n8n's own expression resolution.
 */
import { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

import { ContentGenApi } from '../credentials/ContentGenApi.credentials';

const CREDENTIAL_TYPES: Record<string, ICredentialType> = { contentGenApi: new ContentGenApi() };

/** Applies a credential's generic `authenticate` block with n8n's own expression resolution. */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly credentials: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = CREDENTIAL_TYPES[typeName]?.authenticate;
		if (!authenticate) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const resolve = (value: string) =>
			workflow && node && value.startsWith('=')
				? String(
						workflow.expression.getSimpleParameterValue(
							node,
							value,
							'internal',
							{ $credentials: credentials },
							undefined,
							'',
						),
					)
				: value;
		const properties = authenticate.properties as {
			headers?: Record<string, string>;
			qs?: Record<string, string>;
		};
		const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
		for (const [key, value] of Object.entries(properties.headers ?? {}))
			headers[resolve(key)] = resolve(value);
		const qs: IDataObject = { ...(requestOptions.qs ?? {}) };
		for (const [key, value] of Object.entries(properties.qs ?? {}))
			qs[resolve(key)] = resolve(value);
		return { ...requestOptions, headers, ...(properties.qs ? { qs } : {}) };
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(_details: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		return new Credentials({ id: null, name: type }, type, '');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_details: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.credentials[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return CREDENTIAL_TYPES[type]?.properties ?? [];
	}
}
