/**
 * Rows of `npm run bench` across a network: every answer of the sandbox 150 ms late, each batch
 * against its floor, the most time its plan and the network allow it to need: the longer of the
 * plan's rate floor (requests past one window wait for the next) and one latency per Parallel
 * Requests requests. On a Free key (100 requests a minute) and an Enterprise key (10,000), each row
 * on a fresh key, so its budget is its own. 1,000 Gets on Free need 10 windows, so that row runs at
 * a tenth of the time (6 s windows, 15 ms latency) and is reported scaled back; its ratio is the
 * same at any scale. `npx tsx bench/latency.ts` prints them alone.
 */
import './resolve';
import './env';

import type { IDataObject } from 'n8n-workflow';

import { PARALLEL_REQUESTS } from '../nodes/shared/constants';
import { PLAN_LIMITS } from '../sandbox/constants';
import { startSandbox, type Plan, type Sandbox } from '../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../harness/engine';
import { fmt, listTotal, printAlone, type AddRow } from './kit';

const LATENCY_MS = 150;
const PARALLEL: number = PARALLEL_REQUESTS.default;
const WINDOW_MS = 60_000;
const count = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${fmt(ms / 1000, 1)} s`;

interface Scale {
	/** Real time is this many times the run's. */
	factor: number;
	windowMs: number;
	latencyMs: number;
}

const REAL: Scale = { factor: 1, windowMs: WINDOW_MS, latencyMs: LATENCY_MS };
const TENTH: Scale = { factor: 10, windowMs: WINDOW_MS / 10, latencyMs: LATENCY_MS / 10 };

async function plannedSandbox(plan: Plan, scale: Scale, seed: number): Promise<Sandbox> {
	const sb = await startSandbox({
		seed,
		plan,
		speed: 1000,
		quiet: true,
		latencyMs: scale.latencyMs,
		rateWindowMs: scale.windowMs,
	});
	sb.control.setCredits({ subscription: 100_000, purchased: 0 });
	return sb;
}

/**
 * The least time `requests` can take from the first one sent at `firstAt`: one latency per round
 * of PARALLEL requests (a round that is not full still takes a whole latency), or, past one window's budget, until the last window needed opens plus one
 * latency.
 */
function floorMs(plan: Plan, scale: Scale, requests: number, firstAt: number): number {
	const latency = scale.latencyMs * Math.ceil(requests / PARALLEL);
	const windows = Math.ceil(requests / PLAN_LIMITS[plan].perMinute);
	if (windows <= 1) return latency;
	const opens = (Math.floor(firstAt / scale.windowMs) + windows - 1) * scale.windowMs;
	return Math.max(latency, opens - firstAt + scale.latencyMs);
}

/** One batch through n8n's engine on a fresh key of `sb`. */
async function batch(
	sb: Sandbox,
	parameters: IDataObject,
	input: IDataObject[],
): Promise<{ ms: number; requests: number; limited: number; items: number; firstAt: number }> {
	const apiKey = sb.control.createKey({ name: 'latency bench' });
	sb.control.resetRequests();
	const started = performance.now();
	const result = await runWorkflow(singleNodeWorkflow(parameters), {
		credentials: { apiKey, baseUrl: sb.url },
		input,
	});
	const ms = performance.now() - started;
	if (result.error) throw new Error(`latency bench: ${result.error.message}`);
	const log = sb.control.requests();
	return {
		ms,
		requests: log.length,
		limited: log.filter((r) => r.status === 429).length,
		items: result.output('ContentGen').length,
		firstAt: log.length > 0 ? Date.parse(log[0].at) : Date.now(),
	};
}

interface Case {
	name: string;
	parameters: IDataObject;
	input: IDataObject[];
	/** Output items a complete run gives. */
	items: number;
}

async function cases(sb: Sandbox): Promise<Case[]> {
	const articles = sb.control.seedArticles(1000, { status: 'cms' });
	const posts = sb.control.seedSocial(100, { status: 'completed' });
	const project = sb.control.projects()[0].id;
	// The seeded world has drafts of its own: the list is topped up to exactly 10,000.
	const drafts = await listTotal(sb, '/articles?status=draft');
	sb.control.seedArticles(10_000 - drafts, { status: 'draft' });
	return [
		{
			name: '1,000 x article get',
			parameters: { resource: 'article', operation: 'get', articleId: '={{ $json.id }}' },
			input: articles.map((id) => ({ id })),
			items: 1000,
		},
		{
			name: '100 x social publish',
			parameters: { resource: 'socialContent', operation: 'publish', contentId: '={{ $json.id }}' },
			input: posts.map((id) => ({ id })),
			items: 100,
		},
		{
			name: '50 x article generate (no wait)',
			parameters: {
				resource: 'article',
				operation: 'generate',
				topic: '={{ $json.topic }}',
				projectId: { __rl: true, mode: 'id', value: project },
			},
			input: Array.from({ length: 50 }, (_x, n) => ({ topic: `Latency bench article ${n + 1}` })),
			items: 50,
		},
		{
			name: 'Return All of 10,000 articles',
			parameters: {
				resource: 'article',
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'draft' },
			},
			input: [{}],
			items: 10_000,
		},
	];
}

function report(
	row: AddRow,
	plan: Plan,
	scale: Scale,
	item: Case,
	r: Awaited<ReturnType<typeof batch>>,
) {
	if (r.items !== item.items) throw new Error(`${item.name}: ${r.items} of ${item.items} items`);
	const floor = floorMs(plan, scale, r.requests, r.firstAt);
	const scaled = scale.factor === 1 ? '' : ` (run at 1/${scale.factor}: ${seconds(r.ms)})`;
	const rate = Math.ceil(r.requests / PLAN_LIMITS[plan].perMinute);
	row(
		'latency',
		`${item.name}, ${plan} key, ${LATENCY_MS} ms latency`,
		`${seconds(r.ms * scale.factor)}${scaled}; ${count(r.requests)} requests, ${r.limited} x 429`,
		`${seconds(floor * scale.factor)} (${rate > 1 ? `${rate} windows of ${PLAN_LIMITS[plan].perMinute}` : `${LATENCY_MS} ms x ${Math.ceil(r.requests / PARALLEL)} rounds of ${PARALLEL}`})`,
		fmt(r.ms / floor),
		'<= 1.50',
	);
}

export async function latencyRows(row: AddRow, notes: string[]): Promise<void> {
	for (const plan of ['Free', 'Enterprise'] as const) {
		const sb = await plannedSandbox(plan, REAL, plan === 'Free' ? 401 : 402);
		try {
			for (const item of await cases(sb)) {
				// 1,000 requests on Free take 10 minutes: that row runs at a tenth of the time below.
				if (plan === 'Free' && item.items === 1000) continue;
				report(row, plan, REAL, item, await batch(sb, item.parameters, item.input));
			}
		} finally {
			await sb.close();
		}
	}
	const tenth = await plannedSandbox('Free', TENTH, 403);
	try {
		const [gets] = await cases(tenth);
		report(row, 'Free', TENTH, gets, await batch(tenth, gets.parameters, gets.input));
	} finally {
		await tenth.close();
	}
	notes.push(
		`latency rows: every answer ${LATENCY_MS} ms late (sandbox \`--latency\`), Parallel Requests ${PARALLEL} (the default), each row on a fresh key of its plan; the floor is the longer of ${LATENCY_MS} ms per round of ${PARALLEL} requests and the wait for the last rate window the requests need; above it, the first request asks alone (one latency; Return All reads its first two pages in order, two) and the engine's own time per item. 1,000 Gets on Free ran at 1/10 of the time (6 s windows, 15 ms latency), shown scaled back.`,
	);
}

if (require.main === module) printAlone(latencyRows);
