/* eslint-disable @n8n/community-nodes/no-restricted-globals -- dev-only: writes figures to stdout */
// What a real-n8n test prints besides the runner's verdicts: the settings it set and each check's
// figures, one line each, written straight to stdout so they read as a log, not as console calls.
export function report(line: string): void {
	process.stdout.write(`  | ${line}\n`);
}

export function reportSettings(title: string, settings: Record<string, string>): void {
	report(`${title}:`);
	for (const [name, value] of Object.entries(settings)) report(`    ${name}=${value}`);
}
