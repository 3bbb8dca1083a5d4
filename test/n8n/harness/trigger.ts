// Counting what a trigger workflow emitted (its executions' trigger items) and what it cost (the
// sandbox's request log, grouped into polls).
import type { RequestLogEntry, Sandbox } from '../../../sandbox';
import type { N8nApi } from './api';

export interface Emissions {
	executions: number;
	failed: number;
	/** items carrying one of the watched record ids */
	hits: number;
	/** the same record and transition emitted more than once */
	duplicates: number;
	/** records of the items whose `eventId` an earlier item carried (what Remove Duplicates drops) */
	sameEventId: string[];
	/** watched records never emitted */
	missing: string[];
	executionIds: string[];
	/** oldest first: execution id, items it carried, and how many of them an earlier one carried */
	byExecution: Array<{ id: string; hits: number; repeated: number }>;
}

export async function emissions(
	api: N8nApi,
	workflowId: string,
	triggerName: string,
	ids: string[],
): Promise<Emissions> {
	const executionIds = await api.executionIds(workflowId);
	const records = await Promise.all(executionIds.map((id) => api.execution(id)));
	const items = records.flatMap((r) => r.nodes[triggerName] ?? []);
	const hits = items.filter((i) => ids.includes(String(i.id ?? i.article_id)));
	const transitions = hits.map((h) =>
		[h.id ?? h.article_id, h.event, h.previousStatus, h.status].join(' '),
	);
	const seen = new Set(hits.map((h) => String(h.id ?? h.article_id)));
	const eventIds = new Set<string>();
	const sameEventId = hits
		.filter((h) => eventIds.size === eventIds.add(String(h.eventId)).size)
		.map((h) => String(h.id ?? h.article_id));
	const earlier = new Set<string>();
	const byExecution = [...records].reverse().map((r) => {
		const carried = (r.nodes[triggerName] ?? [])
			.map((i) => String(i.id ?? i.article_id))
			.filter((id) => ids.includes(id));
		const repeated = carried.filter((id) => earlier.has(id)).length;
		carried.forEach((id) => earlier.add(id));
		return { id: r.id, hits: carried.length, repeated };
	});
	return {
		executions: records.length,
		failed: records.filter((r) => r.status !== 'success').length,
		hits: hits.length,
		duplicates: transitions.length - new Set(transitions).size,
		sameEventId,
		missing: ids.filter((id) => !seen.has(id)),
		executionIds,
		byExecution,
	};
}

/**
 * A user's requests since `since`, grouped into polls: requests less than `gapMs` apart belong to
 * the same poll (polls are 15 s apart, a poll's requests follow each other within milliseconds).
 */
export function polls(
	sandbox: Sandbox,
	userId: string,
	since: number,
	gapMs = 4000,
): RequestLogEntry[][] {
	const entries = sandbox.control
		.requests()
		.filter((r) => r.userId === userId && Date.parse(r.at) >= since)
		.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
	const groups: RequestLogEntry[][] = [];
	for (const entry of entries) {
		const last = groups[groups.length - 1];
		if (last && Date.parse(entry.at) - Date.parse(last[last.length - 1].at) < gapMs)
			last.push(entry);
		else groups.push([entry]);
	}
	return groups;
}

/**
 * n articles of a user complete (queued -> cms) and n social posts finish (generating ->
 * completed): what a trigger on Article Finished + Social Content Finished reports.
 */
export function finishRecords(
	sandbox: Sandbox,
	userId: string,
	n: number,
): { articles: string[]; social: string[] } {
	const { control } = sandbox;
	const articles = control.seedArticles(n, { userId, status: 'queued', spacingMs: 1 });
	const social = control.seedSocial(n, {
		userId,
		status: 'generating',
		platforms: ['linkedin'],
		spacingMs: 1,
	});
	for (const id of articles) control.setArticleStatus(id, 'cms');
	for (const id of social) control.setSocialStatus(id, 'completed');
	return { articles, social };
}
