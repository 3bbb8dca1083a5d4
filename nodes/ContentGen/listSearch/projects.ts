import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import type { Project } from '../../shared/types';

const PAGE_SIZE = 100;

/** Projects by business name, a page of 100 at a time. */
export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken) >= 1 ? Math.floor(Number(paginationToken)) : 1;
	const qs: Record<string, string | number> = { page, limit: PAGE_SIZE };
	const search = filter?.trim();
	if (search) qs.search = search;
	const { data, pagination } = await apiRequest.call<
		ILoadOptionsFunctions,
		['GET', string, { qs: typeof qs }],
		Promise<{ data: Project[]; pagination?: { has_more?: boolean } }>
	>(this, 'GET', '/projects', { qs });
	const projects = Array.isArray(data) ? data : [];
	return {
		results: projects.map((project) => ({
			name: project.business_name || project.id,
			value: project.id,
		})),
		paginationToken: pagination?.has_more === true ? String(page + 1) : undefined,
	};
}
