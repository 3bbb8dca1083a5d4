import type { IDataObject } from 'n8n-workflow';

import { applyOutput, type Output } from '../../helpers/output';
import { pick } from '../../helpers/pick';
import { ARTICLE_LIST_FIELDS } from '../../../shared/domain/list-fields';

/** Every field of a full article: the choices of Output > Selected Fields (spec 2.2). */
export const ARTICLE_FIELDS = [
	'id',
	'title',
	'slug',
	'status',
	'meta_description',
	'content',
	'project_id',
	'created_at',
	'updated_at',
] as const;

/**
 * Simplified: an article read by id keeps its fields with the HTML body whole (the reason to read
 * one, and at most 10 fields); a list entry keeps the list's fields, so a list stays small.
 */
export function shapeArticleOutput(record: IDataObject, output: Output): IDataObject {
	return applyOutput(record, output, (full) => pick(full, ARTICLE_FIELDS));
}

export function shapeArticleListOutput(record: IDataObject, output: Output): IDataObject {
	return applyOutput(record, output, (entry) => pick(entry, ARTICLE_LIST_FIELDS));
}
