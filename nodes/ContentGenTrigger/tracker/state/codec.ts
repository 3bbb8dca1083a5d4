/**
 * The stored state: the memory (./memory) as it is, under the format `v` and with `committedAt`
 * stored as `t`, the two keys every format keeps at its top (./formats). Decoding copies it, so
 * that nothing n8n holds changes before a poll completes.
 */
import type { TrackerMemory } from './memory';

/** The format written (4: the memory as it is; 3 and earlier were packed: ./formats). */
export const VERSION = 4;

export type Json = Record<string, unknown>;

export function encode(memory: TrackerMemory): Json {
	const { committedAt, ...rest } = memory;
	const fields = Object.entries(rest).filter(([, value]) => value !== undefined);
	return { v: VERSION, t: committedAt, ...Object.fromEntries(fields) };
}

/** Reads what was stored; undefined for anything else (not activated yet, or another scope). */
export function decode(stored: Json, scope: string): TrackerMemory | undefined {
	if (stored.v !== VERSION || stored.scope !== scope || typeof stored.t !== 'number')
		return undefined;
	const copy = JSON.parse(JSON.stringify(stored)) as Json;
	const maps = [
		...['pending', 'finished'].map((name) => (copy.articles as Json | undefined)?.[name]),
		...['followed', 'byId', 'missing'].map((name) => (copy.social as Json | undefined)?.[name]),
	];
	if (maps.some((map) => map !== undefined && (typeof map !== 'object' || map === null)))
		return undefined;
	const memory = { ...copy, committedAt: copy.t } as Json;
	delete memory.v;
	delete memory.t;
	return memory as unknown as TrackerMemory;
}
