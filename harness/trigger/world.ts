/**
 * An in-memory account for driving the tracker: articles and social records with the service's
 * list semantics (articles sorted by updated_at; social lists in an order the spec leaves open:
 * a fresh random one per request by default, or a stable one that is not by date).
 */
import type {
	ListResult,
	TrackedRecord,
	TrackerReply,
	TrackerRequest,
} from '../../nodes/ContentGenTrigger/tracker';
import { SOCIAL_STATUSES } from '../../sandbox/constants';
import { uuidv7 } from '../../sandbox/prng';

export const EPOCH = Date.UTC(2025, 0, 1);

export interface Row {
	id: string;
	status: string;
	created: number;
	updated: number;
}

/**
 * How the social list is ordered: `shuffled` = a fresh random order per request, `id` = stable
 * by id (what a table without ORDER BY tends to give: unrelated to dates), `newest` / `oldest`
 * = by creation time.
 */
export type SocialOrder = 'shuffled' | 'id' | 'newest' | 'oldest';

/** The statuses the list filter accepts (the spec's eight), from the sandbox's independent copy. */
const SOCIAL_FILTERABLE: readonly string[] = SOCIAL_STATUSES;

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

/** A valid v4 UUID whose leading hex digits do not follow creation order. */
export function uuidFrom(n: number, salt = 0): string {
	const mixed = Math.imul(n ^ 0x5bd1e995, 0x27d4eb2f) >>> 0;
	const head = mixed.toString(16).padStart(8, '0');
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

/** `ms`: stamps to the millisecond; `s`: truncated to whole seconds (equal `updated_at` common). */
export type StampKind = 'ms' | 's';

export interface WorldOptions {
	socialOrder?: SocialOrder;
	/**
	 * `v7`: time-ordered ids, minted at the world's time (not the record's stamp: an import mints
	 * a whole batch in one millisecond); default `v4`, random-looking ones.
	 */
	ids?: 'v4' | 'v7';
	stamps?: StampKind;
}

export class World {
	/** The service's true time. Writers stamp records with their own clocks (`skew` arguments). */
	now = EPOCH;
	readonly articles = new Map<string, Row>();
	readonly social = new Map<string, Row>();
	private next = 0;
	readonly log: TrackerRequest[] = [];
	readonly socialOrder: SocialOrder;
	private readonly ids: 'v4' | 'v7';
	private sortedArticles: Row[] | undefined;
	private orderedSocial: Row[] | undefined;
	private readonly stamps: StampKind;

	constructor(
		private readonly random: () => number = prng(1),
		options: WorldOptions = {},
	) {
		this.socialOrder = options.socialOrder ?? 'shuffled';
		this.ids = options.ids ?? 'v4';
		this.stamps = options.stamps ?? 'ms';
	}

	/** A time as the service stores it. */
	private stamp(ms: number): number {
		return this.stamps === 's' ? Math.floor(ms / 1000) * 1000 : ms;
	}

	tick(ms: number): void {
		this.now += ms;
	}

	/** A new record; `skew` is the writer's clock error, `created` an explicit (past) stamp. */
	create(
		kind: 'article' | 'social',
		status: string,
		options: { skew?: number; created?: number } = {},
	): string {
		const n = ++this.next;
		const id =
			this.ids === 'v7' ? uuidv7(this.now, this.random) : uuidFrom(n, kind === 'article' ? 1 : 2);
		const stamp = this.stamp(options.created ?? this.now + (options.skew ?? 0));
		this.table(kind).set(id, { id, status, created: stamp, updated: stamp });
		this.invalidate(kind);
		return id;
	}

	/** A status change or an edit (same status): either way updated_at moves, to the writer's clock. */
	set(kind: 'article' | 'social', id: string, status: string, skew = 0): void {
		const row = this.table(kind).get(id);
		if (!row) throw new Error(`no ${kind} ${id}`);
		row.status = status;
		row.updated = this.stamp(this.now + skew);
		this.invalidate(kind);
	}

	// ----- accounts that lose records: the spec has no delete route, but accounts do -----

	/** Removes a social record, as an account losing it would. */
	remove(id: string): void {
		if (!this.social.delete(id)) throw new Error(`no social ${id}`);
		this.invalidate('social');
	}

	// ----- end of deletions -----

	snapshot(kind: 'article' | 'social'): Map<string, string> {
		return new Map([...this.table(kind).values()].map((row) => [row.id, row.status]));
	}

	answer(request: TrackerRequest): TrackerReply {
		this.log.push(request);
		if (request.kind === 'socialRecord') {
			const row = this.social.get(request.id);
			return row ? toRecord(row) : null;
		}
		if (request.kind === 'articleList') {
			// Stable order for ties, as a database index gives.
			this.sortedArticles ??= [...this.articles.values()].sort(
				(a, b) => b.updated - a.updated || (a.id < b.id ? -1 : 1),
			);
			const rows = this.sortedArticles.filter(
				(row) => request.status === undefined || row.status === request.status,
			);
			return page(rows, request.page, request.limit);
		}
		if (request.status !== undefined && !SOCIAL_FILTERABLE.includes(request.status)) {
			throw new Error(`400: unknown status filter ${request.status}`);
		}
		const rows = this.socialRows(request.status);
		return page(rows, request.page, request.limit);
	}

	private socialRows(status: string | undefined): Row[] {
		const member = (row: Row) => status === undefined || row.status === status;
		if (this.socialOrder === 'shuffled') {
			const rows = [...this.social.values()].filter(member);
			for (let i = rows.length - 1; i > 0; i--) {
				const j = Math.floor(this.random() * (i + 1));
				[rows[i], rows[j]] = [rows[j], rows[i]];
			}
			return rows;
		}
		const byId = (a: Row, b: Row) => (a.id < b.id ? -1 : 1);
		const compare =
			this.socialOrder === 'id'
				? byId
				: this.socialOrder === 'newest'
					? (a: Row, b: Row) => b.created - a.created || byId(a, b)
					: (a: Row, b: Row) => a.created - b.created || byId(a, b);
		this.orderedSocial ??= [...this.social.values()].sort(compare);
		return status === undefined ? this.orderedSocial : this.orderedSocial.filter(member);
	}

	private table(kind: 'article' | 'social'): Map<string, Row> {
		return kind === 'article' ? this.articles : this.social;
	}

	private invalidate(kind: 'article' | 'social'): void {
		if (kind === 'article') this.sortedArticles = undefined;
		// Only creations change a stable social order; statuses do not move a row.
		else this.orderedSocial = undefined;
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
