/**
 * Presses "Test" on a ContentGen API credential the way n8n 2.41's CredentialsTester does for a
 * credential without a `test` request of its own: it calls the function a node names in
 * `testedBy`, on n8n-core's CredentialTestContext, and redacts secrets from the message as n8n
 * does. Should the credential ever gain a `test` request (which n8n would run instead, through
 * its request rules), this helper throws rather than test something n8n would not run.
 */
import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunction,
	ICredentialType,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { ContentGenApi } from '../../credentials/ContentGenApi.credentials';
import { engineAdditionalData, TestNodeTypes } from './engine';

const TYPE = 'contentGenApi';

type TestFunction = (
	this: CredentialTestContext,
	credential: ICredentialsDecrypted,
) => Promise<INodeCredentialTestResult>;

/** n8n's lookup, for a credential without its own test: the first node that says `testedBy`. */
function findTest(): TestFunction {
	const credential = new ContentGenApi() as ICredentialType;
	if (credential.test) {
		throw new Error(
			`${TYPE} now has its own \`test\` request, which n8n runs instead of \`testedBy\`: ` +
				'pressTest no longer presses the button n8n shows',
		);
	}
	for (const nodeType of Object.values(new TestNodeTypes().types)) {
		for (const entry of nodeType.description.credentials ?? []) {
			if (entry.name !== TYPE || !entry.testedBy) continue;
			if (typeof entry.testedBy !== 'string') {
				throw new Error(
					`${nodeType.description.name} tests ${TYPE} with a request, not a function`,
				);
			}
			const found = nodeType.methods?.credentialTest?.[entry.testedBy] as
				| ICredentialTestFunction
				| undefined;
			if (!found) {
				throw new Error(
					`${nodeType.description.name} names testedBy '${entry.testedBy}', which it does not define`,
				);
			}
			return found as unknown as TestFunction;
		}
	}
	throw new Error(`no node tests ${TYPE} (testedBy)`);
}

function redact(message: string, data: ICredentialDataDecryptedObject): string {
	let out = message;
	for (const value of Object.values(data)) {
		if (typeof value === 'string' && value.length >= 8) out = out.split(value).join('*****');
	}
	return out;
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
	const context = new CredentialTestContext(engineAdditionalData());
	const result = await test.call(context, credential);
	return { ...result, message: redact(result.message, credential.data ?? {}) };
}
