/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals -- dev-only benchmark: times with process.hrtime, prints rows run alone */
/**
 * What the rows of `npm run bench` share: a sandbox without limits in the way, the node run
 * through n8n's engine against it, and the arithmetic of timings.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SocialListOrder } from '../sandbox';
import { runWorkflow, singleNodeWorkflow } from '../harness/engine';

/** Adds a table row: section, benchmark, measured, minimum or reference, ratio, target. */
export type AddRow = (
	section: string,
	name: string,
	measured: string,
	reference: string,
	ratio: string,
	target: string,
) => void;

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function ms(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

export const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** A fresh sandbox without request or credit limits getting in the way of measuring. */
export async function sandbox(
	speed: number,
	seed: number,
	socialListOrder?: SocialListOrder,
): Promise<Sandbox> {
	const sb = await startSandbox({ speed, seed, quiet: true, socialListOrder });
	sb.control.setRateLimit({ perMinute: 1_000_000_000, perDay: -1 });
	sb.control.setCredits({ subscription: 100_000, purchased: 0 });
	return sb;
}

export function raw(sb: Sandbox) {
	return axios.create({
		baseURL: `${sb.url}/api/v1`,
		headers: { Authorization: `Bearer ${sb.apiKey}` },
	});
}

export function credentials(sb: Sandbox) {
	return { apiKey: sb.apiKey, baseUrl: sb.url };
}

/** The count a list reports (the sandbox's own records included). */
export async function listTotal(sb: Sandbox, path = '/articles'): Promise<number> {
	const r = await raw(sb).get(path, { params: { limit: 1 } });
	return r.data.pagination.total as number;
}

/** Requests to read the whole social list once, at its current size. */
export const wholeSocialList = async (sb: Sandbox) =>
	Math.ceil((await listTotal(sb, '/social/content')) / 100);

/** Seeds the default user's articles up to exactly `n`. */
export async function articlesUpTo(sb: Sandbox, n: number): Promise<void> {
	const have = await listTotal(sb);
	if (have < n) sb.control.seedArticles(n - have);
	const now = await listTotal(sb);
	if (now !== n) throw new Error(`expected ${n} articles, the sandbox has ${now}`);
}

export async function runNode(sb: Sandbox, parameters: IDataObject, input?: IDataObject[]) {
	const result = await runWorkflow(singleNodeWorkflow(parameters), {
		credentials: credentials(sb),
		input,
	});
	if (result.error)
		throw new Error(`workflow failed: ${result.error.message} (${result.error.description ?? ''})`);
	return result.output('ContentGen');
}

export function requestRow(
	row: AddRow,
	name: string,
	used: number,
	min: number,
	minLabel = String(min),
) {
	row('requests', name, String(used), minLabel, fmt(used / min), '1.00');
}

/** Prints the rows of one bench module run on its own (`npx tsx bench/<module>.ts`), then exits. */
export function printAlone(rows: (row: AddRow, notes: string[]) => Promise<void>): void {
	const notes: string[] = [];
	rows((...cells) => console.log(`| ${cells.join(' | ')} |`), notes).then(
		() => {
			for (const note of notes) console.log(`- ${note}`);
			process.exit(0);
		},
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
}
