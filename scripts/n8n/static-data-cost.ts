/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- a command: runs n8n, prints figures, sets the exit code */
/**
 * What a polling trigger's static data costs in real n8n, by its size: a benchmark, not a test
 * (`npm test`, the real-n8n legs and CI never run it).
 *
 *   npx tsx scripts/n8n/static-data-cost.ts [--db=sqlite,postgres] [--sizes=0,64K,256K,1M,2M,4M]
 *     [--windows=10] [--cli-runs=3] [--no-page]
 *
 * For each database (SQLite: one `n8n start`, n8n's default; Postgres 17: queue mode, main and one
 * worker, with Redis) and each size, the pinned n8n of `npm run test:n8n` (the package installed
 * with the README's commands, as every leg does) runs one active workflow: a throwaway polling
 * node (static-data/probe.ts) holding that many bytes of static data, polling every 10 s, emitting
 * an item every other poll. n8n is started afresh for each size. It measures per poll (medians over
 * `--windows` polls after two of warm-up): the time n8n spends saving the static data and running
 * the poll (timed inside n8n by static-data/probe.ts's hook), the bytes written (Postgres: the WAL;
 * SQLite: what main wrote to storage), the execution's time, main's longest event-loop stall; then
 * the editor opening the workflow (its REST call, and the page in headless Chromium unless
 * --no-page), main's and the worker's memory, and `n8n export:workflow` / `import:workflow`.
 * Figures are compared as ratios to the 64 KB row of the same run.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { importWorkflows } from '../../test/n8n/harness/cli';
import { Deployment } from '../../test/n8n/harness/deployment';
import { pause, waitFor } from '../../test/n8n/harness/processes';
import { report } from '../../test/n8n/harness/report';
import { pin } from '../../test/n8n/harness/versions';
import { chromiumPath, EditorPage } from './static-data/editor';
import {
	descendants,
	memory,
	postgres,
	sqlite,
	writeBytes,
	type Database,
} from './static-data/meters';
import {
	installProbe,
	POLL_SECONDS,
	PROBE_KEY,
	probeWorkflow,
	writeProbe,
	type Probe,
} from './static-data/probe';
import {
	median,
	summarize,
	table,
	type Call,
	type SizeRow,
	type Window,
} from './static-data/table';

const option = (name: string, fallback: string) =>
	process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const DATABASES = option('db', 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const SIZES = option('sizes', '0,64K,256K,1M,2M,4M')
	.split(',')
	.map((s) => Number.parseFloat(s) * ({ K: 1024, M: 1024 * 1024 }[s.slice(-1)] ?? 1));
const WINDOWS = Number(option('windows', '10'));
const CLI_RUNS = Number(option('cli-runs', '3'));
const WARM_UP = 2;
const PAGE = !process.argv.includes('--no-page');
/** Counters are read this long after each poll, when its save and execution are done. */
const SAMPLE_OFFSET_MS = 8_000;

