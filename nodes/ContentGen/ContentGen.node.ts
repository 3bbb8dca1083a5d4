import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testContentGenCredential } from '../shared/credentialTest';
import { searchProjects } from '../shared/domain/projects';
import { nodeProperties } from './resources';
import { router } from './router';

export class ContentGen implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ContentGen',
		name: 'contentGen',
		icon: { light: 'file:contentGen.svg', dark: 'file:contentGen.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Generate long-form articles and multi-platform social posts, publish or schedule them, and read credits and usage',
		defaults: { name: 'ContentGen' },
		// The editor appends its tracking query after a codex link's #fragment; this one it keeps as is.
		documentationUrl: 'https://github.com/contentgen/n8n-nodes-contentgen#operations',
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'contentGenApi', required: true, testedBy: 'testContentGenCredential' }],
		properties: nodeProperties(),
	};

	methods = {
		listSearch: { searchProjects },
		credentialTest: { testContentGenCredential },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
