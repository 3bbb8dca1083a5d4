/**
 * Drives the tracker's generator synchronously with an answerer (tests and benchmarks): the node
 * does the same with the transport, asynchronously.
 */
import type {
	PollSteps,
	TrackerReply,
	TrackerRequest,
} from '../../nodes/ContentGenTrigger/tracker';

type Outcome<S> = S extends Generator<unknown, infer R, unknown> ? R : never;

export function runPollSync(
	steps: PollSteps,
	answer: (request: TrackerRequest) => TrackerReply,
): Outcome<PollSteps> {
	let next = steps.next();
	while (!next.done) next = steps.next(answer(next.value));
	return next.value;
}