const sizeLabel = (bytes: number) =>
	bytes === 0 ? 'none' : bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} KB`;
const workflowId = (bytes: number) => `sd${bytes}`;

interface Sample {
	at: number;
	position: number;
	storedPolls: number | null;
	database: Map<number, number>;
	main: number;
	worker: number;
	mainRss: number;
	workerRss: number;
}

/** The counters once, now. */
async function sample(deployment: Deployment, db: Database, id: string): Promise<Sample> {
	const database = new Map<number, number>();
	if (db.kind === 'postgres')
		for (const pid of descendants(deployment.postgres.process.child.pid!))
			database.set(pid, writeBytes(pid));
	const mainPid = deployment.main.process.child.pid!;
	const workerPid = deployment.workers[0]?.process.child.pid;
	return {
		at: Date.now(),
		position: await db.position(),
		storedPolls: (await db.state(id, PROBE_KEY)).polls,
		database,
		main: writeBytes(mainPid),
		worker: workerPid ? writeBytes(workerPid) : NaN,
		mainRss: memory(mainPid).rss,
		workerRss: workerPid ? memory(workerPid).rss : NaN,
	};
}

/** Bytes the processes of `b` wrote since `a`, a process that started meanwhile counted whole. */
const databaseDelta = (a: Sample, b: Sample) =>
	[...b.database].reduce((sum, [pid, bytes]) => sum + bytes - (a.database.get(pid) ?? 0), 0);

/** Waits for the next moment `offset` ms after a poll of the 10 s schedule. */
async function nextSamplePoint(): Promise<void> {
	const period = POLL_SECONDS * 1000;
	const wait = (SAMPLE_OFFSET_MS - (Date.now() % period) + period) % period || period;
	await pause(wait);
}

function calls(file: string, id: string): Call[] {
	let text = '';
	try {
		text = readFileSync(file, 'utf8');
	} catch {
		return [];
	}
	return text
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as Call)
		.filter((c) => c.workflowId === id);
}

async function measureSize(
	deployment: Deployment,
	db: Database,
	bytes: number,
	page: EditorPage | undefined,
): Promise<SizeRow> {
	const id = workflowId(bytes);
	const log = join(deployment.work, 'calls.jsonl');
	await deployment.api.setActive(id, true);
	await waitFor(`${sizeLabel(bytes)}: the activation poll's state stored`, 180, async () => {
		const s = await db.state(id, PROBE_KEY);
		return s.polls !== null && s.polls >= 1;
	});
	await nextSamplePoint();
	const samples = [await sample(deployment, db, id)];
	for (let k = 0; k < WARM_UP + WINDOWS; k++) {
		await nextSamplePoint();
		samples.push(await sample(deployment, db, id));
		process.stdout.write('.');
	}
	// the poll after the last window carries that window's event-loop stall
	await pause(POLL_SECONDS * 1000 - SAMPLE_OFFSET_MS + 2_000);
	process.stdout.write('\n');
	const seen = calls(log, id);
	const executions = await db.executions(id);
	const windows: Window[] = [];
	for (let k = WARM_UP + 1; k < samples.length; k++) {
		const [a, b] = [samples[k - 1], samples[k]];
		const inside = (c: { at: number }) => c.at > a.at && c.at <= b.at;
		const poll = seen.find((c) => c.call === 'runPollFunction' && inside(c));
		const nextPoll = seen.find((c) => c.call === 'runPollFunction' && c.at > b.at);
		const sum = (call: Call['call']) => {
			const found = seen.filter((c) => c.call === call && inside(c));
			return found.length ? found.reduce((s, c) => s + c.ms, 0) : NaN;
		};
		const execution = executions.find((e) => e.startedAt > a.at && e.startedAt <= b.at);
		windows.push({
			emitted: (poll?.items ?? 0) > 0,
			pollMs: poll?.ms ?? NaN,
			saveMs: sum('saveStaticDataById'),
			readMs: sum('getStaticDataById'),
			runMs: sum('runWorkflow'),
			jobMs: sum('processJob'),
			executionMs: execution ? execution.stoppedAt - execution.startedAt : NaN,
			loopMaxMs: nextPoll?.loopMaxMs ?? NaN,
			written: db.kind === 'postgres' ? b.position - a.position : b.main - a.main,
			databaseWritten: databaseDelta(a, b),
			mainWritten: b.main - a.main,
			workerWritten: b.worker - a.worker,
			mainRss: b.mainRss,
			workerRss: b.workerRss,
			stored: b.storedPolls !== a.storedPolls,
		});
	}
	const stored = await db.state(id, PROBE_KEY);
	const rest: number[] = [];
	let restBytes = 0;
	let restStatic = 0;
	for (let i = 0; i < 5; i++) {
		const got = await deployment.api.editorGet(`/workflows/${id}`);
		rest.push(got.ms);
		restBytes = got.bytes;
		const staticData = (JSON.parse(got.text) as { data?: { staticData?: unknown } }).data
			?.staticData;
		restStatic = staticData ? JSON.stringify(staticData).length : 0;
	}
	const pages: number[] = [];
	const heaps: number[] = [];
	if (page) {
		await page.open(id); // the editor's assets into the browser's cache
		for (let i = 0; i < 3; i++) {
			const opened = await page.open(id);
			pages.push(opened.ms);
			heaps.push(opened.heapBytes);
		}
	}
	const peaks = {
		main: memory(deployment.main.process.child.pid!).peak,
		worker: deployment.workers[0] ? memory(deployment.workers[0].process.child.pid!).peak : NaN,
	};
	// deactivated right after a quiet poll: is what that poll changed kept?
	const polls = () => calls(log, id).filter((c) => c.call === 'runPollFunction');
	await waitFor('a quiet poll', 60, () => {
		const last = polls().pop();
		return last !== undefined && last.items === 0 && Date.now() - last.at < 5_000;
	});
	await deployment.api.setActive(id, false);
	const deactivated = { ran: polls().length, stored: (await db.state(id, PROBE_KEY)).polls };
	// export and import with n8n stopped, as on a maintenance window
	await Promise.all(
		[deployment.main, ...deployment.workers].map((p) => deployment.instance.stop(p)),
	);
	const file = join(deployment.work, `${id}.json`);
	const cli = async (args: string[]) => {
		const started = performance.now();
		const result = await deployment.cli(args);
		if (result.code !== 0)
			throw new Error(`n8n ${args.join(' ')}: exit ${result.code}\n${result.stderr.slice(-1500)}`);
		return performance.now() - started;
	};
	const exports: number[] = [];
	const imports: number[] = [];
	for (let i = 0; i < CLI_RUNS; i++)
		exports.push(await cli(['export:workflow', `--id=${id}`, `--output=${file}`]));
	for (let i = 0; i < CLI_RUNS; i++)
		imports.push(await cli(['import:workflow', `--input=${file}`]));
	return summarize({
		database: db.kind,
		bytes,
		label: sizeLabel(bytes),
		storedBytes: stored.bytes,
		records: stored.records,
		windows,
		restMs: median(rest),
		restBytes,
		restStaticBytes: restStatic,
		pageMs: median(pages),
		pageHeap: median(heaps),
		mainPeak: peaks.main,
		workerPeak: peaks.worker,
		exportMs: median(exports),
		exportBytes: statSync(file).size,
		importMs: median(imports),
		deactivated,
	});
}

