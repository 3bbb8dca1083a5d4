/**
 * An in-memory account for driving the tracker: articles and social records with the service's
 * list semantics (articles sorted by updated_at, social lists in a fresh random order per request).
 */
import type {
	ListResult,
	TrackedRecord,
	TrackerReply,
	TrackerRequest,
} from '../../nodes/ContentGenTrigger/tracker';
import { SOCIAL_STATUSES } from '../../sandbox/constants';

export const EPOCH = Date.UTC(2025, 0, 1);

export interface Row {
	id: string;
	status: string;
	created: number;
	updated: number;
}

/** The statuses the list filter accepts (the spec's eight), from the sandbox's independent copy. */
export const SOCIAL_FILTERABLE: readonly string[] = SOCIAL_STATUSES;

/** Small deterministic PRNG (mulberry32) so a failing history replays exactly. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function uuidFrom(n: number, salt = 0): string {
	const head = (n >>> 0).toString(16).padStart(8, '0');
	const tail = ((n * 7919 + salt * 104729) % 0xffffffffffff).toString(16).padStart(12, '0');
	return `${head}-000${salt % 10}-4abc-8def-${tail}`;
}

export function toRecord(row: Row): TrackedRecord {
	return {
		id: row.id,
		status: row.status,
		created_at: new Date(row.created).toISOString(),
		updated_at: new Date(row.updated).toISOString(),
		title: `record ${row.id.slice(0, 8)}`,
	};
}

export class World {
	now = EPOCH;
	readonly articles = new Map<string, Row>();
	readonly social = new Map<string, Row>();
	private next = 0;
	readonly log: TrackerRequest[] = [];

	constructor(private readonly random: () => number = prng(1)) {}

	tick(ms: number): void {
		this.now += ms;
	}

	create(kind: 'article' | 'social', status: string): string {
		const id = uuidFrom(++this.next, kind === 'article' ? 1 : 2);
		const table = kind === 'article' ? this.articles : this.social;
		table.set(id, { id, status, created: this.now, updated: this.now });
		return id;
	}

	/** A status change or an edit (same status): either way updated_at moves. */
	set(kind: 'article' | 'social', id: string, status: string): void {
		const row = (kind === 'article' ? this.articles : this.social).get(id);
		if (!row) throw new Error(`no ${kind} ${id}`);
		row.status = status;
		row.updated = this.now;
	}

	snapshot(kind: 'article' | 'social'): Map<string, string> {
		const table = kind === 'article' ? this.articles : this.social;
		return new Map([...table.values()].map((row) => [row.id, row.status]));
	}

	answer(request: TrackerRequest): TrackerReply {
		this.log.push(request);
		if (request.kind === 'socialRecord') {
			const row = this.social.get(request.id);
			return row ? toRecord(row) : null;
		}
		if (request.kind === 'articleList') {
			const rows = [...this.articles.values()]
				.filter((row) => request.status === undefined || row.status === request.status)
				// Stable order for ties, as a database index gives.
				.sort((a, b) => b.updated - a.updated || (a.id < b.id ? -1 : 1));
			return page(rows, request.page, request.limit);
		}
		if (request.status !== undefined && !SOCIAL_FILTERABLE.includes(request.status)) {
			throw new Error(`400: unknown status filter ${request.status}`);
		}
		const rows = [...this.social.values()].filter(
			(row) => request.status === undefined || row.status === request.status,
		);
		for (let i = rows.length - 1; i > 0; i--) {
			const j = Math.floor(this.random() * (i + 1));
			[rows[i], rows[j]] = [rows[j], rows[i]];
		}
		return page(rows, request.page, request.limit);
	}
}

function page(rows: Row[], pageNumber: number, limit: number): ListResult {
	const start = (pageNumber - 1) * limit;
	return {
		items: rows.slice(start, start + limit).map(toRecord),
		total: rows.length,
		hasMore: start + limit < rows.length,
	};
}
