import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { WAIT } from '../../shared/constants';
import { pause } from '../../shared/transport/http';
import { connect, type Connection } from '../../shared/transport/request';
import type { GenerationJob, WaitTarget } from './job';
import type { Tracked, WaitResult } from './look';
import { pollRound, type ListMemory } from './round';

function describeLast(job: Tracked): string {
	if (!job.status) return 'not seen yet';
	return job.progress === undefined ? job.status : `${job.status}, ${job.progress}%`;
}

function timeOut(context: IExecuteFunctions, job: GenerationJob, tracked: Tracked): void {
	const seconds = Math.round(tracked.settings.timeoutMs / 1000);
	if (tracked.settings.onTimeout === 'returnLast') {
		const output: IDataObject = { [job.idField]: tracked.id, status: tracked.status ?? null };
		if (tracked.progress !== undefined) output.progress = tracked.progress;
		output.timed_out = true;
		tracked.result = { outcome: 'timedOut', status: tracked.status ?? 'unknown', output };
		return;
	}
	tracked.result = {
		outcome: 'failed',
		status: tracked.status,
		error: new NodeOperationError(
			context.getNode(),
			`The ${job.noun} ${tracked.id} did not finish within ${seconds} ${seconds === 1 ? 'second' : 'seconds'} (last status: ${describeLast(tracked)})`,
			{
				itemIndex: tracked.itemIndex,
				description: `Nothing is lost: it may still finish. Run 'Wait for Completion' later with ${job.idLabel} ${tracked.id}, or raise the 'Timeout' option.`,
			},
		),
	};
}

/**
 * How long to pause before the next round: the shortest poll interval among the jobs (the first
 * look after a submission comes early, since a quick generation should show quickly), never
 * faster than the key's budget allows and never past the earliest deadline.
 */
function pauseBefore(
	pending: readonly Tracked[],
	firstLook: boolean,
	budgetMs: number,
	now: number,
): number {
	let interval = Infinity;
	let deadline = Infinity;
	for (const tracked of pending) {
		interval = Math.min(interval, tracked.settings.pollIntervalMs);
		deadline = Math.min(deadline, tracked.deadline);
	}
	if (firstLook) interval = Math.min(interval, WAIT.firstLook * 1000);
	return Math.max(0, Math.min(Math.max(interval, budgetMs), deadline - now));
}

/**
 * Waits for many jobs together, so the wall time is that of the slowest job rather than the sum.
 * A round's cost is described at `pollRound`. Cancelling the execution stops the wait.
 */
export async function waitForAll(
	context: IExecuteFunctions,
	job: GenerationJob,
	targets: WaitTarget[],
	/** `connection`: the run's own, when it has one already. */
	options: { initialDelay: boolean; stopOnFailure: boolean; connection?: Connection },
): Promise<WaitResult[]> {
	const started = Date.now();
	const jobs: Tracked[] = targets.map((target) => ({
		...target,
		id: target.id.toLowerCase(),
		deadline: started + target.settings.timeoutMs,
	}));
	let pending = jobs;
	const memory: ListMemory = {};
	// One credential read for the whole wait; its rate-limit headers pace the rounds.
	const connection = options.connection ?? (await connect(context));
	for (let round = 0; pending.length > 0; round++) {
		if (round > 0 || options.initialDelay) {
			const now = Date.now();
			await pause(context, pauseBefore(pending, round === 0, connection.pacer.spacingMs(now), now));
		}
		await pollRound(context, connection, job, pending, memory);
		const now = Date.now();
		for (const tracked of pending)
			if (!tracked.result && now >= tracked.deadline) timeOut(context, job, tracked);
		pending = pending.filter((tracked) => !tracked.result);
		if (options.stopOnFailure && jobs.some((tracked) => tracked.result?.outcome === 'failed'))
			break;
	}
	return jobs.map(
		(tracked) =>
			tracked.result ?? { outcome: 'pending', status: tracked.status, progress: tracked.progress },
	);
}
