/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- dev-only benchmark: loads another build's node from a folder the environment names */
/**
 * The floor of any verified node: the same requests as ContentGen's Get and Return All, made the
 * plainest way n8n allows a verified node, one `httpRequestWithAuthentication` per request with
 * the ContentGen credential, every item at once (as ContentGen at its defaults and n8n's HTTP
 * Request node send them). Run in the same engine as the node, what is left between the two is
 * the node's own work. `CONTENTGEN_BENCH_BEFORE=<folder>` (a checkout of another commit, e.g.
 * `git worktree add /tmp/before main`, its node_modules linked) adds that build's node beside them.
 */
import { join } from 'path';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { PACKAGE, TestNodeTypes } from '../harness/engine';

export const MINIMAL_TYPE = `${PACKAGE}.minimalNode`;
export const BEFORE_TYPE = `${PACKAGE}.contentGenBefore`;

class MinimalNode implements INodeType {
	description = {
		displayName: 'Minimal',
		name: 'minimalNode',
		group: ['transform'],
		version: 1,
		description: 'Gets articles through httpRequestWithAuthentication',
		defaults: { name: 'Minimal' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'contentGenApi', required: true }],
		properties: [
			{ displayName: 'Operation', name: 'operation', type: 'string', default: 'get' },
			{ displayName: 'Article ID', name: 'articleId', type: 'string', default: '' },
		],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('contentGenApi');
		const get = async (path: string, qs?: IDataObject) =>
			(await this.helpers.httpRequestWithAuthentication.call(this, 'contentGenApi', {
				method: 'GET',
				url: `${baseUrl}/api/v1${path}`,
				qs,
				json: true,
			})) as { data: IDataObject | IDataObject[]; pagination?: { has_more: boolean } };
		if (this.getNodeParameter('operation', 0) === 'getAll') {
			const out: INodeExecutionData[] = [];
			for (let page = 1; ; page++) {
				const answer = await get('/articles', { page, limit: 100 });
				for (const json of answer.data as IDataObject[])
					out.push({ json, pairedItem: { item: 0 } });
				if (!answer.pagination?.has_more) return [out];
			}
		}
		const items = this.getInputData();
		const out = await Promise.all(
			items.map(async (_item, i) => ({
				json: (await get(`/articles/${this.getNodeParameter('articleId', i) as string}`))
					.data as IDataObject,
				pairedItem: { item: i },
			})),
		);
		return [out];
	}
}

/** The folder of another build to measure beside this one, when one is named. */
export const BEFORE_DIR = process.env.CONTENTGEN_BENCH_BEFORE;

/** The engine's node types with the minimal node, and the other build's ContentGen when named. */
export function benchNodeTypes(): TestNodeTypes {
	const extra: Record<string, INodeType> = { [MINIMAL_TYPE]: new MinimalNode() };
	if (BEFORE_DIR) {
		const { ContentGen } = require(join(BEFORE_DIR, 'nodes/ContentGen/ContentGen.node.ts')) as {
			ContentGen: new () => INodeType;
		};
		extra[BEFORE_TYPE] = new ContentGen();
	}
	return new TestNodeTypes(extra);
}
