import type { IDisplayOptions } from 'n8n-workflow';

/**
 * The node's versions (AGENTS.md, Versioning). 2: record IDs are pickers (From list, By URL, ID),
 * the Output parameter replaces Simplify, and sorting has its own collection; a node saved at 1 or
 * 1.1 keeps its plain-text IDs, Simplify and Filters as they were.
 */
export const NODE_VERSIONS = [1, 1.1, 2];
export const DEFAULT_VERSION = 2;

/** Display rules of a property that exists from version 2 on, or only before it. */
export const FROM_V2: IDisplayOptions = { show: { '@version': [{ _cnd: { gte: 2 } }] } };
export const BEFORE_V2: IDisplayOptions = { show: { '@version': [{ _cnd: { lt: 2 } }] } };

/** Whether the running node was saved at version 2 or later. */
export function isV2(typeVersion: number): boolean {
	return typeVersion >= 2;
}
