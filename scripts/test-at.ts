/* eslint-disable no-console, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- a command: asks git for HEAD, runs the suite under faketime, prints, sets the exit code */
/**
 * Runs `npm test` with the clock of every process it starts set to another date (Debian's
 * `faketime`: the clock keeps ticking from there), so a test that reads the host's calendar to
 * decide what it expects fails now rather than on the day its date comes.
 *
 *   npm run test:at -- "2027-03-28 00:40" [-- jest options]   a date (UTC) given
 *   npm run test:at -- commit [-- jest options]               a date picked from HEAD
 *
 * Jest options go to `npm test` as they are: name files with `--testPathPatterns <regex>` (a bare
 * path after `npm test` is taken for another project name).
 *
 * `commit` (what CI runs) picks a date from HEAD's hash and time, so it changes with every commit
 * and a failure replays with the date printed: an instant from a year before the commit to three
 * after, in three commits of four moved next to a date that breaks calendars (a daylight-saving
 * change in Europe or the United States, a year end, the end of February).
 */
import { execFileSync, spawnSync } from 'child_process';

import { pick } from '../harness/clock';

function main(): number {
	const [when, ...rest] = process.argv.slice(2);
	if (!when) {
		console.error('usage: npm run test:at -- "<date> (UTC)" | commit [-- jest options]');
		return 2;
	}
	let target: number;
	if (when === 'commit') {
		const [hash, time] = execFileSync('git', ['log', '-1', '--format=%H %ct'], { encoding: 'utf8' })
			.trim()
			.split(' ');
		target = pick(hash, Number(time) * 1000);
	} else {
		target = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(when) ? when : `${when.replace(' ', 'T')}Z`);
		if (!Number.isFinite(target)) {
			console.error(`not a date: "${when}" (e.g. "2027-03-28 00:40", read as UTC)`);
			return 2;
		}
	}
	const offset = Math.round((target - Date.now()) / 1000);
	const shown = new Date(target).toISOString().slice(0, 16).replace('T', ' ');
	console.log(`npm test with the clock at ${shown} UTC (shifted ${offset} s, ticking)`);
	console.log(`replay: npm run test:at -- "${shown}"`);
	const args = rest[0] === '--' ? rest.slice(1) : rest;
	const run = spawnSync(
		'faketime',
		['-f', `${offset >= 0 ? '+' : ''}${offset}s`, 'npm', 'test', '--', ...args],
		{ stdio: 'inherit' },
	);
	if (run.error) {
		console.error(`faketime could not run (${run.error.message}): apt-get install faketime`);
		return 2;
	}
	return run.status ?? 1;
}

if (require.main === module) process.exitCode = main();
