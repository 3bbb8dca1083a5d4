import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyMode,
} from 'n8n-workflow';

import { PAGE_SIZE_MAX, UUID_EXAMPLE, UUID_PARAMETER_REGEX, UUID_SOURCE } from '../constants';
import { connect, request } from '../transport/request';
import { assertUuid, describe, ValidationError } from '../validation';

/**
 * The article and social content pickers: From list (searchable, a page at a time), By URL (the
 * poll URL a Generate returned, or any address holding the record's path) and By ID.
 */
export type RecordKind = 'article' | 'socialContent';

interface RecordSpec {
	displayName: string;
	name: string;
	/** Path segment before the id in the record's address. */
	path: string;
	endpoint: string;
	searchListMethod: string;
	noun: string;
}

export const RECORDS: Record<RecordKind, RecordSpec> = {
	article: {
		displayName: 'Article ID',
		name: 'articleId',
		path: 'articles',
		endpoint: '/articles',
		searchListMethod: 'searchArticles',
		noun: 'article',
	},
	socialContent: {
		displayName: 'Content ID',
		name: 'contentId',
		path: 'social/content',
		endpoint: '/social/content',
		searchListMethod: 'searchSocialContent',
		noun: 'social content',
	},
};

const escaped = (path: string) => path.replace(/\//g, '\\/');

/** The URL mode's pattern: the record's path then its id, anywhere in the address. */
export function urlPattern(kind: RecordKind): string {
	return `\\/${escaped(RECORDS[kind].path)}\\/(${UUID_SOURCE})`;
}

/** The locator shape of a record id parameter. */
export function recordLocator(
	kind: RecordKind,
): Pick<INodeProperties, 'type' | 'default' | 'modes'> {
	const { path, searchListMethod, noun } = RECORDS[kind];
	return {
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select ${noun === 'article' ? 'an article' : noun}…`,
				typeOptions: { searchListMethod, searchable: true },
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. https://api.example.com/api/v1/${path}/${UUID_EXAMPLE}`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: `.*${urlPattern(kind)}.*`,
							errorMessage: `Not a URL containing /${path}/ and the ${noun}'s ID`,
						},
					},
				],
				extractValue: { type: 'regex', regex: urlPattern(kind) },
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${UUID_EXAMPLE}`,
				validation: uuidValidation(noun),
			},
		],
	};
}

/** A picker's By ID check: a UUID, refused as it is typed otherwise. */
export function uuidValidation(noun: string): INodePropertyMode['validation'] {
	const errorMessage = `Not a valid ${noun} ID (a UUID)`;
	return [{ type: 'regex', properties: { regex: UUID_PARAMETER_REGEX, errorMessage } }];
}

/**
 * The record id a parameter holds: a plain string (an expression, an AI
 * agent) or a locator value, whose URL mode carries the id inside an address.
 */
export function readRecordLocator(kind: RecordKind, raw: unknown): string {
	const { displayName, path, noun } = RECORDS[kind];
	if (typeof raw !== 'object' || raw === null || !('value' in raw)) {
		return assertUuid(displayName, raw);
	}
	const { mode, value } = raw as { mode?: unknown; value: unknown };
	if (mode !== 'url') return assertUuid(displayName, value);
	const match = typeof value === 'string' ? new RegExp(urlPattern(kind)).exec(value) : null;
	if (!match) {
		throw new ValidationError(
			displayName,
			`'${displayName}' holds no ${noun} ID in its URL, got ${describe(value)}: the address must contain /${path}/ followed by the ID`,
		);
	}
	return assertUuid(displayName, match[1]);
}

/** Status words a user sees in the lists, as the service's own screens name them. */
const STATUS_LABELS: Record<string, string> = {
	archived: 'Archived',
	cms: 'CMS',
	completed: 'Completed',
	draft: 'Draft',
	failed: 'Failed',
	generating: 'Generating',
	needs_editing: 'Needs Editing',
	published: 'Published',
	queued: 'Queued',
	ready: 'Ready',
	scheduled: 'Scheduled',
};

function listEntry(record: IDataObject): INodeListSearchItems {
	const id = String(record.id);
	const title = typeof record.title === 'string' && record.title.trim() ? record.title : id;
	const status = typeof record.status === 'string' ? record.status : '';
	const label = STATUS_LABELS[status] ?? status;
	return { name: label ? `${title} (${label})` : title, value: id };
}

function pageOf(token: string | undefined): number {
	const page = Number(token);
	return Number.isFinite(page) && page >= 1 ? Math.floor(page) : 1;
}

/** A page of a list the service searches itself (`search`), 100 a page, for a picker. */
export async function searchList(
	context: ILoadOptionsFunctions,
	endpoint: string,
	filter: string | undefined,
	token: string | undefined,
	entry: (record: IDataObject) => INodeListSearchItems,
): Promise<INodeListSearchResult> {
	const page = pageOf(token);
	const qs: IDataObject = { page, limit: PAGE_SIZE_MAX };
	if (filter?.trim()) qs.search = filter.trim();
	const { data, pagination } = await request<IDataObject[]>(
		await connect(context),
		'GET',
		endpoint,
		{
			qs,
		},
	);
	return {
		results: (Array.isArray(data) ? data : []).map(entry),
		paginationToken: pagination?.has_more === true ? String(page + 1) : undefined,
	};
}

/** listSearch of Article ID: by title on the service (its search), newest first. */
export async function searchArticles(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(this, RECORDS.article.endpoint, filter, paginationToken, listEntry);
}

/**
 * Pages one search of Content ID reads at most: the service's social list has no search, so the
 * title is matched here, page by page, until a page matches or this many were read (the next
 * token goes on from there). Without search text each call reads one page.
 */
export const SOCIAL_SEARCH_PAGES = 3;

/** listSearch of Content ID: newest first, 100 per page, search text matched on the title. */
export async function searchSocialContent(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const search = filter?.trim().toLowerCase() ?? '';
	let page = pageOf(paginationToken);
	const results: INodeListSearchItems[] = [];
	const connection = await connect(this);
	for (let read = 0; read < SOCIAL_SEARCH_PAGES; read++) {
		const qs: IDataObject = { page, limit: PAGE_SIZE_MAX };
		const { data, pagination } = await request<IDataObject[]>(
			connection,
			'GET',
			RECORDS.socialContent.endpoint,
			{ qs },
		);
		for (const record of Array.isArray(data) ? data : []) {
			const title = typeof record.title === 'string' ? record.title.toLowerCase() : '';
			if (!search || title.includes(search) || String(record.id) === search)
				results.push(listEntry(record));
		}
		if (pagination?.has_more !== true) return { results };
		page += 1;
		if (!search || results.length > 0) break;
	}
	return { results, paginationToken: String(page) };
}
