/**
 * Presses "Test" on a ContentGen API credential the way n8n 2.41's CredentialsTester does: the
 * credential type's own `test` request if it has one (run through n8n-core's RoutingNode with its
 * rules), otherwise the function a node names in `testedBy`, called on n8n-core's
 * CredentialTestContext. Secrets are redacted from the message as n8n does.
 */
import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunction,
	ICredentialTestRequest,
	ICredentialType,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeType,
	INodeTypes,
	IRunExecutionData,
} from 'n8n-workflow';
import { createEmptyRunExecutionData, Workflow } from 'n8n-workflow';

import { ContentGenApi } from '../../credentials/ContentGenApi.credentials';
import { engineAdditionalData, TestCredentialsHelper, TestNodeTypes } from './engine';

const TYPE = 'contentGenApi';

type TestFunction = (
	this: CredentialTestContext,
	credential: ICredentialsDecrypted,
) => Promise<INodeCredentialTestResult>;

/** n8n's lookup: the credential's own test first, then the first node that says `testedBy`. */
function findTest(): ICredentialTestRequest | TestFunction | undefined {
	const credential = new ContentGenApi() as ICredentialType;
	if (credential.test) return credential.test;
	for (const nodeType of Object.values(new TestNodeTypes().types)) {
		for (const entry of nodeType.description.credentials ?? []) {
			if (entry.name !== TYPE || !entry.testedBy) continue;
			if (typeof entry.testedBy !== 'string') return entry.testedBy;
			const found = nodeType.methods?.credentialTest?.[entry.testedBy] as
				| ICredentialTestFunction
				| undefined;
			return found as unknown as TestFunction;
		}
	}
	return undefined;
}

function redact(message: string, data: ICredentialDataDecryptedObject): string {
	let out = message;
	for (const value of Object.values(data)) {
		if (typeof value === 'string' && value.length >= 8) out = out.split(value).join('*****');
	}
	return out;
}

async function runRequestTest(
	test: ICredentialTestRequest,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const nodeType = {
		description: {
			displayName: 'Temp',
			name: 'credentialTestNode',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: TYPE, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	} as unknown as INodeType;
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'credentialTestNode',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [TYPE]: { id: credential.id, name: credential.name } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = engineAdditionalData(
		new TestCredentialsHelper({ [TYPE]: credential.data ?? {} }),
	);
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createEmptyRunExecutionData() as IRunExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	let response: Awaited<ReturnType<RoutingNode['runNode']>>;
	try {
		response = await new RoutingNode(context, nodeType, credential).runNode();
	} catch (thrown) {
		const error = thrown as {
			message: string;
			cause?: { code?: string; response?: { status: number; statusText?: string } };
		};
		if (error.cause?.response) {
			const { status, statusText } = error.cause.response;
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}
	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const json = response?.[0]?.[0]?.json as Record<string, unknown> | undefined;
		if (json?.[rule.properties.key] === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

export async function pressTest(data: {
	apiKey: string;
	baseUrl: string;
}): Promise<INodeCredentialTestResult> {
	const credential: ICredentialsDecrypted = {
		id: 'credential',
		name: 'ContentGen account',
		type: TYPE,
		data,
	};
	const test = findTest();
	if (!test) return { status: 'Error', message: 'No testing function found for this credential.' };
	if (typeof test === 'function') {
		const context = new CredentialTestContext(engineAdditionalData(new TestCredentialsHelper({})));
		const result = await test.call(context, credential);
		return { ...result, message: redact(result.message, credential.data ?? {}) };
	}
	return await runRequestTest(test, credential);
}
