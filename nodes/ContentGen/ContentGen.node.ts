import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { testContentGenCredential } from '../shared/credentialTest';
import { searchProjects } from '../shared/domain/projects';
import { searchArticles, searchSocialContent } from '../shared/domain/records';
import { nodeProperties } from './resources';
import { router } from './router';

/**
 * The canvas subtitle: the chosen operation in the words the node picker lists it with ("Generate
 * social content"), read from the selectors the resource map built, so no operation lacks one.
 */
function actionSubtitle(properties: INodeProperties[]): string {
	const actions: Record<string, string> = {};
	for (const selector of properties.filter((p) => p.name === 'operation')) {
		for (const resource of selector.displayOptions?.show?.resource ?? []) {
			for (const option of (selector.options ?? []) as INodePropertyOptions[]) {
				actions[`${String(resource)}:${String(option.value)}`] = option.action ?? option.name;
			}
		}
	}
	return `={{ (${JSON.stringify(actions)})[$parameter["resource"] + ":" + $parameter["operation"]] || $parameter["operation"] }}`;
}

export class ContentGen implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ContentGen',
		name: 'contentGen',
		icon: { light: 'file:contentGen.svg', dark: 'file:contentGen.dark.svg' },
		group: ['transform'],
		// One version since 1.0.0 (AGENTS.md, Versioning): 2, the default before it, so workflows
		// saved with it open as they were.
		version: 2,
		subtitle: actionSubtitle(nodeProperties()),
		description:
			'Generate long-form articles and multi-platform social posts, publish or schedule them, and read credits and usage',
		defaults: { name: 'ContentGen' },
		// The editor appends its tracking query after a codex link's #fragment; this one it keeps as is.
		documentationUrl:
			'https://github.com/n8n-nodes-contentgen/n8n-nodes-contentgen/blob/main/docs/operations.md',
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'contentGenApi', required: true, testedBy: 'testContentGenCredential' }],
		properties: nodeProperties(),
	};

	methods = {
		listSearch: { searchArticles, searchProjects, searchSocialContent },
		credentialTest: { testContentGenCredential },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
