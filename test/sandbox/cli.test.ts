/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- test: starts the sandbox's command line as a user does, in a child process */
/**
 * `npm run sandbox` as a user runs it: a credential saved in n8n must keep working after the
 * sandbox restarts, with `--seed N` (same key, same data) or with a key file (same key).
 */
import { spawn } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

interface Started {
	baseUrl: string;
	apiKey: string;
	output: string;
}

/** Starts `tsx sandbox/cli.ts <args>` on a free port, reads what it prints, asks it, stops it. */
async function startAndAsk(args: string[], env: NodeJS.ProcessEnv = process.env) {
	const child = spawn(TSX, ['sandbox/cli.ts', '--port', '0', '--quiet', ...args], {
		cwd: ROOT,
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
	try {
		const started = await new Promise<Started>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no key printed:\n${output}`)), 30_000);
			const check = () => {
				const baseUrl = /^Base URL:\s+(\S+)/m.exec(output)?.[1];
				const apiKey = /^API key:\s+(\S+)/m.exec(output)?.[1];
				if (baseUrl && apiKey && output.includes('Ctrl-C')) {
					clearTimeout(timer);
					resolve({ baseUrl, apiKey, output });
				}
			};
			child.stdout.on('data', check);
			child.on('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`the sandbox exited (${code}):\n${output}`));
			});
		});
		const get = async (path: string) => {
			const response = await fetch(`${started.baseUrl}/api/v1${path}`, {
				headers: { Authorization: `Bearer ${started.apiKey}` },
			});
			return { status: response.status, body: (await response.json()) as { data: unknown } };
		};
		const asked = performance.now();
		const credits = await get('/user/credits');
		const creditsMs = performance.now() - asked;
		const projects = await get('/projects?limit=100');
		const articles = await get('/articles?limit=100');
		return {
			...started,
			creditsStatus: credits.status,
			creditsMs,
			projects: (projects.body.data as Array<{ id: string; business_name: string }>).map(
				(p) => `${p.id} ${p.business_name}`,
			),
			articles: (articles.body.data as Array<{ id: string; title: string }>).map(
				(a) => `${a.id} ${a.title}`,
			),
		};
	} finally {
		child.kill('SIGTERM');
		await exited;
	}
}

describe('npm run sandbox across restarts', () => {
	let home: string;
	beforeAll(() => {
		home = mkdtempSync(join(tmpdir(), 'contentgen-sandbox-cli-'));
	});
	afterAll(() => rmSync(home, { recursive: true, force: true }));

	it('--seed 7 gives the same key and the same data on every start', async () => {
		const first = await startAndAsk(['--seed', '7']);
		const second = await startAndAsk(['--seed', '7']);
		expect(first.apiKey).toMatch(/^svc_[0-9a-f]{64}$/);
		expect(second.apiKey).toBe(first.apiKey);
		expect(second.creditsStatus).toBe(200);
		expect(first.projects.length).toBeGreaterThan(0);
		expect(second.projects).toEqual(first.projects);
		expect(first.articles.length).toBeGreaterThan(0);
		expect(second.articles).toEqual(first.articles);
	}, 90_000);

	it('another seed gives another key and other data', async () => {
		const seven = await startAndAsk(['--seed', '7']);
		const eight = await startAndAsk(['--seed', '8']);
		expect(eight.apiKey).not.toBe(seven.apiKey);
		expect(eight.projects).not.toEqual(seven.projects);
	}, 90_000);

	it("--keep-key keeps the first start's key in the user's folder and uses it on every start", async () => {
		const env = { ...process.env, HOME: home };
		const first = await startAndAsk(['--keep-key'], env);
		const file = join(home, '.contentgen-sandbox', 'api-key');
		expect(readFileSync(file, 'utf8').trim()).toBe(first.apiKey);
		expect(statSync(file).mode & 0o077).toBe(0); // readable by its owner only
		expect(first.output).toContain(file);

		const second = await startAndAsk(['--keep-key'], env);
		expect(second.apiKey).toBe(first.apiKey);
		expect(second.creditsStatus).toBe(200);
		// Without a seed the data is new on each start; only the key is kept.
		expect(second.projects).not.toEqual(first.projects);
	}, 90_000);

	it('--key-file names where the key is kept; a file that holds no key is refused, not replaced', async () => {
		const file = join(home, 'my-key');
		const first = await startAndAsk(['--key-file', file, '--seed', '3']);
		const second = await startAndAsk(['--key-file', file]);
		expect(second.apiKey).toBe(first.apiKey);

		const broken = join(home, 'broken-key');
		writeFileSync(broken, 'not a key\n');
		await expect(startAndAsk(['--key-file', broken])).rejects.toThrow(
			/--key-file .*broken-key holds no sandbox key \(svc_ and 64 hexadecimal characters\)/,
		);
		expect(readFileSync(broken, 'utf8')).toBe('not a key\n');
	}, 90_000);

	it('--host 0.0.0.0 (for n8n in Docker): a Base URL this machine reaches, the Docker address, a warning for a seeded key', async () => {
		const started = await startAndAsk(['--host', '0.0.0.0', '--seed', '5']);
		expect(started.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(started.creditsStatus).toBe(200);
		const port = new URL(started.baseUrl).port;
		expect(started.output).toContain(
			`From Docker:    http://host.docker.internal:${port} (run n8n's container with --add-host=host.docker.internal:host-gateway`,
		);
		expect(started.output).toMatch(/^Warning: .*use --keep-key instead$/m);
	}, 30_000);

	it('--latency and --jitter hold every answer back, and say so at start', async () => {
		const started = await startAndAsk(['--latency', '250', '--jitter', '20']);
		expect(started.output).toMatch(/^Latency:\s+250 ms ± 20 ms on every answer/m);
		expect(started.creditsStatus).toBe(200);
		expect(started.creditsMs).toBeGreaterThanOrEqual(225);
		await expect(startAndAsk(['--latency', '-5'])).rejects.toThrow(
			/--latency must be 0 or more milliseconds/,
		);
	}, 60_000);

	it('--ids v7 mints UUIDv7 record ids; another value is refused', async () => {
		const started = await startAndAsk(['--ids', 'v7']);
		expect(started.articles.length).toBeGreaterThan(0);
		expect(started.articles.filter((a) => !/^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(a))).toEqual([]);
		await expect(startAndAsk(['--ids', 'v6'])).rejects.toThrow(/--ids must be v4 or v7/);
	}, 60_000);

	it('a seed that is not a whole number is refused with the flag and its bound', async () => {
		await expect(startAndAsk(['--seed', '7.5'])).rejects.toThrow(
			/--seed must be a whole number from 0 to 4294967295/,
		);
	}, 30_000);
});
