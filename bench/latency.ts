/**
 * Rows of `npm run bench` across a network: every answer of the sandbox 150 ms late, each batch
 * against its physical floor, the least time the key's budget and the network allow whatever the
 * client: the longer of the plan's rate floor (requests past what the window has left wait for the
 * next) and one latency per as many requests as the budget lets fly at once (a fresh key: its
 * whole minute). On a Free key (100 requests a minute) and an Enterprise key (10,000), each row on
 * a fresh key, so its budget is its own; then 200 Gets on a Free key another client has left 30
 * in its window. Rows needing several windows run at a tenth of the time (6 s windows, 15 ms
 * latency) and are reported scaled back; their ratio is the same at any scale. `npx tsx
 * bench/latency.ts` prints them alone.
 */
import './resolve';
import './env';

import { sleep, type IDataObject } from 'n8n-workflow';

import { PLAN_LIMITS } from '../sandbox/constants';
import { startSandbox, type Plan, type Sandbox } from '../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../harness/engine';
import { fmt, listTotal, printAlone, type AddRow } from './kit';

const LATENCY_MS = 150;
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
 * The least time `requests` can take from the first one sent at `firstAt` when the window has
 * `left` of its budget: one latency per `left` requests in flight at once, or, past what the
 * window has left, until the last window needed opens plus one latency.
 */
function floorMs(
	plan: Plan,
	scale: Scale,
	requests: number,
	firstAt: number,
	left = PLAN_LIMITS[plan].perMinute,
): number {
	const latency = scale.latencyMs * Math.ceil(requests / left);
	if (requests <= left) return latency;
	const windows = 1 + Math.ceil((requests - left) / PLAN_LIMITS[plan].perMinute);
	const opens = (Math.floor(firstAt / scale.windowMs) + windows - 1) * scale.windowMs;
	return Math.max(latency, opens - firstAt + scale.latencyMs);
}

/**
 * One batch through n8n's engine on a fresh key of `sb`; `spent` requests of the key's window are
 * spent by another client first.
 */
async function batch(
	sb: Sandbox,
	parameters: IDataObject,
	input: IDataObject[],
	spent?: { count: number; windowMs: number },
): Promise<{
	ms: number;
	requests: number;
	limited: number;
	items: number;
	firstAt: number;
	error?: string;
}> {
	const apiKey = sb.control.createKey({ name: 'latency bench' });
	if (spent) await spend(sb, apiKey, spent.count, spent.windowMs);
	sb.control.resetRequests();
	const started = performance.now();
	const result = await runWorkflow(singleNodeWorkflow(parameters), {
		credentials: { apiKey, baseUrl: sb.url },
		input,
	});
	const ms = performance.now() - started;
	const log = sb.control.requests();
	return {
		ms,
		requests: log.length,
		limited: log.filter((r) => r.status === 429).length,
		items: result.error ? 0 : result.output('ContentGen').length,
		firstAt: log.length > 0 ? Date.parse(log[0].at) : Date.now(),
		error: result.error?.message,
	};
}

/** Another client of the key spends `count` requests early in a window. */
async function spend(sb: Sandbox, apiKey: string, count: number, windowMs: number): Promise<void> {
	await sleep(windowMs - (Date.now() % windowMs) + 20);
	const answers = await Promise.all(
		Array.from({ length: count }, async () => {
			const answer = await fetch(`${sb.url}/api/v1/user/credits`, {
				headers: { Authorization: `Bearer ${apiKey}` },
			});
			return answer.status;
		}),
	);
	if (answers.some((status) => status !== 200)) throw new Error('latency bench: the spend failed');
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
	left = PLAN_LIMITS[plan].perMinute,
) {
	if (r.error) throw new Error(`latency bench: ${item.name}: ${r.error}`);
	if (r.items !== item.items) throw new Error(`${item.name}: ${r.items} of ${item.items} items`);
	const floor = floorMs(plan, scale, r.requests, r.firstAt, left);
	const scaled = scale.factor === 1 ? '' : ` (run at 1/${scale.factor}: ${seconds(r.ms)})`;
	const { perMinute } = PLAN_LIMITS[plan];
	const windows = r.requests <= left ? 1 : 1 + Math.ceil((r.requests - left) / perMinute);
	const why =
		windows > 1
			? `${windows} windows: ${left} left, then ${perMinute} each`
			: `${LATENCY_MS} ms: all ${count(r.requests)} at once, within the ${count(left)} left`;
	row(
		'latency',
		`${item.name}, ${plan} key${left < perMinute ? ` with ${left} left in its window` : ''}, ${LATENCY_MS} ms latency`,
		`${seconds(r.ms * scale.factor)}${scaled}; ${count(r.requests)} requests, ${r.limited} x 429`,
		`${floor * scale.factor < 1000 ? `${Math.round(floor * scale.factor)} ms` : seconds(floor * scale.factor)} (${why})`,
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
		// Another client of the key has spent 70 of its 100: no 429 may reach the user, no item be lost.
		const some = {
			...gets,
			name: '200 x article get',
			input: gets.input.slice(0, 200),
			items: 200,
		};
		const r = await batch(tenth, some.parameters, some.input, {
			count: 70,
			windowMs: TENTH.windowMs,
		});
		row(
			'latency',
			'200 x article get, Free key with 30 left in its window: what the user sees',
			`${r.error ? `the error "${r.error}"` : 'no error'}, ${200 - r.items} of 200 items lost`,
			'no error, 0 items lost',
			'',
			'',
		);
		report(row, 'Free', TENTH, some, r, 30);
	} finally {
		await tenth.close();
	}
	notes.push(
		`latency rows: every answer ${LATENCY_MS} ms late (sandbox \`--latency\`), the node at its defaults, each row on a fresh key of its plan (one row: a Free key another client has left 30 of its 100); the floor is physical, whatever the client: one latency for all the requests the window has left at once, or the wait for the last rate window the requests need; above it, the first answer telling the budget (one latency before more than ten go; Return All reads its first two pages in order, two) and the engine's own time per item. Rows needing several windows ran at 1/10 of the time (6 s windows, 15 ms latency), shown scaled back.`,
	);
}

if (require.main === module) printAlone(latencyRows);
