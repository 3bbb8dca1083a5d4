/**
 * What a stored state is to this build. It decodes one format, its own (./codec). Any other one,
 * older or newer, is not decoded field by field: every format keeps `v` and `t` (the n8n host's
 * time of the last complete poll) at the top, so the trigger starts again and reports the changes
 * since `t` (../catchup), then relearns the account as at activation. An older format's keys are
 * not this build's (formats 2 and 3 packed ids into keys of a width fitted to the space left), and a newer one's (a
 * downgrade) is unknown: either way nothing of the update window is lost, and a newer one is named
 * in n8n's log rather than silently replaced. A state without `t` (format 1, written by 0.1.0)
 * cannot be caught up: the trigger starts from now, as at activation, and warns that the changes
 * since that build's last poll are not reported.
 */
import { decode, VERSION } from './codec';
import type { TrackerMemory } from './memory';

export type Stored =
	/** Nothing stored: never activated, or n8n kept no state (see ../../starts). */
	| { kind: 'none' }
	| { kind: 'read'; memory: TrackerMemory }
	/** Another format than those decoded: caught up from its time `t`, when it has one. */
	| { kind: 'foreign'; format: number; committedAt: number | undefined }
	/** Made for other filters, or not a state at all: the trigger starts again. */
	| { kind: 'other' };

type Json = Record<string, unknown>;

export function readStored(stored: unknown, scope: string): Stored {
	if (stored === undefined || stored === null) return { kind: 'none' };
	if (typeof stored !== 'object') return { kind: 'other' };
	const j = stored as Json;
	if (!('v' in j)) return Object.keys(j).length === 0 ? { kind: 'none' } : { kind: 'other' };
	const format = j.v;
	if (typeof format !== 'number' || !Number.isInteger(format)) return { kind: 'other' };
	if (format !== VERSION) {
		// Formats 2 and 3 kept the filters under `k`.
		const made = j.scope ?? j.k;
		if (typeof made === 'string' && made !== scope) return { kind: 'other' };
		return { kind: 'foreign', format, committedAt: committedAt(j) };
	}
	const memory = decode(j, scope);
	return memory ? { kind: 'read', memory } : { kind: 'other' };
}

/** Host time of the last complete poll recorded in a stored state of any format, if any. */
export function committedAt(stored: unknown): number | undefined {
	const t = typeof stored === 'object' && stored !== null ? (stored as Json).t : undefined;
	return typeof t === 'number' && t > 0 ? t : undefined;
}

/** What n8n's log says about the stored state, when it is not this build's own. */
export function storedNotice(stored: Stored): { warn?: string; info?: string } {
	if (stored.kind !== 'foreign') return {};
	const since = stored.committedAt && new Date(stored.committedAt).toISOString();
	if (stored.format < VERSION && since) {
		return {
			info: `ContentGen Trigger: the saved state is state format ${stored.format}, written by an earlier version of this package. It starts again and reports every change since that version's last poll (${since}), with the status each left unknown; the account is learnt anew over the next polls, as at activation. It is saved in format ${VERSION} from now on.`,
		};
	}
	const found = `ContentGen Trigger: the saved state is state format ${stored.format}, written by ${stored.format > VERSION ? 'a newer' : 'an earlier'} version of n8n-nodes-contentgen; this version reads format ${VERSION}.`;
	if (since === undefined) {
		return {
			warn: `${found} It starts again from now: the changes made since that version's last poll are not reported. List recent content with the ContentGen node (Get Many) if they matter.`,
		};
	}
	return {
		warn: `${found} It starts again and reports every change since that version's last poll (${since}) once more: nothing is lost, some may repeat.`,
	};
}
