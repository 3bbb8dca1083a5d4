/**
 * An account loaded as given, instead of the demo account: records with fixed ids and times, as
 * the API shows them, so that a caller (the compatibility corpus) knows every id and answer in
 * advance. The sandbox fills in what the API shows besides (slugs, captions, media), as it does
 * for its own records.
 */
import { DAY_MS } from './constants';
import { dayKey } from './clock';
import { newArticle, newProject, newSocial } from './seed';
import type { Store, User } from './store';
import type { AccountRecords } from './types';
import type { UsageBook } from './usage';

const ms = (at: string) => Date.parse(at);

export function loadAccount(
	store: Store,
	usage: UsageBook,
	user: User,
	account: AccountRecords,
	now: number,
): void {
	for (const p of account.projects) {
		const project = newProject(
			store,
			user.id,
			{
				name: p.business_name,
				website: p.business_website,
				language: p.business_language,
				code: p.language_code ?? 'en',
				location: p.location,
				expert: p.expert_in,
				status: p.status,
			},
			ms(p.created_at),
			p.id,
		);
		project.updatedAt = ms(p.updated_at);
	}
	const projectOf = (id: string) => {
		const project = store.ownedProject(user.id, id);
		if (!project) throw new Error(`account: no project ${id}`);
		return project;
	};
	for (const a of account.articles)
		store.addArticle(
			newArticle(store, {
				id: a.id,
				userId: user.id,
				project: projectOf(a.project_id),
				topic: a.title,
				status: a.status,
				createdAt: ms(a.created_at),
				updatedAt: ms(a.updated_at),
			}),
		);
	for (const s of account.social) {
		const record = newSocial(store, {
			id: s.id,
			userId: user.id,
			project: projectOf(s.project_id),
			articleId: s.article_id,
			title: s.title,
			sourceUrl: s.source_url ?? `${projectOf(s.project_id).business_website}/blog`,
			platforms: s.platforms,
			status: s.status,
			createdAt: ms(s.created_at),
			updatedAt: ms(s.updated_at),
		});
		if (s.scheduled_publish_at) record.scheduledPublishAt = ms(s.scheduled_publish_at);
		store.addSocial(record);
	}
	for (const row of account.usage ?? [])
		usage.add(user.id, dayKey(now - row.daysAgo * DAY_MS), row.endpoint, {
			requests: row.requests,
			totalMs: row.totalMs,
			errors: row.errors,
		});
}
