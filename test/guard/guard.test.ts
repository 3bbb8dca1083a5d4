/**
 * The repository's own rules, as tests in one file (one module load): every operation and event
 * has its cases, the docs' tables match the maps, imports go one way, no call spreads an array,
 * and code stays where it belongs.
 */
import './cases';
import './docs-tables';
import './imports';
import './spreads';
import './layout';
