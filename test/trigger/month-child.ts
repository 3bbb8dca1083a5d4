/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a child process of month.property.test.ts: reads its cases from argv, writes verdicts to stdout */
/**
 * One process of the month's deep run (./month-runs): plays the cases it is given in order and
 * writes each verdict as a line as soon as it has it.
 */
import { monthOf } from '../../harness/trigger/month';
import { RESULT, sizeOf, verdict, type MonthCase } from './month-runs';

async function main(): Promise<void> {
	const cases = JSON.parse(process.argv[2]) as Array<{ c: MonthCase; index: number }>;
	for (const { c, index } of cases) {
		const [seed, order, delivery] = c;
		const message = await verdict(monthOf(seed, order, sizeOf(seed)), delivery);
		process.stdout.write(`${RESULT}${JSON.stringify({ index, message })}\n`);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exitCode = 1;
});
