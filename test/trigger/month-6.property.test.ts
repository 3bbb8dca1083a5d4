/** Part 6 of the month's deep run (./month-runs): skipped unless CONTENTGEN_DEEP=1. */
import { deepPart } from './month-runs';

describe('a month of a busy account, deep run', () => {
	deepPart(6);
});