async function leg(kind: 'sqlite' | 'postgres', probe: Probe): Promise<SizeRow[]> {
	const settings = ({ work }: { work: string }) => ({
		NODE_OPTIONS: `--require ${probe.hook}`,
		STATIC_DATA_COST_LOG: join(work, 'calls.jsonl'),
	});
	const deployment = new Deployment({
		pin: pin('latest2'),
		mode: kind === 'sqlite' ? 'single' : 'queue',
		workers: 1,
		settings,
	});
	const rows: SizeRow[] = [];
	let page: EditorPage | undefined;
	let db: Database | undefined;
	try {
		await deployment.prepare();
		for (const folder of ['main', ...(kind === 'postgres' ? ['worker-1'] : [])])
			installProbe(probe, join(deployment.work, folder));
		report(`installed the probe package beside the package into each n8n user folder`);
		await importWorkflows(
			deployment,
			SIZES.map((bytes) => probeWorkflow(workflowId(bytes), sizeLabel(bytes), bytes)),
		);
		await deployment.launchAndSignIn();
		const { cache } = pin('latest2');
		db =
			kind === 'postgres'
				? await postgres(cache, deployment.postgres)
				: sqlite(cache, join(deployment.work, 'main', '.n8n', 'database.sqlite'));
		report(`${kind}: workflow_entity."staticData" is of type ${await db.columnType()}`);
		const chromium = PAGE ? chromiumPath() : undefined;
		if (PAGE && !chromium) report('no chromium on PATH: the editor page is left out');
		for (const [i, bytes] of SIZES.entries()) {
			if (i > 0) await deployment.restart(settings({ work: deployment.work }));
			page = chromium
				? await EditorPage.launch(
						chromium,
						deployment.work,
						deployment.instance.url,
						deployment.api.session,
					)
				: undefined;
			report(`${kind}, ${sizeLabel(bytes)}: ${WARM_UP + WINDOWS} polls of 10 s`);
			const row = await measureSize(deployment, db, bytes, page);
			await page?.close();
			page = undefined;
			rows.push(row);
			report(JSON.stringify(row));
		}
	} finally {
		await page?.close().catch(() => undefined);
		await db?.close().catch(() => undefined);
		await deployment.stop();
	}
	return rows;
}

async function main(): Promise<void> {
	const started = Date.now();
	const folder = mkdtempSync(join(tmpdir(), 'contentgen-static-data-'));
	try {
		const probe = writeProbe(folder);
		const rows: SizeRow[] = [];
		for (const kind of DATABASES) rows.push(...(await leg(kind, probe)));
		console.log(`\n${table(rows)}\n`);
		for (const r of rows)
			console.log(
				`${r.database}, ${r.label}: deactivated after a quiet poll, poll ${r.deactivated.ran} of the probe's; the stored state is that of poll ${r.deactivated.stored}`,
			);
		console.log(
			`\n${new Date().toISOString().slice(0, 10)}, n8n ${pin('latest2').version}, ` +
				`${WINDOWS} polls a size; ${Math.round((Date.now() - started) / 60_000)} min`,
		);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? (error.stack ?? error.message) : error);
	process.exitCode = 1;
});
