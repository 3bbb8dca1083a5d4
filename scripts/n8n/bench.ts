/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals -- a command: prints and sets the exit code */
/**
 * `npm run bench:n8n`: the real-n8n benchmark (test/n8n/harness/bench.ts) on its own deployment:
 * the packed package in n8n's queue mode (Postgres, Redis, main + two workers, the pinned n8n of
 * test/n8n/versions.json), many executions on one key's rate budget, and our nodes beside what users
 * build instead. It prints the table; `--write` puts it into BENCHMARKS.md, as `npm run bench --
 * --write` does for the in-process benchmarks. It exits non-zero when one of the benchmark's own
 * checks fails (a failed execution of ours, a record or an article missing): its figures are only
 * worth reading when those hold. A benchmark, not a test: `npm test` and the real-n8n legs never
 * run it. CONTENTGEN_N8N_SKIP_BUILD=1 packs the existing dist/ instead of building first;
 * CONTENTGEN_N8N_TARBALL=<file> benchmarks that tarball instead (another commit's `npm pack`: the
 * same cases before and after a change). Each timed case runs CONTENTGEN_N8N_BENCH_SAMPLES times
 * (at least 3): the table gives the median, the spread, and the median against HTTP Request's.
 */
import { queueBenchmark } from '../../test/n8n/harness/bench';
import { importCredentials, importWorkflows } from '../../test/n8n/harness/cli';
import { Deployment } from '../../test/n8n/harness/deployment';
import { CREDENTIALS, queueWorkflows } from '../../test/n8n/harness/queue-workflows';
import { report } from '../../test/n8n/harness/report';
import { contentGenCredential } from '../../test/n8n/harness/single';
import { pin } from '../../test/n8n/harness/versions';

const args = process.argv.slice(2);
if (args.includes('--write')) process.env.CONTENTGEN_BENCH_WRITE = '1';

async function main(): Promise<void> {
	const started = Date.now();
	// The queue leg's deployment (test/n8n/queue.leg.ts) with n8n's default lock settings.
	const deployment = new Deployment({
		pin: pin('latest2'),
		workers: 2,
		speed: Number(process.env.CONTENTGEN_N8N_QUEUE_SPEED ?? 10),
		settings: () => ({}),
	});
	try {
		await deployment.prepare();
		const { sandbox } = deployment;
		// Every case runs on the second user's keys, replaced by a fresh one per case.
		const benchKey = sandbox.control.createKey({
			userId: sandbox.control.otherUserId,
			name: 'n8n benchmark',
		});
		await importCredentials(deployment, [
			contentGenCredential(CREDENTIALS.queue, sandbox.apiKey, sandbox.url),
			contentGenCredential(CREDENTIALS.bench, benchKey, sandbox.url),
			{ ...CREDENTIALS.bearer, type: 'httpBearerAuth', data: { token: benchKey } },
		]);
		const workflows = queueWorkflows(sandbox.url);
		await importWorkflows(deployment, workflows);
		await deployment.launchAndSignIn();
		// Every webhook workflow of the queue leg active, as when the benchmark ran inside it.
		for (const { id } of workflows) await deployment.api.setActive(id, true);
		report(`activated ${workflows.length} webhook workflows`);
		const checks = await queueBenchmark(deployment);
		const failed = checks.filter((c) => !c.ok);
		for (const c of failed) console.error(`check failed: ${c.text}`);
		if (checks.length === 0 || failed.length > 0) process.exitCode = 1;
		const logs = deployment.logs();
		if (logs.includes(sandbox.apiKey) || logs.includes(benchKey)) {
			console.error('an API key appears in the logs of main or a worker');
			process.exitCode = 1;
		}
	} finally {
		await deployment.stop();
	}
	console.log(`bench:n8n took ${Math.round((Date.now() - started) / 1000)} s`);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
