import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ARTICLE_LIFECYCLE, isArticleComplete } from '../../../shared/domain/statuses';
import type { Article, ArticleStatusRecord } from '../../../shared/types';
import { assertUuid, pathId } from '../../../shared/validation';
import { optionsCollection, recordIdProperty, simplifyProperty } from '../../helpers/descriptions';
import { runWait } from '../../helpers/generation';
import type { JobKind, Observation, PollOptions } from '../../helpers/waiting';
import { readJob, readWaitSettings, waitOptions } from '../../helpers/waiting';
import { shapeArticleOutput } from './output';
import { readSwitch } from '../../helpers/items';

function observe(status: string, progress?: number): Observation {
	if (status === 'failed') return { state: 'failed', status };
	if (status === 'archived')
		return { state: 'failed', status, reason: 'it was archived before it finished' };
	return { state: 'pending', status, progress };
}

async function fetchArticle(
	context: IExecuteFunctions,
	id: string,
	options: PollOptions,
): Promise<Observation> {
	const { data, status } = await readJob<Article>(
		context,
		`/articles/${pathId('Article ID', id)}`,
		options,
	);
	if (isArticleComplete(status)) return { state: 'finished', status, record: data };
	return observe(status);
}

/** Articles: done at is_complete (cms or needs_editing), failed at failed; the queued list answers for many. */
export const articleJob: JobKind = {
	noun: 'article',
	idField: 'article_id',
	idLabel: 'Article ID',
	listEndpoint: '/articles',
	listStatus: 'queued',
	pendingStatuses: ARTICLE_LIFECYCLE.pending,
	async pollOne(context, id, options) {
		const { data, status } = await readJob<ArticleStatusRecord>(
			context,
			`/articles/${pathId('Article ID', id)}/status`,
			options,
		);
		const progress = typeof data?.progress === 'number' ? data.progress : undefined;
		if (data?.is_complete === true || isArticleComplete(status)) {
			// The status route has no content: the output is the full article.
			const full = await fetchArticle(context, id, options);
			return full.state === 'pending' ? { state: 'pending', status, progress } : full;
		}
		return observe(status, progress);
	},
	fetchOne: fetchArticle,
};

export async function shapeArticle(
	this: IExecuteFunctions,
	record: IDataObject,
	itemIndex: number,
) {
	return shapeArticleOutput(record, readSwitch(this, 'simplify', itemIndex));
}

export const description: INodeProperties[] = [
	recordIdProperty(
		'article',
		'waitForCompletion',
		'ID (UUID) of the article to wait for, e.g. the article_id a Generate returned',
	),
	simplifyProperty('article', ['waitForCompletion']),
	optionsCollection('article', 'waitForCompletion', waitOptions('article', false)),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runWait.call(this, items, {
		kind: articleJob,
		prepare(itemIndex) {
			return {
				itemIndex,
				id: assertUuid('Article ID', this.getNodeParameter('articleId', itemIndex)),
				settings: readWaitSettings(this, itemIndex, 'article'),
			};
		},
		shape: shapeArticle,
	});
}
