import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { ARTICLE_LIFECYCLE, isArticleComplete } from '../../../shared/domain/statuses';
import type { CallOptions, Connection } from '../../../shared/transport/request';
import type { Article, ArticleStatusRecord } from '../../../shared/types';
import { pathId } from '../../../shared/validation';
import { runWait } from '../../helpers/generation';
import { readRecordId, readSwitch, readWaitSettings } from '../../helpers/parameters';
import {
	optionsCollection,
	RECORD_IDS,
	recordIdProperty,
	simplifyProperty,
	waitOptions,
} from '../../helpers/properties';
import type { OperationModule } from '../../helpers/types';
import type { GenerationJob, Observation } from '../../helpers/wait';
import { readJob } from '../../helpers/wait';
import { shapeArticleOutput } from './output';

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

/** Articles: done at is_complete (cms or needs_editing), failed at failed; the queued list answers for many. */
export const articleJob: GenerationJob = {
	noun: 'article',
	idField: 'article_id',
	idLabel: ARTICLE_ID,
	listEndpoint: '/articles',
	listStatus: 'queued',
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
};

export async function shapeArticle(
	this: IExecuteFunctions,
	record: IDataObject,
	itemIndex: number,
) {
	return shapeArticleOutput(record, readSwitch(this, 'simplify', itemIndex));
}

export const option: OperationModule['option'] = {
	name: 'Wait for Completion',
	action: 'Wait for an article to finish generating',
	description:
		'Poll an article until its generation finishes or fails (every 15 s, bounded). Free: polling costs no credits.',
};

export const properties: INodeProperties[] = [
	recordIdProperty(
		'article',
		'ID (UUID) of the article to wait for, e.g. the article_id a Generate returned',
	),
	simplifyProperty(),
	optionsCollection(waitOptions('article', false)),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runWait.call(this, items, {
		job: articleJob,
		prepare(itemIndex) {
			return {
				itemIndex,
				id: readRecordId(this, 'article', itemIndex),
				settings: readWaitSettings(this, itemIndex, 'article'),
			};
		},
		shape: shapeArticle,
	});
}
