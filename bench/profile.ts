/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only: reads a CPU profile and prints its summary */
/**
 * `npx tsx bench/profile.ts <file.cpuprofile> [top]`: the profile's functions by self time, and
 * the time by where the code lives (ours in nodes/ and credentials/, n8n's, the sandbox, Node's).
 * Made by `node --cpu-prof`, or for the timed runs alone by `npx tsx bench/throughput.ts --only=get
 * --path=node --profile=<file>`.
 */
import { readFileSync } from 'fs';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

interface Profile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

const AREAS: Array<[string, RegExp]> = [
	['ours (nodes/, credentials/)', /\/(nodes|credentials)\//],
	['sandbox', /\/sandbox\//],
	['bench, harness', /\/(bench|harness)\//],
	['n8n-core', /node_modules\/n8n-core\//],
	['n8n-workflow', /node_modules\/n8n-workflow\//],
	['axios, follow-redirects, form-data', /node_modules\/(axios|follow-redirects|form-data)\//],
	['other packages', /node_modules\//],
	['(the profiler stopping)', /^node:inspector/],
	['Node (node:*)', /^node:/],
];

function areaOf(url: string, name: string): string {
	if (!url) return name.startsWith('(') ? name : '(native)';
	return AREAS.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other';
}

function main(): void {
	const [file, topArg] = process.argv.slice(2);
	const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const self = new Map<number, number>();
	profile.samples.forEach((id, i) =>
		self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
	);
	const total = [...self.values()].reduce((a, b) => a + b, 0);
	const fns = new Map<string, number>();
	const areas = new Map<string, number>();
	for (const [id, us] of self) {
		const { functionName, url, lineNumber } = (byId.get(id) as ProfileNode).callFrame;
		const where = url
			.replace(/^file:\/\//, '')
			.replace(/^.*?\/(node_modules\/|nodes\/|credentials\/|sandbox\/|bench\/|harness\/)/, '$1');
		const key = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
		fns.set(key, (fns.get(key) ?? 0) + us);
		const area = areaOf(url, functionName);
		areas.set(area, (areas.get(area) ?? 0) + us);
	}
	const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
	const msOf = (us: number) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
	console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
	console.log('\nby area (self time):');
	for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1]))
		console.log(`${msOf(us)} ${pct(us)}  ${area}`);
	console.log('\ntop functions (self time):');
	for (const [key, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25)))
		console.log(`${msOf(us)} ${pct(us)}  ${key}`);
}

main();
