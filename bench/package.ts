/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- dev-only benchmark: times with process.hrtime, spawns node and npm */
/** Rows of `npm run bench` about the published package: its size and how long it takes to load. */
import { execFileSync, spawnSync } from 'child_process';
import { join } from 'path';

import { fmt, median, ms, type AddRow } from './kit';

const ROOT = join(__dirname, '..');
/** Fresh processes per cold-load figure; the median is reported. */
export const LOAD_RUNS = 7;

/** `build`: run `npm run build` first, else measure dist as it is. */
export function packageRows(row: AddRow, notes: string[], build: boolean): void {
	if (build) {
		try {
			execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
		} catch (error) {
			const out = (error as { stdout?: Buffer; stderr?: Buffer }).stdout?.toString() ?? '';
			notes.push(
				`npm run build failed, measured the existing dist: ${out.split('\n').filter(Boolean).slice(-3).join(' | ')}`,
			);
		}
	}
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'ignore'],
		}).toString(),
	) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
	const { size, unpackedSize, entryCount } = packed[0];
	row(
		'size',
		'published tarball (npm pack --dry-run)',
		`${fmt(size / 1024, 1)} KB packed`,
		`${fmt(unpackedSize / 1024, 1)} KB unpacked, ${entryCount} files`,
		'-',
		'-',
	);

	// One fresh process per sample: n8n-workflow first (n8n has it loaded anyway), then our modules.
	const ours = [
		'./dist/nodes/ContentGen/ContentGen.node.js',
		'./dist/nodes/ContentGenTrigger/ContentGenTrigger.node.js',
		'./dist/credentials/ContentGenApi.credentials.js',
	];
	const script = `const h=()=>process.hrtime.bigint();const a=h();require('n8n-workflow');const b=h();require(${JSON.stringify(ours[0])});const c=h();${ours
		.slice(1)
		.map((m) => `require(${JSON.stringify(m)});`)
		.join(
			'',
		)}const d=h();process.stdout.write(JSON.stringify([b-a,c-b,d-b].map((x)=>Number(x)/1e6)))`;
	const samples: number[][] = [];
	for (let i = 0; i < LOAD_RUNS; i++) {
		const child = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
		if (child.status !== 0) throw new Error(`cold load failed: ${child.stderr}`);
		samples.push(JSON.parse(child.stdout) as number[]);
	}
	const [workflowMs, actionMs, allMs] = [0, 1, 2].map((k) => median(samples.map((s) => s[k])));
	const totalSpawn = (() => {
		const times: number[] = [];
		for (let i = 0; i < LOAD_RUNS; i++) {
			const t = process.hrtime.bigint();
			const child = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(ours[0])})`], {
				cwd: ROOT,
			});
			if (child.status !== 0) throw new Error('cold load failed');
			times.push(ms(t));
		}
		const empty: number[] = [];
		for (let i = 0; i < LOAD_RUNS; i++) {
			const t = process.hrtime.bigint();
			spawnSync(process.execPath, ['-e', ''], { cwd: ROOT });
			empty.push(ms(t));
		}
		return { load: median(times), empty: median(empty) };
	})();
	row(
		'load',
		'cold: node -e "require(ContentGen.node.js)", whole process',
		`${fmt(totalSpawn.load, 0)} ms`,
		`${fmt(totalSpawn.empty, 0)} ms for node -e ""`,
		'-',
		'-',
	);
	row(
		'load',
		'cold require: ContentGen.node.js after n8n-workflow',
		`${fmt(actionMs, 1)} ms`,
		`${fmt(workflowMs, 1)} ms n8n-workflow itself`,
		'-',
		'-',
	);
	row(
		'load',
		'cold require: both nodes + credential after n8n-workflow',
		`${fmt(allMs, 1)} ms`,
		'-',
		'-',
		'-',
	);
}
