/**
 * The repository's own rules, as tests in one file (one module load): every operation and event
 * has its cases, the routes agree, the docs' tables match the maps, AGENTS.md's recipes name what
 * the rules ask for, imports go one way, no call spreads an array, code stays where it belongs, and
 * the test tree is test/README.md's (./tests also fails on a guard file nothing here imports).
 */
import './cases';
import './routes';
import './docs-tables';
import './recipes';
import './imports';
import './spreads';
import './layout';
import './n8n-rules';
import './n8n-words';
import './n8n-terms';
import './tests';
