/**
 * Rows of `npm run bench` about generate + wait: requests against their minimum and wall time
 * against the slowest generation, for one item, for 50 together, and for 10 on accounts that
 * have 0, 1,200 or 5,000 other articles queued. `npx tsx bench/waits.ts` prints them alone.
 */
import './resolve';
import './env';

import { startSandbox, type Sandbox } from '../sandbox';
import { fmt, printAlone, runNode, type AddRow } from './kit';

interface GenerationMeasure {
	posts: number;
	lists: number;
	statusPolls: number;
	gets: number;
	total: number;
	rounds: number;
	wallMs: number;
	slowestMs: number;
}

/** Other articles of the account on a "busy" run; only how many of them are queued varies. */
const OTHER_ARTICLES = 5000;

/** A sandbox without request or credit limits, holding `others` other articles when given. */
async function account(speed: number, seed: number, others?: { queued: number }) {
	const sb = await startSandbox({ speed, seed, quiet: true });
	sb.control.setRateLimit({ perMinute: 1_000_000_000, perDay: -1 });
	sb.control.setCredits({ subscription: 100_000, purchased: 0 });
	sb.control.advance(86_400_000); // the seeded in-flight article must not share the queued list
	if (others) {
		// The same records on every such account keep the generation durations identical.
		sb.control.seedArticles(OTHER_ARTICLES - others.queued, { status: 'cms' });
		sb.control.seedArticles(others.queued, { status: 'queued' });
	}
	return sb;
}

async function generateAndWait(sb: Sandbox, items: number) {
	return await runNode(
		sb,
		{
			resource: 'article',
			operation: 'generate',
			topic: '={{ $json.topic }}',
			projectId: { __rl: true, mode: 'id', value: sb.control.projects()[0].id },
			waitForCompletion: true,
			options: { pollInterval: 1, timeout: 600 },
		},
		Array.from({ length: items }, (_, i) => ({ topic: `Benchmark article number ${i + 1}` })),
	);
}

async function generation(
	items: number,
	speed: number,
	seed: number,
	others?: { queued: number },
): Promise<GenerationMeasure> {
	const sb = await account(speed, seed, others);
	try {
		sb.control.resetRequests();
		const started = sb.control.now().getTime();
		const output = await generateAndWait(sb, items);
		const wallMs = sb.control.now().getTime() - started;
		const finished = output.filter((i) => ['cms', 'needs_editing'].includes(String(i.json.status)));
		if (finished.length !== items)
			throw new Error(`${finished.length} of ${items} articles finished`);

		const log = sb.control.requests().filter((e) => e.path.startsWith('/api/v1/'));
		let lastPost = 0;
		for (const e of log) if (e.method === 'POST') lastPost = Math.max(lastPost, Date.parse(e.at));
		// generation time of each article on the sandbox clock: created_at to its final updated_at
		let slowestMs = 0;
		let lastEnd = 0;
		for (const item of finished) {
			const created = Date.parse(String(item.json.created_at));
			const ended = Date.parse(String(item.json.updated_at));
			slowestMs = Math.max(slowestMs, ended - created);
			lastEnd = Math.max(lastEnd, ended);
		}
		const count = (method: string, path: RegExp) =>
			log.filter((e) => e.method === method && path.test(e.path)).length;
		return {
			posts: count('POST', /./),
			lists: count('GET', /^\/api\/v1\/articles$/),
			statusPolls: count('GET', /\/status$/),
			gets: count('GET', /^\/api\/v1\/articles\/[0-9a-f-]{36}$/),
			total: log.length,
			// polling at the 1 s cadence after the last submission, the last completion is seen at round:
			rounds: Math.max(1, Math.ceil((lastEnd - lastPost) / 1000)),
			wallMs,
			slowestMs,
		};
	} finally {
		await sb.close();
	}
}

/** Requests against the minimum: every POST, one look per round, one GET per finished article. */
function requestRow(row: AddRow, name: string, m: GenerationMeasure, items: number) {
	const min = items + m.rounds + items;
	const look = items === 1 ? 'status' : 'list';
	const reference = `${min} (${items} POST + ${m.rounds} ${look} + ${items} GET)`;
	row('requests', name, String(m.total), reference, fmt(m.total / min), '1.00');
}

function wallRow(row: AddRow, name: string, m: GenerationMeasure, target: string) {
	const ratio = fmt(m.wallMs / m.slowestMs);
	row(
		'wall time',
		name,
		`${fmt(m.wallMs / 1000, 1)} s`,
		`${fmt(m.slowestMs / 1000, 1)} s slowest`,
		ratio,
		target,
	);
}

export async function waitRows(row: AddRow, notes: string[]): Promise<void> {
	// speed 30: an article takes 2-4 s, polled every second
	const one = await generation(1, 30, 201);
	requestRow(row, 'article generate + wait, 1 item', one, 1);
	notes.push(
		`generate + wait, 1 item: ${one.posts} POST, ${one.statusPolls} status polls, ${one.gets} GET of the finished article.`,
	);

	// speed 6: articles take 10-20 s, so a 1 s poll cadence is fine-grained next to them
	const many = await generation(50, 6, 202);
	requestRow(row, 'article generate + wait, 50 items together', many, 50);
	notes.push(
		`generate + wait, 50 items: ${many.posts} POST, ${many.lists} list reads of the queued articles, ${many.statusPolls} status polls, ${many.gets} GET of finished articles.`,
	);
	wallRow(row, '50 articles generated + waited, one execution', many, '<= 1.10');

	// The same 10 generations beside 5,000 other articles, of which 0, 1,200 or 5,000 are queued.
	const lists: string[] = [];
	for (const queued of [0, 1200, 5000]) {
		const m = await generation(10, 12, 203, { queued });
		const account =
			queued === 0 ? 'quiet account' : `${queued.toLocaleString('en')} other articles queued`;
		requestRow(row, `article generate + wait, 10 items, ${account}`, m, 10);
		wallRow(row, `10 articles generated + waited, ${account}`, m, '<= 1.10');
		lists.push(`${m.lists} with ${queued.toLocaleString('en')} queued`);
	}
	notes.push(
		`generate + wait, 10 items beside 5,000 other articles: list reads of the queued articles ${lists.join(', ')}.`,
	);
}

if (require.main === module) printAlone(waitRows);
