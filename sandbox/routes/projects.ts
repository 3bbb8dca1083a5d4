import type { Ctx, Reply } from '../http';
import { isUuid, notFound, ok, pageParams, paged } from '../http';
import { projectFull, projectListItem } from '../render';

export function listProjects(ctx: Ctx): Reply {
	const { page, limit } = pageParams(ctx.query);
	const status = ctx.query.status;
	const search = (ctx.query.search ?? '').toLowerCase();
	const items = ctx.store
		.projectsOf(ctx.user.id)
		.filter(
			(p) =>
				(status === undefined || status === '' || p.status === status) &&
				(search === '' || p.business_name.toLowerCase().includes(search)),
		)
		.sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1));
	return paged(items, page, limit, projectListItem);
}

export function getProject(ctx: Ctx): Reply {
	const id = ctx.params[0];
	const p = isUuid(id) ? ctx.store.ownedProject(ctx.user.id, id) : undefined;
	if (!p) throw notFound('Project');
	return ok(projectFull(p));
}
