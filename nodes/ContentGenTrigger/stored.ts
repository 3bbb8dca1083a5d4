/**
 * What a stored state is to this build. It reads every format it has written (./format1, ./state).
 * One written by a newer build (a downgrade) it cannot read, but every format keeps `v` and `t`
 * (the n8n host's time of the last complete poll) at the top: the trigger then starts again and
 * reports the changes since `t` (./catchup), and says so in n8n's log rather than refusing to
 * poll, so that no change is lost while the newer build is away.
 */
import { decodeFormat1 } from './format1';
import { decode, VERSION, type TrackerMemory } from './state';

/** The formats this build reads. */
export const FORMATS_READ: readonly number[] = [1, VERSION];

export type Stored =
	/** Nothing stored: never activated, or n8n kept no state (see ./starts). */
	| { kind: 'none' }
	| { kind: 'read'; format: number; memory: TrackerMemory }
	| { kind: 'newer'; format: number; committedAt: number | undefined }
	/** Made for other filters, or not a state at all: the trigger starts again. */
	| { kind: 'other' };

type Json = Record<string, unknown>;

/** `now`: host time of this poll. */
export function readStored(stored: unknown, scope: string, now: number): Stored {
	if (stored === undefined || stored === null) return { kind: 'none' };
	if (typeof stored !== 'object') return { kind: 'other' };
	const j = stored as Json;
	if (!('v' in j)) return Object.keys(j).length === 0 ? { kind: 'none' } : { kind: 'other' };
	const format = j.v;
	if (typeof format !== 'number' || !Number.isInteger(format)) return { kind: 'other' };
	if (format > VERSION) {
		if (typeof j.k === 'string' && j.k !== scope) return { kind: 'other' };
		const t = typeof j.t === 'number' && j.t > 0 ? j.t : undefined;
		return { kind: 'newer', format, committedAt: t };
	}
	const memory =
		format === VERSION ? decode(j, scope) : format === 1 ? decodeFormat1(j, scope, now) : undefined;
	return memory ? { kind: 'read', format, memory } : { kind: 'other' };
}

const readable = () =>
	`${FORMATS_READ.slice(0, -1).join(', ')} and ${FORMATS_READ[FORMATS_READ.length - 1]}`;

/** What n8n's log says about the stored state, when it is not this build's own. */
export function storedNotice(stored: Stored): { warn?: string; info?: string } {
	if (stored.kind === 'read' && stored.format !== VERSION) {
		return {
			info: `ContentGen Trigger: read the state saved by an earlier version of this package (state format ${stored.format}) and continues from it; it is saved in format ${VERSION} from now on`,
		};
	}
	if (stored.kind !== 'newer') return {};
	const found = `ContentGen Trigger: the saved state is state format ${stored.format}, written by a newer version of n8n-nodes-contentgen; this version reads formats ${readable()}.`;
	if (stored.committedAt === undefined) {
		return {
			warn: `${found} It starts again from now: the changes made since that version's last poll are not reported. List recent content with the ContentGen node (Get Many) if they matter.`,
		};
	}
	return {
		warn: `${found} It starts again and reports every change since that version's last poll (${new Date(stored.committedAt).toISOString()}) once more: nothing is lost, some may repeat.`,
	};
}
