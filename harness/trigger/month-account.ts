/**
 * The account a month (./month) is played on, with every status each record held and when: the
 * oracle of ./month-run judges the trigger against that timeline.
 */
import { NEXT, type Action, type History, type Kind } from './month';
import { prng, World } from './world';

const IN_FLIGHT = new Set([
	'draft',
	'queued',
	'generating',
	'ready',
	'completed',
	'scheduled',
	'publishing',
]);
export const FOLLOWED = new Set([
	'draft',
	'queued',
	'generating',
	'ready',
	'completed',
	'scheduled',
]);

/** Every status a record held: [time, status or null once deleted]. */
type Timeline = Map<string, Array<[number, string | null]>>;

export class Account {
	readonly world: World;
	readonly timeline: Timeline = new Map();
	constructor(seed: number, history: History) {
		this.world = new World(prng(seed), {
			socialOrder: history.order,
			ids: history.ids,
			stamps: history.stamps,
		});
	}

	private note(id: string, status: string | null): void {
		const line = this.timeline.get(id) ?? [];
		line.push([this.world.now, status]);
		this.timeline.set(id, line);
	}

	create(kind: Kind, status: string, created?: number, skew = 0): string {
		const id = this.world.create(kind, status, { created, skew });
		this.note(id, status);
		return id;
	}

	/** The record an action's `pick` means among `ids` (mostly the newest 300). */
	private pick(ids: string[], pick: number): string | undefined {
		if (ids.length === 0) return undefined;
		if (pick < 0.7)
			return ids[ids.length - 1 - Math.floor((pick / 0.7) * Math.min(300, ids.length))];
		return ids[Math.floor(((pick - 0.7) / 0.3) * ids.length)];
	}

	apply(action: Action): void {
		const w = this.world;
		if (action.do === 'create') {
			this.create(action.kind, action.status, undefined, action.skew);
			return;
		}
		if (action.do === 'delete') {
			const id = this.pick([...w.social.keys()], action.pick);
			if (!id) return;
			w.remove(id);
			this.note(id, null);
			return;
		}
		const kind = action.do === 'regenerate' ? 'article' : action.kind;
		const table = kind === 'article' ? w.articles : w.social;
		// Moves go mostly to records in flight, as generation and publishing move them on.
		const inFlight = action.do === 'move' && action.choice < 0.8;
		const ids = [...table.values()]
			.filter((row) => !inFlight || IN_FLIGHT.has(row.status))
			.map((row) => row.id);
		const id = this.pick(ids, inFlight ? action.pick * 0.7 : action.pick);
		if (!id) return;
		const row = table.get(id)!;
		if (action.do === 'edit') {
			w.set(kind, id, row.status);
			return;
		}
		if (action.do === 'regenerate') {
			if (!['cms', 'needs_editing', 'failed', 'archived'].includes(row.status)) return;
			w.set('article', id, 'queued');
			this.note(id, 'queued');
			w.tick(2_000);
			const to = ['cms', 'needs_editing', 'failed'][Math.floor(action.choice * 3)];
			w.set('article', id, to);
			this.note(id, to);
			return;
		}
		const next = NEXT[kind][row.status] ?? [];
		if (next.length === 0) return;
		const to = next[Math.floor(((action.choice * 7.31) % 1) * next.length)];
		w.set(kind, id, to, action.skew);
		this.note(id, to);
	}

	/** The status held at `t` (undefined: not born yet; null: deleted). */
	statusAt(id: string, t: number): string | null | undefined {
		let status: string | null | undefined;
		for (const [at, s] of this.timeline.get(id) ?? []) {
			if (at > t) break;
			status = s;
		}
		return status;
	}

	/** Every status held in [from, to]. */
	heldDuring(id: string, from: number, to: number): Set<string | null | undefined> {
		const held = new Set([this.statusAt(id, from)]);
		for (const [at, s] of this.timeline.get(id) ?? []) if (at > from && at <= to) held.add(s);
		return held;
	}
}
