import type { IDataObject } from 'n8n-workflow';

import { applyOutput, type Output } from '../../helpers/output';
import { pick } from '../../helpers/pick';
import { ARTICLE_LIST_FIELDS } from '../../../shared/domain/list-fields';

const SIMPLE_FIELDS = ARTICLE_LIST_FIELDS;

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

const CONTENT_TEXT_LENGTH = 500;

const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
};

/** Readable text of rendered HTML, cut at a word boundary. */
function htmlToText(html: string): string {
	const text = html
		.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
			if (code[0] === '#') {
				const point =
					code[1] === 'x' || code[1] === 'X'
						? parseInt(code.slice(2), 16)
						: parseInt(code.slice(1), 10);
				return Number.isFinite(point) && point > 0 && point <= 0x10ffff
					? String.fromCodePoint(point)
					: ' ';
			}
			return ENTITIES[code.toLowerCase()] ?? entity;
		})
		.replace(/\s+/g, ' ')
		.trim();
	const chars = Array.from(text);
	if (chars.length <= CONTENT_TEXT_LENGTH) return text;
	const cut = chars.slice(0, CONTENT_TEXT_LENGTH).join('');
	const lastSpace = cut.lastIndexOf(' ');
	return `${(lastSpace > CONTENT_TEXT_LENGTH * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** Simplified: the HTML body becomes a short text. */
function simplifyArticle(record: IDataObject): IDataObject {
	const out = pick(record, SIMPLE_FIELDS);
	if (typeof record.content === 'string') out.content_text = htmlToText(record.content);
	return out;
}

/** A single article or a list entry, as the item's Output asks. */
export function shapeArticleOutput(record: IDataObject, output: Output): IDataObject {
	return applyOutput(record, output, simplifyArticle);
}
