/* eslint-disable @n8n/community-nodes/no-restricted-globals -- dev-only benchmark: times with process.hrtime */
/**
 * Rows of `npm run bench` about throughput and per-item overhead: the node run through n8n's
 * engine against a raw axios loop doing the same requests.
 */
import type { Sandbox } from '../sandbox';
import { articlesUpTo, fmt, median, ms, raw, runNode, sandbox, type AddRow } from './kit';

async function rawAll(sb: Sandbox): Promise<number> {
	const client = raw(sb);
	let records = 0;
	for (let page = 1; ; page++) {
		const r = await client.get('/articles', { params: { page, limit: 100 } });
		records += r.data.data.length;
		if (!r.data.pagination.has_more) return records;
	}
}

/** `runs` timed runs of each path; their medians are compared. */
export async function throughputRows(row: AddRow, notes: string[], runs: number): Promise<void> {
	const sb = await sandbox(1000, 301);
	try {
		sb.control.advance(86_400_000);
		await articlesUpTo(sb, 10_000);
		// warm both paths (module loading, JIT) before timing
		for (let i = 0; i < 3; i++) {
			await runNode(sb, { resource: 'article', operation: 'getMany', returnAll: true });
			await rawAll(sb);
		}

		const nodeTimes: number[] = [];
		const rawTimes: number[] = [];
		for (let i = 0; i < runs; i++) {
			let t = process.hrtime.bigint();
			const items = await runNode(sb, {
				resource: 'article',
				operation: 'getMany',
				returnAll: true,
			});
			nodeTimes.push(ms(t));
			if (items.length !== 10_000) throw new Error('return-all lost records');
			t = process.hrtime.bigint();
			if ((await rawAll(sb)) !== 10_000) throw new Error('raw loop lost records');
			rawTimes.push(ms(t));
		}
		const nodeMs = median(nodeTimes);
		const rawMs = median(rawTimes);
		row(
			'throughput',
			'return all 10,000 articles: node in engine vs raw axios',
			`${Math.round(10_000 / (nodeMs / 1000))} rec/s (${Math.round(nodeMs)} ms)`,
			`${Math.round(10_000 / (rawMs / 1000))} rec/s (${Math.round(rawMs)} ms)`,
			fmt(rawMs / nodeMs),
			'>= 0.90',
		);

		const ids = (await raw(sb).get('/articles', { params: { limit: 100 } })).data.data.map(
			(a: { id: string }) => a.id,
		) as string[];
		const input = Array.from({ length: 1000 }, (_, i) => ({ id: ids[i % ids.length] }));
		const getParams = { resource: 'article', operation: 'get', articleId: '={{ $json.id }}' };
		const client = raw(sb);
		for (let i = 0; i < 2; i++) {
			await runNode(sb, getParams, input.slice(0, 200));
			for (const { id } of input.slice(0, 200)) await client.get(`/articles/${id}`);
		}
		const perNode: number[] = [];
		const perRaw: number[] = [];
		for (let i = 0; i < runs; i++) {
			let t = process.hrtime.bigint();
			const out = await runNode(sb, getParams, input);
			perNode.push(ms(t));
			if (out.length !== 1000) throw new Error('per-item run lost items');
			t = process.hrtime.bigint();
			for (const { id } of input) await client.get(`/articles/${id}`);
			perRaw.push(ms(t));
		}
		const n = median(perNode);
		const r = median(perRaw);
		row(
			'overhead',
			'1,000 items x article get: node in engine vs raw axios',
			`${fmt(n / 1000, 3)} ms/item (${Math.round(n)} ms)`,
			`${fmt(r / 1000, 3)} ms/item (${Math.round(r)} ms)`,
			fmt(n / r),
			'(time ratio; lower is better)',
		);
		notes.push(
			`per-item overhead of the node over a raw request: ${fmt((n - r) / 1000, 3)} ms per item.`,
		);
	} finally {
		await sb.close();
	}
}
