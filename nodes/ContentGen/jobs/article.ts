import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { ARTICLE_LIFECYCLE, isArticleComplete } from '../../shared/domain/statuses';
import type { CallOptions, Connection } from '../../shared/transport/request';
import type { Article, ArticleStatusRecord } from '../../shared/types';
import { pathId } from '../../shared/validation';
import { readOutput } from '../helpers/output';
import { RECORD_IDS } from '../helpers/properties';
import { shapeArticleOutput } from '../resources/article/output';
import { readJob, type GenerationJob, type Observation } from './job';

const ARTICLE_ID = RECORD_IDS.article.displayName;

function observe(status: string, progress?: number): Observation {
	if (status === 'failed') return { state: 'failed', status };
	if (status === 'archived')
		return { state: 'failed', status, reason: 'it was archived before it finished' };
	return { state: 'pending', status, progress };
}

async function fetchArticle(
	connection: Connection,
	id: string,
	call: CallOptions,
): Promise<Observation> {
	const { data, status } = await readJob<Article>(
		connection,
		`/articles/${pathId(ARTICLE_ID, id)}`,
		call,
	);
	if (isArticleComplete(status)) return { state: 'finished', status, record: data };
	return observe(status);
}

async function shapeArticle(this: IExecuteFunctions, record: IDataObject, itemIndex: number) {
	return shapeArticleOutput(record, readOutput(this, itemIndex));
}

/**
 * Articles: done at is_complete (cms or needs_editing), failed at failed. The queued list answers
 * for many at once and is sorted newest first by default (spec: created_at, desc).
 */
export const articleJob: GenerationJob = {
	noun: 'article',
	idField: 'article_id',
	idLabel: ARTICLE_ID,
	listEndpoint: '/articles',
	listStatus: 'queued',
	listOrdered: true,
	pendingStatuses: ARTICLE_LIFECYCLE.pending,
	async pollOne(connection, id, call) {
		const { data, status } = await readJob<ArticleStatusRecord>(
			connection,
			`/articles/${pathId(ARTICLE_ID, id)}/status`,
			call,
		);
		const progress = typeof data?.progress === 'number' ? data.progress : undefined;
		if (data?.is_complete === true || isArticleComplete(status)) {
			// The status route has no content: the output is the full article.
			const full = await fetchArticle(connection, id, call);
			return full.state === 'pending' ? { state: 'pending', status, progress } : full;
		}
		return observe(status, progress);
	},
	fetchOne: fetchArticle,
	shape: shapeArticle,
};
