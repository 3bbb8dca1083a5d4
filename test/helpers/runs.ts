/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test reads how deep to go from the environment */
/**
 * How many random cases a property or a fuzzed field runs. `npm test` runs the quick count, so the
 * whole suite answers in about two minutes; CI runs the deep one (CONTENTGEN_DEEP=1, .ci/run). Both
 * draw from the same fixed seed, so the quick run is the first cases of the deep one and a failure
 * in either replays with the same seed and path.
 */
export const DEEP = process.env.CONTENTGEN_DEEP === '1';

/** `quick` cases by default, `deep` under CONTENTGEN_DEEP=1. */
export function numRuns(quick: number, deep: number): number {
	return DEEP ? deep : quick;
}
