/**
 * Publish > Next Free Slot under contention, on services that keep the spec in different ways:
 * 10 executions of 5 posts at once on one account with 250 posts already scheduled, the social
 * list newest first or reshuffled on every request, stamps in milliseconds or whole seconds. Per
 * case: executions failed, posts over Posts per Slot whose item does not say so, moves (publishes
 * past the first of each post), of them those into the slot the post was in already, requests. Figures, not thresholds:
 * `npx tsx bench/queue-crowd.ts [seeds, default 3]` prints one row per case, summed over the seeds.
 */
/* eslint-disable @n8n/community-nodes/no-restricted-globals -- dev-only benchmark: reads argv */
import './resolve';
import './env';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../sandbox';
import type { SocialListOrder } from '../sandbox/types';
import { runWorkflow, singleNodeWorkflow } from '../harness/engine';
import { credentials, printAlone, type AddRow } from './kit';
import { queueParameters } from './queue';

const DAY = 86_400_000;
const PLATFORMS = ['linkedin', 'twitter'];

const queue = queueParameters(120);

interface Figures {
	failed: number;
	unreported: number;
	moves: number;
	same: number;
	requests: number;
}

async function get(sb: Sandbox, id: string): Promise<Record<string, string>> {
	const answer = await fetch(`${sb.url}/api/v1/social/content/${id}`, {
		headers: { authorization: `Bearer ${sb.apiKey}` },
	});
	return ((await answer.json()) as { data: Record<string, string> }).data;
}

async function crowd(order: SocialListOrder, stamps: 'ms' | 's', seed: number): Promise<Figures> {
	const sb = await startSandbox({
		seed,
		speed: 1000,
		quiet: true,
		socialListOrder: order,
		stamps,
		latencyMs: 15,
		jitterMs: 10,
	});
	try {
		sb.control.setRateLimit({ perMinute: 1_000_000_000, perDay: -1 });
		const today = Math.floor(sb.control.now().getTime() / DAY) * DAY;
		const others = sb.control.seedSocial(250, {
			status: 'scheduled',
			platforms: PLATFORMS,
			scheduledAt: (i) =>
				i < 60
					? today + (1 + Math.floor(i / 3)) * DAY + [9, 13, 18][i % 3] * 3_600_000
					: today + (21 + i) * DAY + 10.5 * 3_600_000,
		});
		const inputs = Array.from({ length: 10 }, () =>
			sb.control.seedSocial(5, { status: 'completed', platforms: PLATFORMS }).map((id) => ({ id })),
		);
		sb.control.resetRequests();
		const runs = await Promise.all(
			inputs.map(
				async (input) =>
					await runWorkflow(singleNodeWorkflow(queue), { credentials: credentials(sb), input }),
			),
		);
		const requests = sb.control.requests().length;
		const publishes = sb.control.requests().filter((r) => r.path === '/api/v1/social/publish');
		const firstPublishes = new Set(publishes.map((r) => (r.body as IDataObject).content_id)).size;
		const last = new Map<unknown, unknown>();
		let same = 0;
		for (const { body } of publishes) {
			const { content_id: id, scheduled_at: at } = body as IDataObject;
			if (last.get(id) === at) same++;
			last.set(id, at);
		}
		const reported = new Set(
			runs
				.filter((r) => !r.error)
				.flatMap((r) => r.output('ContentGen'))
				.filter((i) => i.json.slot_check === 'conflict')
				.map((i) => String(i.json.content_id)),
		);
		// Every scheduled post as the service holds it, each slot's in the service's order.
		const slots = new Map<string, Array<{ id: string; updated: string }>>();
		const ids = [...others, ...inputs.flat().map((i) => i.id)];
		for (const id of ids) {
			const record = await get(sb, id);
			if (record.status !== 'scheduled') continue;
			const key = String(Math.floor(Date.parse(record.scheduled_publish_at) / 60_000));
			slots.set(key, [...(slots.get(key) ?? []), { id, updated: record.updated_at }]);
		}
		let unreported = 0;
		for (const posts of slots.values()) {
			posts.sort((a, b) => Date.parse(a.updated) - Date.parse(b.updated) || (a.id < b.id ? -1 : 1));
			unreported += posts.slice(1).filter((post) => !reported.has(post.id)).length;
		}
		return {
			failed: runs.filter((r) => r.error).length,
			unreported,
			moves: publishes.length - firstPublishes,
			same,
			requests,
		};
	} finally {
		await sb.close();
	}
}

export async function crowdRows(row: AddRow, notes: string[]): Promise<void> {
	const seeds = Number(process.argv[2] ?? 3);
	row(
		'list',
		'stamps',
		'executions failed',
		'posts over the limit unreported',
		'moves (into the same slot)',
		'requests',
	);
	row('---', '---', '---', '---', '---', '---');
	for (const order of ['created_desc', 'shuffled'] as const) {
		for (const stamps of ['ms', 's'] as const) {
			const sum: Figures = { failed: 0, unreported: 0, moves: 0, same: 0, requests: 0 };
			for (let seed = 1; seed <= seeds; seed++) {
				const figures = await crowd(order, stamps, 430 + seed);
				for (const key of Object.keys(sum) as Array<keyof Figures>) sum[key] += figures[key];
			}
			row(
				order === 'shuffled' ? 'reshuffled' : 'newest first',
				stamps,
				`${sum.failed} of ${10 * seeds}`,
				`${sum.unreported}`,
				`${sum.moves} (${sum.same})`,
				`${sum.requests}`,
			);
		}
	}
	notes.push(
		`10 executions x 5 posts at once, 250 already scheduled, over ${seeds} seeds (431-${430 + seeds}), figures summed.`,
	);
}

if (require.main === module) printAlone(crowdRows);
